-- What the Neovim tests do in the editor: each scenario works on the files
-- Tests/e2e/test_neovim.py wrote into $MEMO_TEST_DIR and records what Neovim shows (see
-- harness.lua); the test makes the assertions.
local S = {}

function S.diagnostics(h)
  local note = h.open("note.md")
  h.record("note", h.diagnostics(note))
  local commands = h.open("commands.memo")
  h.record("commands", h.diagnostics(commands))
end

function S.hover(h)
  h.open("note.md")
  h.search("#1", 1)
  h.record("hover", h.hover())
end

function S.definition(h)
  local note = h.open("about.md")
  h.search("#1", 1)
  vim.lsp.buf.definition()                     -- gd
  h.wait(function() return vim.api.nvim_get_current_buf() ~= note end, 5000)
  local file = vim.api.nvim_get_current_buf()
  h.record("file", vim.api.nvim_buf_get_name(file))
  h.record("text", h.text(file))
  h.record("attached", h.wait(function() return vim.lsp.buf_is_attached(file, h.client().id) end, 5000) or false)
  h.feed("A and eggs<Esc>")
  vim.cmd("write")
  h.settle()                                   -- the server applies didSave
  h.record("saved", h.text(file))
end

-- Types $MEMO_TEST_TEXT on a new line of $MEMO_TEST_FILE, moves back $MEMO_TEST_BACK
-- characters, completes with <C-x><C-o> and picks $MEMO_TEST_CHOOSE.
function S.completion(h)
  h.open(h.getenv("MEMO_TEST_FILE"))
  local text, back, choose = h.getenv("MEMO_TEST_TEXT"), tonumber(h.getenv("MEMO_TEST_BACK")), h.getenv("MEMO_TEST_CHOOSE")
  h.feed("i" .. text .. string.rep("<Left>", back))
  local words, chosen = h.omni_complete(function(word) return word == choose end)
  h.record("candidates", words)
  h.record("chosen", chosen or vim.NIL)
  h.record("line", h.line())
end

function S.code_actions(h)
  local note = h.open("selection.md")
  h.search("move me, please")
  h.feed("vg_<Esc>")
  h.record("move offered", h.range_code_action("Move selection to a memo"))
  h.record("after move", h.text(note))
  h.search("save me too")
  h.feed("vg_<Esc>")
  h.record("save offered", h.range_code_action("Save selection as memo"))
  h.record("after save", h.text(note))
end

-- Opens $MEMO_TEST_FILE, deletes the character at the first $MEMO_TEST_SEARCH plus
-- $MEMO_TEST_OFFSET bytes with `x` (with 'delcombine', so that `x` on a letter with a
-- combining accent deletes the accent), then records what the server says about the line.
function S.graphemes(h)
  local buffer = h.open(h.getenv("MEMO_TEST_FILE"))
  h.diagnostics(buffer)                        -- the first diagnostics are in
  vim.o.delcombine = true
  h.search(h.getenv("MEMO_TEST_SEARCH"), tonumber(h.getenv("MEMO_TEST_OFFSET")))
  h.feed("x")
  h.record("line", h.line())
  h.record("diagnostics", h.diagnostics(buffer, 3000, function(list) return #list > 0 and list[1].text == "#99" end))
  h.record("links", h.links())
  h.search("#1", 1)
  h.record("hover", h.hover() or vim.NIL)
end

function S.not_references(h)
  local note = h.open("not-references.md")
  h.record("markdown diagnostics", h.diagnostics(note))
  h.record("markdown links", h.links())
  local style = h.open("style.css")
  h.record("css diagnostics", h.diagnostics(style))
  h.record("css links", h.links())
end

function S.symbols_and_hints(h)
  h.open("links.md")
  local hints = {}
  for _, hint in ipairs(h.request("textDocument/inlayHint", {
    textDocument = vim.lsp.util.make_text_document_params(),
    range = { start = { line = 0, character = 0 }, ["end"] = { line = 1, character = 0 } },
  }) or {}) do
    table.insert(hints, hint.label)
  end
  h.record("hints", hints)
  h.record("links", h.links())
  vim.lsp.buf.workspace_symbol("dentist")     -- :lua vim.lsp.buf.workspace_symbol()
  local items = h.wait(function() local list = vim.fn.getqflist() return #list > 0 and list end, 5000) or {}
  local symbols = {}
  for _, item in ipairs(items) do
    table.insert(symbols, { file = vim.api.nvim_buf_get_name(item.bufnr), text = item.text })
  end
  h.record("symbols", symbols)
end

-- gr on a reference: vim.lsp.buf.references() fills the quickfix list with the places that
-- reference the memo (Neovim 0.7 asks with includeDeclaration, so the memo's own file too).
function S.references(h)
  h.open("about.md")
  h.search("#1", 1)
  vim.lsp.buf.references()
  local items = h.wait(function() local list = vim.fn.getqflist() return #list > 0 and list end, 5000) or {}
  local found = {}
  for _, item in ipairs(items) do
    table.insert(found, { file = vim.api.nvim_buf_get_name(item.bufnr), line = item.lnum, col = item.col, text = item.text })
  end
  h.record("references", found)
end

return S
