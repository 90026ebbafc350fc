-- The Neovim scenarios of Tests/e2e/test_editor_lsp_features.py: code lenses, document
-- symbols, rename and memo.new, each through what a Neovim 0.7 user does. Loaded by
-- harness.lua when MEMO_TEST_SCENARIOS is "lsp_features".
local S = {}

-- :lua vim.lsp.codelens.refresh(), then what Neovim shows: the lenses it keeps, and the
-- virtual text it draws for them on each line.
function S.codelens(h)
  local note = h.open("lenses.md")
  vim.lsp.codelens.refresh()
  local lenses = h.wait(function()
    local list = vim.lsp.codelens.get(note)
    return #list > 0 and list
  end, 5000) or {}
  local titles = {}
  for _, lens in ipairs(lenses) do
    table.insert(titles, { line = lens.range.start.line + 1, text = h.range_text(note, lens.range),
                           title = lens.command and lens.command.title or vim.NIL })
  end
  h.record("lenses", titles)
  local namespace = vim.lsp.codelens.__namespaces[h.client().id]
  local shown = {}
  for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(note, namespace, 0, -1, { details = true })) do
    local chunks = {}
    for _, chunk in ipairs(mark[4].virt_text or {}) do table.insert(chunks, chunk[1]) end
    table.insert(shown, { line = mark[2] + 1, text = table.concat(chunks) })
  end
  h.record("shown", shown)
end

-- :lua vim.lsp.buf.document_symbol(): the quickfix list it fills, for a Markdown note and for
-- a memo's own file (opened by gd).
function S.document_symbols(h)
  local function symbols()
    vim.fn.setqflist({}, "r")
    vim.lsp.buf.document_symbol()
    local items = h.wait(function() local list = vim.fn.getqflist() return #list > 0 and list end, 5000) or {}
    local found = {}
    for _, item in ipairs(items) do table.insert(found, { line = item.lnum, text = item.text }) end
    vim.cmd("cclose")
    return found
  end
  local outline = h.open("outline.md")
  h.record("outline", symbols())
  vim.api.nvim_set_current_buf(outline)
  h.search("#1", 1)
  vim.lsp.buf.definition()
  h.wait(function() return vim.api.nvim_get_current_buf() ~= outline end, 5000)
  h.wait(function() return vim.lsp.buf_is_attached(0, h.client().id) end, 5000)
  h.record("memo file", symbols())
end

-- gd on #1 in about.md: the note's buffer, and the memo's file's, attached to the server.
local function open_memo_1_from_the_note(h)
  local note = h.open("about.md")
  h.search("#1", 1)
  vim.lsp.buf.definition()
  h.wait(function() return vim.api.nvim_get_current_buf() ~= note end, 5000)
  local file = vim.api.nvim_get_current_buf()
  h.wait(function() return vim.lsp.buf_is_attached(file, h.client().id) end, 5000)
  return note, file
end

-- gd on #1 (the memo's file stays open), back to the note, then :lua vim.lsp.buf.rename()
-- on #1: Neovim asks prepareRename, offers its placeholder in vim.ui.input, and the user
-- types the new title.
function S.rename(h)
  local note, file = open_memo_1_from_the_note(h)
  vim.api.nvim_set_current_buf(note)
  h.search("#1", 1)
  local input = vim.ui.input
  local offered
  vim.ui.input = function(opts, on_confirm)
    offered = opts.default
    on_confirm("Groceries for the week")
  end
  vim.lsp.buf.rename()
  h.wait(function() return offered ~= nil end, 5000)
  vim.ui.input = input
  h.settle()
  h.record("offered", offered or vim.NIL)
  h.record("file text", h.text(file))
  h.record("note text", h.text(note))
  -- then a line added to the memo's file, and :w
  vim.api.nvim_set_current_buf(file)
  h.feed("Goand eggs<Esc>")
  vim.cmd("write")
  h.settle()
  h.record("errors after saving", h.diagnostics(file, 1000))
end

-- gd on #1, a new first line typed in its file and not saved, back to the note, then
-- :lua vim.lsp.buf.rename() on #1: the server's refusal is what Neovim shows, the typed line
-- stays.
function S.rename_unsaved_title(h)
  local note, file = open_memo_1_from_the_note(h)
  h.feed("ggODraft heading typed<CR><Esc>")
  -- The user takes a moment to go back to the note: Neovim sends the typed change (0.7 holds
  -- a buffer's changes a while; a request on the buffer sends them at once).
  vim.lsp.buf_request_sync(file, "textDocument/documentSymbol",
                           { textDocument = { uri = vim.uri_from_bufnr(file) } }, 5000)
  vim.api.nvim_set_current_buf(note)
  h.search("#1", 1)
  local shown = {}
  local notify, err_writeln, input = vim.notify, vim.api.nvim_err_writeln, vim.ui.input
  vim.notify = function(text, ...) table.insert(shown, text) return notify(text, ...) end
  vim.api.nvim_err_writeln = function(text) table.insert(shown, text) end
  vim.ui.input = function(_, on_confirm) on_confirm("Groceries for the week") end
  vim.lsp.buf.rename()
  h.wait(function() return #shown > 0 end, 5000)
  vim.notify, vim.api.nvim_err_writeln, vim.ui.input = notify, err_writeln, input
  h.settle()
  h.record("shown", table.concat(shown, "\n"))
  h.record("file text", h.text(file))
end

-- :lua vim.lsp.buf.execute_command({ command = "memo.new", arguments = { "..." } }): Neovim
-- 0.7 does not open documents for the server (window.showDocument), so the server's
-- message names the file, which the user then opens with :edit.
function S.new_memo(h)
  h.open("about.md")
  local messages = {}
  local write = vim.api.nvim_out_write
  vim.api.nvim_out_write = function(text)
    table.insert(messages, text)
    return write(text)
  end
  vim.lsp.buf.execute_command({ command = "memo.new", arguments = { "A fresh idea" } })
  local message = h.wait(function()
    for _, text in ipairs(messages) do if text:find("Added memo", 1, true) then return text end end
  end, 5000)
  vim.api.nvim_out_write = write
  h.record("message", message or vim.NIL)
  local path = message and message:match("its file is (%S+)")
  if path then
    vim.cmd("edit " .. vim.fn.fnameescape(path))
    h.record("opened", h.text())
    h.record("attached", h.wait(function() return vim.lsp.buf_is_attached(0, h.client().id) end, 5000) or false)
  end
end

-- gd on #1 with an encrypted store: no file opens (its memos have none); Neovim shows the
-- server's answer, an error that says why, as an error message (vim.notify).
function S.sealed_definition(h)
  local note = h.open("about.md")
  h.search("#1", 1)
  local shown = {}
  local notify, err_writeln = vim.notify, vim.api.nvim_err_writeln
  vim.notify = function(text, ...) table.insert(shown, text) return notify(text, ...) end
  vim.api.nvim_err_writeln = function(text) table.insert(shown, text) end
  vim.lsp.buf.definition()
  h.wait(function() return #shown > 0 end, 5000)
  vim.notify, vim.api.nvim_err_writeln = notify, err_writeln
  h.settle()
  h.record("shown", table.concat(shown, "\n"))
  h.record("still in the note", vim.api.nvim_get_current_buf() == note)
end

return S
