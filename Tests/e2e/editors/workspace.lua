-- The workspace scenarios (Tests/e2e/test_editor_workspace.py): references that find the
-- closed files of the project Neovim names as its root. Loaded by harness.lua when
-- MEMO_TEST_SCENARIOS=workspace.
local S = {}

-- vim.lsp.buf.references() (what `gr` is mapped to in the README), then the quickfix list.
local function references(h)
  vim.fn.setqflist({}, "r")
  vim.lsp.buf.references()
  local items = h.wait(function() local list = vim.fn.getqflist() return #list > 0 and list end, 10000) or {}
  local found = {}
  for _, item in ipairs(items) do
    table.insert(found, { file = vim.api.nvim_buf_get_name(item.bufnr), line = item.lnum, col = item.col, text = item.text })
  end
  return found
end

-- References on `#1` in an open note.
function S.from_a_note(h)
  h.open("note.md")
  h.search("#1", 1)
  h.record("references", references(h))
end

-- gd on `#1` opens memo #1's own file; references with the cursor on its first word.
function S.from_a_memos_file(h)
  h.open("note.md")
  h.search("#1", 1)
  local note = vim.api.nvim_get_current_buf()
  vim.lsp.buf.definition()
  local file = h.wait(function()
    local buffer = vim.api.nvim_get_current_buf()
    return buffer ~= note and vim.lsp.buf_is_attached(buffer, h.client().id) and buffer
  end, 10000)
  if not file then error("go to definition did not open the memo's file attached to the server") end
  h.record("file", vim.api.nvim_buf_get_name(file))
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  h.record("references", references(h))
end

-- References on `#1`, then a file written on disk behind Neovim's back (Neovim 0.7 reports
-- no changed files), then references again.
function S.after_a_change_on_disk(h)
  h.open("note.md")
  h.search("#1", 1)
  local note = vim.api.nvim_get_current_win()
  h.record("before", references(h))
  vim.cmd("cclose")
  vim.api.nvim_set_current_win(note)
  local file = io.open(h.file("later.txt"), "w")
  file:write("later: #1\n")
  file:close()
  h.record("after", references(h))
end

return S
