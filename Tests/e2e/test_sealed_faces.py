"""An encrypted store's text reaches no file but the sealed store through memo's local faces
(docs/REFERENCE.md, Text from an editor or standard input, and The REPL): a sentinel word typed through each face (a one-shot
command, the REPL, the editor, the picker, a script, undo) is found in no file of the places
memo could leave it, neither after a run nor after a run killed part-way and one more command.
The temporary files of an encrypted store live in a private folder in memory
($XDG_RUNTIME_DIR, else /dev/shm), and the REPL keeps no history file for it."""
import os
import pathlib
import shutil
import signal
import stat
import subprocess

import pexpect
import pytest

from plaintext import SealedPlaces, sentinel
from waiting import has_ended, wait_until

PROMPT = "memo> "
UP = "\x1b[A"
CTRL_D = "\x04"
ESCAPE = "\x1b"
HISTORY_NOTICE = "memo: the store is encrypted: this session's history is not saved"
needs_strace = pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")


@pytest.fixture
def places(memo_binary, environment, tmp_path):
    """An encrypted store holding one memo, 'first'."""
    places = SealedPlaces(environment, tmp_path)
    memo(memo_binary, places, "add", "first")
    memo(memo_binary, places, "encrypt")
    return places


def memo(binary, places, *arguments, check=True, store=None):
    result = subprocess.run([binary, "--store", str(store or places.store), *arguments], env=places.environment,
                            capture_output=True, text=True, check=False)
    assert not check or result.returncode == 0, result.stderr
    return result


def killed_at_the_seal(binary, places, *arguments):
    """Runs memo with `arguments` under strace, killed (SIGKILL) as it renames a new sealed
    image of the store over the old one: the command's change is made, its new image written
    but not in place."""
    command = ["strace", "-f", "-o", "/dev/null", "-e", "trace=rename",
               "-e", "inject=rename:error=EIO:signal=SIGKILL:when=1",
               binary, "--store", str(places.store), *arguments]
    result = subprocess.run(command, env=places.environment, capture_output=True, text=True)
    assert result.returncode == -signal.SIGKILL, result.stderr


def listed(binary, places):
    """The store's memos' texts, opened after whatever came before (it must open)."""
    return memo(binary, places, "--json", "list").stdout


def assert_nowhere(places, word):
    assert places.files_holding(word) == []


def scratch_folders(places):
    return sorted(path.name for path in places.runtime.iterdir())


# One-shot commands


def test_one_shot_add_leaves_no_text(memo_binary, places):
    word = sentinel()
    memo(memo_binary, places, "add", word)
    assert word in listed(memo_binary, places)
    assert_nowhere(places, word)


@needs_strace
def test_one_shot_add_killed_leaves_no_text(memo_binary, places):
    word = sentinel()
    killed_at_the_seal(memo_binary, places, "add", word)
    assert "first" in listed(memo_binary, places)
    assert_nowhere(places, word)


def test_undo_of_a_delete_leaves_no_text(memo_binary, places):
    word = sentinel()
    memo(memo_binary, places, "add", word)
    memo(memo_binary, places, "delete", "2")
    assert word not in listed(memo_binary, places)
    memo(memo_binary, places, "undo")
    assert word in listed(memo_binary, places)
    assert_nowhere(places, word)


@needs_strace
def test_undo_of_a_delete_killed_leaves_no_text(memo_binary, places):
    word = sentinel()
    memo(memo_binary, places, "add", word)
    memo(memo_binary, places, "delete", "2")
    killed_at_the_seal(memo_binary, places, "undo")
    memo(memo_binary, places, "count")
    assert "first" in listed(memo_binary, places)
    assert_nowhere(places, word)


