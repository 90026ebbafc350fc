-- The memos' own files in Neovim: saves after the client restarts and after :e! of a file
-- edited on disk. Loaded by Tests/e2e/test_editor_memo_files.py (MEMO_TEST_SCENARIOS); each
-- scenario records what Neovim shows and the test asserts.
local S = {}

-- gd on #1 in about.md: the buffer of #1's own file, attached to the client.
local function visit_memo_1(h)
  local note = h.open("about.md")
  h.search("#1", 1)
  vim.lsp.buf.definition()
  h.wait(function() return vim.api.nvim_get_current_buf() ~= note end, 5000)
  local file = vim.api.nvim_get_current_buf()
  if not h.wait(function() return vim.lsp.buf_is_attached(file, h.client().id) end, 5000) then
    error("#1's file is not attached to the client")
  end
  return file
end

-- The messages of the errors shown in BUFFER once the server has answered everything.
local function errors(h, buffer)
  h.settle()
  local messages = {}
  for _, d in ipairs(h.diagnostics(buffer, 1000, function() return true end)) do
    if d.severity == "error" then table.insert(messages, d.message) end
  end
  return messages
end

-- Types SUFFIX at the end of the first line, writes the file; records the errors under KEY.
local function save(h, buffer, suffix, key)
  h.feed("gg$a" .. suffix .. "<Esc>")
  vim.cmd("write")
  h.record(key, errors(h, buffer))
end

function S.restart(h)
  local file = visit_memo_1(h)
  h.feed("gg$a and eggs<Esc>")
  local old = h.client().id
  h.restart()
  h.record("restarted", h.client().id ~= old and vim.lsp.buf_is_attached(file, h.client().id))
  vim.cmd("write")
  h.record("first save", errors(h, file))
  save(h, file, " and jam", "second save")
end

function S.reload(h)
  local file = visit_memo_1(h)
  -- Another program edits the file on disk; the user reloads it with :e!.
  local path = vim.api.nvim_buf_get_name(file)
  local out = io.open(path, "w")
  out:write("Buy milk and bread @errand, edited on disk\n")
  out:close()
  vim.cmd("edit!")
  h.record("reloaded", h.text(file))
  if not h.wait(function() return vim.lsp.buf_is_attached(file, h.client().id) end, 5000) then
    error("the reloaded file is not attached to the client")
  end
  save(h, file, " and in Neovim", "save")
end

return S
