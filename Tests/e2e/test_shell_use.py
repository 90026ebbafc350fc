"""Everyday use from a shell (issue: editor, standard input, per-command help, pager,
Ctrl-C): the real binary on pseudo-terminals and pipes."""
import json
import os
import stat
import subprocess

import pexpect
import pytest

from waiting import wait_until

CTRL_C = "\x03"
PROMPT = "memo> "



@pytest.fixture
def editor(tmp_path, store_environment):
    """A script standing in for $EDITOR: it records the file it was given (its text, its
    mode and its path), then writes the text of `writes` into it, as a person saving would."""
    script = tmp_path / "fake-editor"
    seen = tmp_path / "seen"
    text = tmp_path / "text-to-save"
    text.write_text("")
    script.write_text(
        "#!/bin/sh\n"
        f"cp \"$1\" '{seen}.text'\n"
        f"stat -c %a \"$1\" > '{seen}.mode'\n"
        f"printf '%s' \"$1\" > '{seen}.path'\n"
        f"cat '{text}' > \"$1\"\n")
    script.chmod(0o755)
    store_environment["EDITOR"] = str(script)

    class Editor:
        def writes(self, saved):
            text.write_text(saved)

        def given(self):
            return (tmp_path / "seen.text").read_text()

        def mode(self):
            return (tmp_path / "seen.mode").read_text().strip()

        def path(self):
            return (tmp_path / "seen.path").read_text()

    return Editor()


def memos(binary, environment):
    result = subprocess.run([binary, "--json", "list", "--asc"], env=environment, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in result.stdout.splitlines()]


def on_terminal(binary, environment, *arguments, rows=40):
    """Runs memo on a pseudo-terminal; its whole output and exit status."""
    child = pexpect.spawn(binary, list(arguments), env=environment, encoding="utf-8", timeout=20, dimensions=(rows, 100))
    child.expect(pexpect.EOF)
    child.close()
    return child.before.replace("\r\n", "\n"), child.exitstatus


def test_add_and_edit_without_text_open_the_editor(memo_binary, store_environment, editor):
    editor.writes("Written in the editor @inline\n")
    output, status = on_terminal(memo_binary, store_environment, "add", "--tag", "given")
    assert (output, status) == ("added #1\n", 0)
    assert editor.given() == ""
    assert editor.mode() == "600"
    assert not os.path.exists(editor.path()), "the temporary file is removed"
    [memo] = memos(memo_binary, store_environment)
    assert memo["content"] == "Written in the editor @inline"
    assert memo["tags"] == ["given", "inline"]

    editor.writes("Rewritten\n")
    assert on_terminal(memo_binary, store_environment, "edit", "1") == ("edited #1\n", 0)
    assert editor.given() == "Written in the editor @inline\n"
    assert memos(memo_binary, store_environment)[0]["content"] == "Rewritten"


def test_visual_comes_before_editor(memo_binary, store_environment, editor):
    store_environment["VISUAL"] = store_environment.pop("EDITOR")
    store_environment["EDITOR"] = "false"
    editor.writes("from VISUAL")
    assert on_terminal(memo_binary, store_environment, "add") == ("added #1\n", 0)


def test_an_empty_or_unchanged_text_changes_nothing(memo_binary, store_environment, editor):
    """An empty text writes nothing and fails, as git aborts an empty commit message; an
    unchanged one writes nothing and succeeds."""
    editor.writes("")
    assert on_terminal(memo_binary, store_environment, "add") == ("error: nothing added: the text is empty\n", 1)
    assert memos(memo_binary, store_environment) == []
    subprocess.run([memo_binary, "add", "kept as it is"], env=store_environment, check=True)
    editor.writes("kept as it is\n")
    assert on_terminal(memo_binary, store_environment, "edit", "1") == ("#1 unchanged: the text is the same\n", 0)
    editor.writes("")
    assert on_terminal(memo_binary, store_environment, "edit", "1") == ("error: #1 unchanged: the new text is empty\n", 1)
    assert memos(memo_binary, store_environment)[0]["updateDate"] is None


def test_a_failing_editor_changes_nothing(memo_binary, store_environment):
    store_environment["EDITOR"] = "exit 3; true"
    output, status = on_terminal(memo_binary, store_environment, "add")
    assert status == 1
    assert output == "error: the editor 'exit 3; true' failed (exit status 3); nothing changed\n"
    assert memos(memo_binary, store_environment) == []