@pytest.mark.parametrize("replacing", [False, True], ids=["new-file", "replacing"])
def test_export_writes_text_only_to_the_file_named(memo_binary, places, replacing):
    """Export writes the plain text the user asked for, in the place they chose, and nowhere else."""
    word = sentinel()
    memo(memo_binary, places, "add", word)
    target = places.root / "exported" / "memos.jsonl"
    target.parent.mkdir()
    if replacing:
        target.write_text("old\n")
    memo(memo_binary, places, "export", str(target))
    assert word in target.read_text()
    assert sorted(path.name for path in target.parent.iterdir()) == ["memos.jsonl"]
    assert set(places.files_holding(word)) == {str(target)}


@pytest.mark.skipif(shutil.which("less") is None, reason="less is not installed")
@pytest.mark.parametrize("sealed", [True, False], ids=["encrypted", "plain"])
def test_searching_in_the_pager_is_not_saved_for_an_encrypted_store(memo_binary, environment, tmp_path, sealed):
    """less saves what is searched for in ~/.lesshst, unless memo says not to: it does so
    for an encrypted store (the plain store's run shows the file would hold the word)."""
    places = SealedPlaces(environment, tmp_path)
    word = sentinel()
    script = places.inputs / "script.memo"
    script.write_text("".join(f"add line {number}\n" for number in range(60)) + f"add {word}\n")
    memo(memo_binary, places, "run", str(script))
    if sealed:
        memo(memo_binary, places, "encrypt")
    child = spawn(memo_binary, places, dict(places.environment, PAGER="less"), "list")
    child.expect_exact(":")  # less's prompt: the listing is paged
    child.send(f"/{word}\r")
    child.expect_exact(word)
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    history = set(places.files_holding(word))
    # A plain store holds its text itself; the pager's history file would hold the word too.
    assert history == (set() if sealed else {str(places.store), str(tmp_path / "home" / ".lesshst")})


# Scripts


def test_script_leaves_no_text(memo_binary, places):
    word = sentinel()
    script = places.inputs / "script.memo"
    script.write_text(f"add {word}\nedit 1 {word} again\n")
    memo(memo_binary, places, "run", str(script))
    assert listed(memo_binary, places).count(word) == 2
    assert_nowhere(places, word)


@needs_strace
def test_script_killed_leaves_no_text(memo_binary, places):
    word = sentinel()
    script = places.inputs / "script.memo"
    script.write_text(f"add {word}\nadd {word} again\n")
    killed_at_the_seal(memo_binary, places, "run", str(script))
    memo(memo_binary, places, "count")
    assert "first" in listed(memo_binary, places)
    assert_nowhere(places, word)


# The REPL


def start_repl(binary, places):
    child = pexpect.spawn(binary, ["--store", str(places.store)], env=places.environment, encoding="utf-8",
                          timeout=10, dimensions=(40, 120))
    child.expect_exact(PROMPT)
    return child


def test_repl_keeps_history_in_memory_only(memo_binary, places):
    word = sentinel()
    child = start_repl(memo_binary, places)
    assert child.before.count(HISTORY_NOTICE) == 1
    child.send(f"add {word}\r")
    child.expect_exact("added #2")
    child.expect_exact(PROMPT)
    # Arrow-up still recalls the line within the session.
    child.send(UP + "\r")
    child.expect_exact("added #3")
    child.expect_exact(PROMPT)
    child.send(CTRL_D)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert listed(memo_binary, places).count(word) == 2
    assert not (places.state / "memo" / "history").exists()
    assert_nowhere(places, word)


def test_repl_does_not_read_the_history_file(memo_binary, places):
    """Lines of plain stores' sessions are not offered in an encrypted store's session, and
    the file is left as it was."""
    history = places.state / "memo" / "history"
    history.parent.mkdir(parents=True, mode=0o700)
    history.write_text("_HiStOrY_V2_\nadd\\040from\\040the\\040file\n")
    before = history.read_bytes()
    word = sentinel()
    child = start_repl(memo_binary, places)
    child.send(f"add {word}\r")
    child.expect_exact(PROMPT)
    # Up twice goes no further back than this session's one line.
    child.send(UP + UP + "\r")
    child.expect_exact("added #3")
    child.expect_exact(PROMPT)
    child.send(CTRL_D)
    child.expect(pexpect.EOF)
    child.close()
    texts = listed(memo_binary, places)
    assert texts.count(word) == 2 and "from the file" not in texts
    assert history.read_bytes() == before


