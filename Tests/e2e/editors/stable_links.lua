-- Stable memo links in Neovim 0.7 (Tests/e2e/test_editor_stable_links.py runs these with
-- MEMO_TEST_SCENARIOS=stable_links; completion uses scenarios.lua's).
local S = {}

-- "Make memo links stable" on the whole of stable.md, through range_code_action.
function S.stable_links_action(h)
  local note = h.open("stable.md")
  h.feed("ggVG<Esc>")
  h.record("offered", h.range_code_action("Make memo links stable"))
  h.record("after", h.text(note))
end

-- Moves the first three lines of moves.md to memos, one after another.
function S.stable_moves(h)
  local note = h.open("moves.md")
  for n = 1, 3 do
    h.search("move " .. n .. ".")
    h.feed("vg_<Esc>")
    h.range_code_action("Move selection to a memo")
  end
  h.record("after", h.text(note))
end

return S