def test_the_repl_opens_the_editor_too(memo_binary, store_environment, editor):
    editor.writes("from the REPL's editor")
    child = pexpect.spawn(memo_binary, [], env=store_environment, encoding="utf-8", timeout=20)
    child.expect_exact(PROMPT)
    child.send("add\r")
    child.expect_exact("added #1")
    child.expect_exact(PROMPT)
    editor.writes("edited in the REPL")
    child.send("edit 1\r")
    child.expect_exact("edited #1")
    child.expect_exact(PROMPT)
    assert editor.given() == "from the REPL's editor\n"
    child.send("\x04")
    child.expect(pexpect.EOF)
    assert [memo["content"] for memo in memos(memo_binary, store_environment)] == ["edited in the REPL"]


def test_piped_standard_input_is_the_text(memo_binary, store_environment, editor):
    editor.writes("the editor must not open")
    added = subprocess.run([memo_binary, "add", "--tag", "work"], input="commit 1a2b3c\n\n    Fix the build\n",
                           env=store_environment, capture_output=True, text=True)
    assert (added.stdout, added.stderr, added.returncode) == ("added #1\n", "", 0)
    edited = subprocess.run([memo_binary, "edit", "1"], input="replaced from a pipe\r\n",
                            env=store_environment, capture_output=True, text=True)
    assert edited.stdout == "edited #1\n"
    empty = subprocess.run([memo_binary, "add"], input="", env=store_environment, capture_output=True, text=True)
    assert (empty.stdout, empty.stderr, empty.returncode) == ("", "error: nothing added: the text is empty\n", 1)
    unchanged = subprocess.run([memo_binary, "edit", "1"], input="replaced from a pipe\n", env=store_environment,
                               capture_output=True, text=True)
    assert (unchanged.stdout, unchanged.returncode) == ("#1 unchanged: the text is the same\n", 0)
    emptied = subprocess.run([memo_binary, "edit", "1"], stdin=subprocess.DEVNULL, env=store_environment,
                             capture_output=True, text=True)
    assert (emptied.stdout, emptied.stderr, emptied.returncode) == ("", "error: #1 unchanged: the new text is empty\n", 1)
    [memo] = memos(memo_binary, store_environment)
    assert memo["content"] == "replaced from a pipe"
    assert memo["tags"] == ["work"]
    broken = subprocess.run([memo_binary, "add"], input=b"\xff\xfe not text", env=store_environment, capture_output=True)
    assert broken.returncode == 1
    assert broken.stderr == b"error: cannot read standard input: it is not valid UTF-8 text\n"


def test_scripts_and_piped_sessions_never_open_an_editor(memo_binary, store_environment, editor, tmp_path):
    editor.writes("must not be added")
    script = subprocess.run([memo_binary, "run", "-"], input="add\nedit 1\n", env=store_environment,
                            capture_output=True, text=True)
    assert script.returncode == 1
    assert script.stderr == "<stdin>:1: error: 'add' needs the memo's text\n"
    session = subprocess.run([memo_binary, "--in-memory"], input="add\n", env=store_environment, capture_output=True, text=True)
    assert session.stderr == "<stdin>:1: error: 'add' needs the memo's text\n"
    assert not (tmp_path / "seen.text").exists()


@pytest.mark.parametrize("option", ["--help", "-h"])
def test_every_command_has_help(memo_binary, store_environment, option, home):
    store_environment["MEMO_STORE"] = str(home / "untouched.sqlite")
    for command in ["list", "add", "search", "export", "tag"]:
        result = subprocess.run([memo_binary, command, option], env=store_environment, capture_output=True, text=True)
        assert result.returncode == 0, command
        assert result.stdout.startswith(f"usage: {command} "), command
    assert not os.path.exists(store_environment["MEMO_STORE"]), "help opens no store"
    repl = pexpect.spawn(memo_binary, ["--in-memory"], env=store_environment, encoding="utf-8", timeout=10)
    repl.expect_exact("memo(memory)> ")
    repl.send(f"list {option}\r")
    repl.expect_exact("usage: list [--asc|--desc]")
    repl.expect_exact("memo(memory)> ")
    script = subprocess.run([memo_binary, "run", "-"], input=f"count {option}\n", env=store_environment,
                            capture_output=True, text=True)
    assert script.stdout.startswith("usage: count ")


def test_ctrl_c_right_after_typing_leaves_no_fragment(memo_binary, store_environment):
    """The text, Ctrl-C and the next command written one after the other with no pause (as
    a paste or fast typing does), and all three in one write: whatever the timing, the line
    that runs is exactly `count`."""
    child = pexpect.spawn(memo_binary, [], env=store_environment, encoding="utf-8", timeout=10)
    child.expect_exact(PROMPT)
    for attempt in range(40):
        if attempt % 2 == 0:
            child.send("add abandoned line")
            child.send(CTRL_C)
            child.send("count\r")
        else:
            child.send("add abandoned line" + CTRL_C + "count\r")
        index = child.expect([r"\r\n0\r\n", "error", "added"])
        assert index == 0, f"attempt {attempt}: a fragment ran: {child.before!r}{child.after!r}"
        child.expect_exact(PROMPT)
    child.send("\x04")
    child.expect(pexpect.EOF)
    assert memos(memo_binary, store_environment) == []