def test_repl_on_a_plain_store_saves_its_history(memo_binary, environment, tmp_path):
    """What the encrypted store's REPL does not do: the history file would hold the word."""
    places = SealedPlaces(environment, tmp_path)
    memo(memo_binary, places, "add", "first")
    word = sentinel()
    child = start_repl(memo_binary, places)
    assert HISTORY_NOTICE not in child.before
    child.send(f"add {word}\r")
    child.expect_exact(PROMPT)
    child.send(CTRL_D)
    child.expect(pexpect.EOF)
    child.close()
    assert word in (places.state / "memo" / "history").read_text()


def test_repl_killed_leaves_no_text(memo_binary, places):
    word = sentinel()
    child = start_repl(memo_binary, places)
    child.send(f"add {word}\r")
    child.expect_exact("added #2")
    child.expect_exact(PROMPT)
    os.kill(child.pid, signal.SIGKILL)
    wait_until(lambda: has_ended(child.pid), lambda: "the REPL outlived SIGKILL")
    child.close(force=True)
    memo(memo_binary, places, "count")
    assert word in listed(memo_binary, places)
    assert_nowhere(places, word)


# The editor


EDITOR = """#!/bin/sh
# Writes the sentinel into the file it is given (as a new memo of a bulk edit, which an
# `add` or `edit ID` takes as text too, or alone, which a bulk edit refuses), and says where
# that file was and how private its folder.
printf '%s\\n' "$1" > "{inputs}/given.tmp"
stat -c %a "$(dirname "$1")" >> "{inputs}/given.tmp"
{write}
mv "{inputs}/given.tmp" "{inputs}/given"
{block}
"""
BLOCK = """while [ ! -e "{inputs}/release" ]; do sleep 0.05; done"""  # not a wait: the poll interval of an editor that waits for the test to release it


def editor(places, word, blocking, alone=False):
    script = places.inputs / "editor"
    inputs = places.inputs
    write = f"printf '%s\\n' '{word}' > \"$1\"" if alone else f"printf '\\n%%%% new\\n%s\\n' '{word}' >> \"$1\""
    script.write_text(EDITOR.format(inputs=inputs, write=write, block=BLOCK.format(inputs=inputs) if blocking else ""))
    script.chmod(0o700)
    return dict(places.environment, EDITOR=str(script))


def given(places):
    """The file the editor was given and its folder's mode, once it has written the word."""
    wait_until(lambda: (places.inputs / "given").exists(), lambda: "the editor was not started")
    path, mode = (places.inputs / "given").read_text().splitlines()
    return pathlib.Path(path), mode


def spawn(binary, places, environment, *arguments):
    return pexpect.spawn(binary, ["--store", str(places.store), *arguments], env=environment, encoding="utf-8",
                         timeout=10, dimensions=(40, 120))


@pytest.mark.parametrize("arguments", [["add"], ["edit", "1"], ["edit", "--since", "2000-01-01"]],
                         ids=["add", "edit", "bulk-edit"])
def test_editor_file_is_private_in_memory_and_removed(memo_binary, places, arguments):
    word = sentinel()
    child = spawn(memo_binary, places, editor(places, word, blocking=False), *arguments)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    path, mode = given(places)
    assert path.parent.parent == places.runtime
    assert path.parent.name.startswith(f"memo-{child.pid}-")
    assert mode == "700"
    assert not path.exists() and not path.parent.exists()
    assert word in listed(memo_binary, places)
    assert_nowhere(places, word)


def test_editor_file_of_a_plain_store_stays_in_tmpdir(memo_binary, environment, tmp_path):
    """Plain stores keep their temporary files where they were: `$TMPDIR`."""
    places = SealedPlaces(environment, tmp_path)
    temporary = tmp_path / "temporary"
    temporary.mkdir()
    word = sentinel()
    environment = dict(editor(places, word, blocking=False), TMPDIR=str(temporary))
    child = spawn(memo_binary, places, environment, "add")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    path, _ = given(places)
    assert path.parent == temporary and path.name.startswith("memo-") and path.suffix == ".md"


