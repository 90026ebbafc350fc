"""Emacs 28 with eglot 1.9 (Debian's emacs-nox and elpa-eglot), in batch mode, against `memo
serve`: every feature the server announces, through the commands an Emacs user runs (flymake,
eldoc, xref-find-definitions, save-buffer, completion-at-point, eglot-code-actions,
xref-find-apropos, delete-char). The editor side is Tests/e2e/editors/harness.el and
scenarios.el; the shared plumbing and checks are in editors.py."""
import pytest

import editors
from editors import COMPLETIONS, prepare


def test_flymake_warns_on_a_missing_memo_and_flags_an_unknown_command(memo_binary, environment, tmp_path):
    editors.check_diagnostics(prepare(memo_binary, environment, tmp_path).emacs("diagnostics"))


def test_eldoc_shows_the_memo_under_point(memo_binary, environment, tmp_path):
    editors.check_hover(prepare(memo_binary, environment, tmp_path).emacs("hover")["eldoc"])


def test_xref_opens_the_memos_file_and_save_buffer_edits_the_memo(memo_binary, environment, tmp_path):
    setup = prepare(memo_binary, environment, tmp_path)
    result = setup.emacs("definition")
    editors.check_definition_and_save(setup, result)


@pytest.mark.parametrize("case", COMPLETIONS)
def test_completion_at_point(memo_binary, environment, tmp_path, case):
    """completion-at-point with eglot's table, the candidate picked as corfu picks one."""
    file, text, back, choose, _ = COMPLETIONS[case]
    result = prepare(memo_binary, environment, tmp_path).emacs(
        "completion", MEMO_TEST_FILE=file, MEMO_TEST_TEXT=text, MEMO_TEST_BACK=str(back), MEMO_TEST_CHOOSE=choose)
    editors.check_completion(result, case)


def test_code_actions_save_and_move_the_region(memo_binary, environment, tmp_path):
    """eglot-code-actions on the region; eglot answers the server's workspace/applyEdit
    (after its confirmation question, answered yes)."""
    setup = prepare(memo_binary, environment, tmp_path)
    result = setup.emacs("code_actions")
    editors.check_code_actions(setup, result)
    assert len(result.get("confirmations", [])) == 1


@pytest.mark.parametrize("file, search, offset, line", [
    ("flag.md", "🇯🇵", 0, "🇵 #1 #99"),           # the first regional indicator of a flag
    ("accent.md", "e\u0301", 1, "e #1 #99"),      # the combining accent after e
], ids=["regional indicator", "combining accent"])
def test_delete_char_inside_a_grapheme_cluster_keeps_the_servers_view(memo_binary, environment, tmp_path,
                                                                      file, search, offset, line):
    result = prepare(memo_binary, environment, tmp_path).emacs(
        "graphemes", MEMO_TEST_FILE=file, MEMO_TEST_SEARCH=search, MEMO_TEST_OFFSET=str(offset))
    editors.check_graphemes(result, line)


def test_urls_code_and_colours_are_not_references(memo_binary, environment, tmp_path):
    editors.check_not_references(prepare(memo_binary, environment, tmp_path).emacs("not_references"))


def test_links_inlay_hints_and_xref_find_apropos(memo_binary, environment, tmp_path):
    """eglot 1.9 shows neither document links nor inlay hints: those are asked through its
    connection; workspace symbols come through M-x xref-find-apropos."""
    setup = prepare(memo_binary, environment, tmp_path)
    result = setup.emacs("symbols_and_hints")
    editors.check_links_and_hints(setup, result)
    assert result["apropos"].splitlines() == [str(setup.memo_file(4)), "1: Dentist on Tuesday"]