def test_long_output_on_a_terminal_goes_through_the_pager(memo_binary, store_environment):
    store_environment["MEMO_PAGER"] = "sed 's/^/PAGED:/'"
    output, status = on_terminal(memo_binary, store_environment, "--fixture", "sample", "list", rows=10)
    assert status == 0
    assert output.startswith("PAGED:#20  ")
    assert output.count("PAGED:#") == 20
    short, _ = on_terminal(memo_binary, store_environment, "--fixture", "sample", "list", "-n", "3", rows=10)
    assert short.startswith("#20  ") and "PAGED" not in short
    unpaged, _ = on_terminal(memo_binary, store_environment, "--no-pager", "--fixture", "sample", "list", rows=10)
    assert unpaged.startswith("#20  ") and "PAGED" not in unpaged and unpaged.count("\n") == 20
    store_environment["MEMO_PAGER"] = "cat"
    store_environment["PAGER"] = "sed 's/^/WRONG:/'"
    assert "WRONG" not in on_terminal(memo_binary, store_environment, "--fixture", "sample", "list", rows=10)[0]
    del store_environment["MEMO_PAGER"]
    assert on_terminal(memo_binary, store_environment, "--fixture", "sample", "list", rows=10)[0].startswith("WRONG:#20")
    piped = subprocess.run([memo_binary, "--fixture", "sample", "list"], env=store_environment, capture_output=True, text=True)
    assert "WRONG" not in piped.stdout and piped.stdout.count("\n") == 20


def test_ctrl_z_still_suspends_the_repl_under_job_control(memo_binary, store_environment, tmp_path):
    """libedit reads Ctrl-C as a key, so the terminal's signals are off while a line is
    typed; Ctrl-Z must still stop memo in a shell with job control, and `fg` resume the line."""
    socket = f"memo-test-{os.getpid()}"
    tmux = ["tmux", "-L", socket]
    environment = " ".join(f"{name}='{value}'" for name, value in store_environment.items())
    subprocess.run(tmux + ["new-session", "-d", "-x", "100", "-y", "30", "bash --norc --noprofile -i"], check=True)
    try:
        def keys(*words):
            subprocess.run(tmux + ["send-keys"] + list(words), check=True)

        def rows():
            screen = subprocess.run(tmux + ["capture-pane", "-p"], capture_output=True, text=True, check=True).stdout
            return [row.rstrip() for row in screen.splitlines() if row.strip()]

        def wait_for(condition, what):
            wait_until(lambda: condition(rows()), lambda: f"{what}; the screen:\n" + "\n".join(rows()))

        keys(f"env -i {environment} {memo_binary}", "Enter")
        wait_for(lambda shown: shown[-1] == "memo>", "no prompt")
        keys("add typed before ctrl-z")
        wait_for(lambda shown: shown[-1] == "memo> add typed before ctrl-z", "the typed line is not shown")
        keys("C-z")
        wait_for(lambda shown: any("Stopped" in row for row in shown) and shown[-1].endswith(("#", "$")),
                 "memo did not stop")
        keys("fg", "Enter")
        # memo redraws the line once its terminal is back in its own mode, ready for keys.
        wait_for(lambda shown: shown[-1] == "memo> add typed before ctrl-z" and any(row.endswith(" fg") for row in shown),
                 "memo did not resume the line")
        keys(" and after", "Enter")
        wait_for(lambda shown: shown[-2:] == ["added #1", "memo>"], "the resumed line was not added")
        keys("list", "Enter")
        wait_for(lambda shown: shown[-1] == "memo>" and shown[-2].startswith("#1 ")
                 and shown[-2].endswith("typed before ctrl-z and after"), "list does not show the memo")
    finally:
        subprocess.run(tmux + ["kill-server"], capture_output=True)


@pytest.mark.parametrize("text", ["ends with a line break\n", "two\n\n", "crlf\r\n", "cr\r"])
def test_a_text_saved_unchanged_in_the_editor_stays_as_it_was(memo_binary, store_environment, text):
    """The editor's file is the text and one line break, which the reader drops again."""
    subprocess.run([memo_binary, "add", "--", text], env=store_environment, check=True)
    store_environment["EDITOR"] = "true"
    assert on_terminal(memo_binary, store_environment, "edit", "1") == ("#1 unchanged: the text is the same\n", 0)
    assert [memo["content"] for memo in memos(memo_binary, store_environment)] == [text]
