"""Neovim's built-in LSP client (Debian's neovim, 0.7, headless) against `memo serve`: every
feature the server announces, through what a Neovim user does (vim.diagnostic, K as
vim.lsp.buf.hover, gd as vim.lsp.buf.definition then :write, <C-x><C-o> with
vim.lsp.omnifunc, vim.lsp.buf.range_code_action, vim.lsp.buf.workspace_symbol, x). The editor
side is Tests/e2e/editors/harness.lua and scenarios.lua; the shared plumbing and checks are
in editors.py."""
import pytest

import editors
from editors import COMPLETIONS, prepare


def test_diagnostics_warn_on_a_missing_memo_and_flag_an_unknown_command(memo_binary, environment, tmp_path):
    editors.check_diagnostics(prepare(memo_binary, environment, tmp_path).neovim("diagnostics"))


def test_hover_shows_the_memo_under_the_cursor(memo_binary, environment, tmp_path):
    editors.check_hover(prepare(memo_binary, environment, tmp_path).neovim("hover")["hover"])


def test_definition_opens_the_memos_file_and_write_edits_the_memo(memo_binary, environment, tmp_path):
    setup = prepare(memo_binary, environment, tmp_path)
    result = setup.neovim("definition")
    editors.check_definition_and_save(setup, result)


# What no answer of the server can make Neovim 0.7's omnifunc do (it keeps the items whose
# word starts with the text from the completion's start column, and inserts that word with
# complete(), which replaces only the text before the cursor, never applying the textEdit).
NEOVIM_07_CANNOT = {
    "after words": "Neovim 0.7 drops an item whose word (#4) does not start with the typed text (Den or #Den)",
    "inside a reference": "Neovim 0.7's complete() keeps the text after the cursor (1 trailing)",
}


@pytest.mark.parametrize("case", [pytest.param(case, marks=pytest.mark.xfail(reason=NEOVIM_07_CANNOT[case]))
                                  if case in NEOVIM_07_CANNOT else case for case in COMPLETIONS])
def test_omni_completion(memo_binary, environment, tmp_path, case):
    """<C-x><C-o> in insert mode, then <C-n> to the item and <C-y>."""
    file, text, back, choose, _ = COMPLETIONS[case]
    result = prepare(memo_binary, environment, tmp_path).neovim(
        "completion", MEMO_TEST_FILE=file, MEMO_TEST_TEXT=text, MEMO_TEST_BACK=str(back), MEMO_TEST_CHOOSE=choose)
    editors.check_completion(result, case)


def test_range_code_actions_save_and_move_the_selection(memo_binary, environment, tmp_path):
    """A visual selection, vim.lsp.buf.range_code_action(), the action picked in vim.ui.select;
    Neovim applies the server's workspace/applyEdit."""
    setup = prepare(memo_binary, environment, tmp_path)
    editors.check_code_actions(setup, setup.neovim("code_actions"))


@pytest.mark.parametrize("file, search, line", [
    ("flag.md", "🇯🇵", "🇵 #1 #99"),             # x deletes the first regional indicator
    ("accent.md", "e\u0301", "e #1 #99"),         # with 'delcombine', x deletes the accent
], ids=["regional indicator", "combining accent"])
def test_x_inside_a_grapheme_cluster_keeps_the_servers_view(memo_binary, environment, tmp_path, file, search, line):
    result = prepare(memo_binary, environment, tmp_path).neovim(
        "graphemes", MEMO_TEST_FILE=file, MEMO_TEST_SEARCH=search, MEMO_TEST_OFFSET="0")
    editors.check_graphemes(result, line)


def test_urls_code_and_colours_are_not_references(memo_binary, environment, tmp_path):
    editors.check_not_references(prepare(memo_binary, environment, tmp_path).neovim("not_references"))


def test_links_inlay_hints_and_workspace_symbols(memo_binary, environment, tmp_path):
    """Neovim 0.7 shows neither document links nor inlay hints: those are asked with
    buf_request_sync; vim.lsp.buf.workspace_symbol fills the quickfix list."""
    setup = prepare(memo_binary, environment, tmp_path)
    result = setup.neovim("symbols_and_hints")
    editors.check_links_and_hints(setup, result)
    assert [(s["file"], s["text"]) for s in result["symbols"]] == [(str(setup.memo_file(4)), "[File] Dentist on Tuesday")]


def test_references_fill_the_quickfix_list(memo_binary, environment, tmp_path):
    """vim.lsp.buf.references() on `#1` in a note: the memo's own file, each memo whose text
    references it (at the reference, after Japanese text too), the note itself, and the
    project's closed files that reference it (after an emoji flag and a combining accent too)."""
    setup = prepare(memo_binary, environment, tmp_path)
    editors.memo(memo_binary, setup.environment, setup.store, "add", "see #1 here")
    editors.memo(memo_binary, setup.environment, setup.store, "add", "日本語 and #1")
    result = setup.neovim("references")
    found = {(item["file"], item["line"], item["col"], item["text"]) for item in result["references"]}
    assert found == {(str(setup.memo_file(1)), 1, 1, "Buy milk and bread @errand"),
                     (str(setup.memo_file(14)), 1, 5, "see #1 here"),
                     (str(setup.memo_file(15)), 1, len("日本語 and ".encode()) + 1, "日本語 and #1"),
                     (str(setup.project / "about.md"), 1, 7, "about #1"),
                     (str(setup.project / "note.md"), 1, 5, "See #1 and #99 here."),
                     (str(setup.project / "links.md"), 1, 5, "See #1 and #2."),
                     (str(setup.project / "flag.md"), 1, len("🇯🇵 ".encode()) + 1, "🇯🇵 #1 #99"),
                     (str(setup.project / "accent.md"), 1, len("e\u0301 ".encode()) + 1, "e\u0301 #1 #99")}