def test_editor_killed_leaves_no_text_after_the_next_command(memo_binary, places):
    word = sentinel()
    child = spawn(memo_binary, places, editor(places, word, blocking=True), "edit", "1")
    path, mode = given(places)
    assert path.parent.parent == places.runtime and mode == "700"
    os.kill(child.pid, signal.SIGKILL)
    wait_until(lambda: has_ended(child.pid), lambda: "memo outlived SIGKILL")
    (places.inputs / "release").touch()
    child.close(force=True)
    # The killed memo's folder holds the word until the next memo on the store sweeps it.
    # (The places searched overlap where the test's folders are under /tmp: a file may be named twice.)
    assert set(places.files_holding(word)) == {str(path)}
    memo(memo_binary, places, "count")
    assert not path.parent.exists()
    assert "first" in listed(memo_binary, places)
    assert_nowhere(places, word)


def test_sweep_keeps_folders_of_live_memos(memo_binary, places):
    """Only the folders of processes that are gone are swept: a running memo keeps its own."""
    word = sentinel()
    child = spawn(memo_binary, places, editor(places, word, blocking=True), "edit", "1")
    path, _ = given(places)
    # Another memo sweeps: a second encrypted store, opened while the first memo is in its editor.
    other = places.store_folder / "other.sqlite"
    memo(memo_binary, places, "add", "other", store=other)
    memo(memo_binary, places, "encrypt", store=other)
    memo(memo_binary, places, "count", store=other)
    assert path.exists()
    (places.inputs / "release").touch()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert not path.parent.exists()
    assert word in listed(memo_binary, places)
    assert_nowhere(places, word)


def test_refused_text_is_kept_in_memory_past_the_sweep(memo_binary, places):
    """A bulk edit's refused save is kept, as for a plain store, but in the private place in
    memory, under a name the sweep passes over: it is the user's, not a killed memo's."""
    word = sentinel()
    child = spawn(memo_binary, places, editor(places, word, blocking=False, alone=True),
                  "edit", "--since", "2000-01-01")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    path, _ = given(places)
    kept = places.runtime / f"memo-kept-{path.parent.name.removeprefix('memo-')}" / path.name
    assert f"the edited text is kept in {kept}" in child.before.replace("\r\n", " ")
    assert not path.parent.exists()
    assert stat.S_IMODE(kept.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    memo(memo_binary, places, "count")
    assert set(places.files_holding(word)) == {str(kept)}


# The picker


needs_fzf = pytest.mark.skipif(shutil.which("fzf") is None, reason="fzf is not installed")


def preview_files(places, word):
    return {path for path in places.files_holding(word) if pathlib.Path(path).parent.parent == places.runtime}


@needs_fzf
@pytest.mark.parametrize("killed", [False, True], ids=["ended", "killed"])
def test_picker_previews_are_private_in_memory(memo_binary, places, killed):
    word = sentinel()
    memo(memo_binary, places, "add", word)
    child = spawn(memo_binary, places, places.environment, "pick")
    child.expect_exact("Esc: nothing")  # fzf drew its header
    wait_until(lambda: preview_files(places, word), lambda: f"no preview in a private folder: {scratch_folders(places)}")
    (preview,) = preview_files(places, word)
    folder = pathlib.Path(preview).parent
    assert folder.name.startswith(f"memo-{child.pid}-")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    if killed:
        os.kill(child.pid, signal.SIGKILL)
        wait_until(lambda: has_ended(child.pid), lambda: "memo outlived SIGKILL")
        child.close(force=True)  # fzf, left on the terminal, goes with it
        memo(memo_binary, places, "count")
    else:
        child.send(ESCAPE)
        child.expect(pexpect.EOF)
        child.close()
    assert not folder.exists()
    assert word in listed(memo_binary, places)
    assert_nowhere(places, word)
