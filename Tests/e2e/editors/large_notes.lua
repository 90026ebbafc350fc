-- A large note in Neovim: a note of 100,000 lines and 5 MiB naming 2,000 missing memos.
-- Loaded by Tests/e2e/test_editor_large_notes.py (MEMO_TEST_SCENARIOS); the test asserts.
local S = {}

-- The warnings shown, once one names `memo` (nil: once there are any).
local function warnings(h, buffer, memo)
  local list = h.diagnostics(buffer, 20000, function(list)
    for _, d in ipairs(list) do
      if memo == nil or d.message == "no memo " .. memo then return true end
    end
    return false
  end)
  local messages = {}
  for _, d in ipairs(list) do table.insert(messages, d.message) end
  return messages
end

function S.large_note(h)
  local note = h.open("big.md")
  h.record("opened", warnings(h, note))
  vim.api.nvim_win_set_cursor(0, { 100000, 1 })
  h.record("hover", h.hover())
  -- A broken reference typed at the end, past the first 1,000 broken ones.
  h.feed("Go see #99999<Esc>")
  h.record("typed", warnings(h, note, "#99999"))
end

return S
