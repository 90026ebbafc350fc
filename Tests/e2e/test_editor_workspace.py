"""References that find the closed files of the project, in real editors: Neovim 0.7
(vim.lsp.buf.references, which names the project as its root_dir) and Emacs 28 + eglot 1.9
(M-x xref-find-references, which names the project git finds). The project is a git work
tree with a closed plan.txt that cites memo #1 and a file its .gitignore leaves out. The
editor side is Tests/e2e/editors/workspace.lua and workspace.el."""
import editors
from editors import Editors


def prepare(memo_binary, environment, tmp_path):
    setup = Editors(memo_binary, environment, tmp_path)
    editors.memo(memo_binary, setup.environment, setup.store, "add", "see #1 in a memo")  # #14
    setup.write("note.md", "See #1 here.\n")
    setup.write("plan.txt", "Plan\n\nask about #1 first\n")
    setup.write(".gitignore", "ignored.md\n")
    setup.write("ignored.md", "#1 is ignored\n")
    return setup


def neovim_found(result):
    return {(item["file"], item["line"], item["col"], item["text"]) for item in result["references"]}


def test_neovim_references_on_a_note_find_a_closed_file_of_the_project(memo_binary, environment, tmp_path):
    setup = prepare(memo_binary, environment, tmp_path)
    found = neovim_found(setup.neovim("from_a_note", MEMO_TEST_SCENARIOS="workspace"))
    assert found == {(str(setup.memo_file(1)), 1, 1, "Buy milk and bread @errand"),
                     (str(setup.memo_file(14)), 1, 5, "see #1 in a memo"),
                     (str(setup.project / "note.md"), 1, 5, "See #1 here."),
                     (str(setup.project / "plan.txt"), 3, 11, "ask about #1 first")}


def test_neovim_references_anywhere_in_a_memos_file_list_its_backlinks(memo_binary, environment, tmp_path):
    setup = prepare(memo_binary, environment, tmp_path)
    result = setup.neovim("from_a_memos_file", MEMO_TEST_SCENARIOS="workspace")
    assert result["file"] == str(setup.memo_file(1))
    assert neovim_found(result) == {(str(setup.memo_file(1)), 1, 1, "Buy milk and bread @errand"),
                                    (str(setup.memo_file(14)), 1, 5, "see #1 in a memo"),
                                    (str(setup.project / "note.md"), 1, 5, "See #1 here."),
                                    (str(setup.project / "plan.txt"), 3, 11, "ask about #1 first")}


def emacs_run(setup, scenario):
    return setup.emacs(scenario, MEMO_EXTRA_EL=str(editors.SCRIPTS / "workspace.el"))


def test_emacs_references_on_a_note_find_a_closed_file_of_the_project(memo_binary, environment, tmp_path):
    setup = prepare(memo_binary, environment, tmp_path)
    shown = emacs_run(setup, "workspace_from_a_note")["references"]
    assert shown and "plan.txt" in shown and "ask about #1 first" in shown, shown
    assert "see #1 in a memo" in shown and "14.md" in shown, shown
    assert "ignored" not in shown, "a file .gitignore leaves out was listed"


def test_emacs_references_anywhere_in_a_memos_file_list_its_backlinks(memo_binary, environment, tmp_path):
    setup = prepare(memo_binary, environment, tmp_path)
    result = emacs_run(setup, "workspace_from_a_memos_file")
    assert result["file"] == str(setup.memo_file(1))
    shown = result["references"]
    assert shown and "plan.txt" in shown and "ask about #1 first" in shown, shown
    assert "See #1 here." in shown and "see #1 in a memo" in shown, shown


def test_neovim_references_find_a_file_written_on_disk_since(memo_binary, environment, tmp_path):
    """Neovim 0.7 reports no changed files: the server checks the project again before answering."""
    setup = prepare(memo_binary, environment, tmp_path)
    result = setup.neovim("after_a_change_on_disk", MEMO_TEST_SCENARIOS="workspace")
    later = (str(setup.project / "later.txt"), 1, 8, "later: #1")
    assert later not in neovim_found({"references": result["before"]})
    assert later in neovim_found({"references": result["after"]})


def test_emacs_reports_a_file_written_on_disk_and_references_find_it(memo_binary, environment, tmp_path):
    """eglot registers the watch the server asks for and reports the new file."""
    setup = prepare(memo_binary, environment, tmp_path)
    result = emacs_run(setup, "workspace_after_a_change_on_disk")
    assert "later.txt" not in result["before"], result["before"]
    assert result["reported"] is True, "eglot did not report the new file (workspace/didChangeWatchedFiles)"
    assert "later.txt" in result["after"] and "later: #1" in result["after"], result["after"]
