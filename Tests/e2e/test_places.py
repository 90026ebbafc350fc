"""Places that do not exist (issue 36): a store or sync target in a missing folder, a
store file a reading command names by mistake, a pager that cannot start; and options
after a command's text."""
import json
import os
import subprocess

import pexpect
import pytest

READING_COMMANDS = [["list"], ["search", "x"], ["show", "1"], ["count"], ["tags"], ["history"],
                    ["export", "-"], ["info"], ["graph"]]


def run(binary, environment, *arguments, stdin=None):
    return subprocess.run([binary, *map(str, arguments)], env=environment, input=stdin,
                          capture_output=True, text=True)


def tree(folder):
    return sorted(os.path.relpath(os.path.join(root, name), folder)
                  for root, folders, files in os.walk(folder) for name in folders + files)


@pytest.fixture
def store(tmp_path, memo_binary, environment):
    """A store file holding one memo."""
    path = tmp_path / "here.sqlite"
    assert run(memo_binary, environment, "--store", path, "add", "written here").returncode == 0
    return path


# 1. Missing folders

def test_a_sync_target_in_a_missing_folder_creates_nothing(memo_binary, environment, store, tmp_path):
    stick = tmp_path / "media" / "usb"
    result = run(memo_binary, environment, "--store", store, "sync", stick / "memo.sqlite")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"error: the folder {stick} does not exist: nothing was created there\n"
    assert not (tmp_path / "media").exists()

    stick.mkdir(parents=True)
    synced = run(memo_binary, environment, "--store", store, "sync", stick / "memo.sqlite")
    assert synced.returncode == 0 and synced.stdout.endswith(": 1 memo sent, 0 received\n")
    assert synced.stderr == f"memo: created a new store at {stick / 'memo.sqlite'}\n"


@pytest.mark.parametrize("chosen_by", ["--store", "MEMO_STORE"])
def test_a_chosen_store_in_a_missing_folder_creates_nothing(memo_binary, environment, tmp_path, chosen_by):
    folder = tmp_path / "no" / "such"
    path = folder / "journal.sqlite"
    arguments = ["--store", path] if chosen_by == "--store" else []
    if chosen_by == "MEMO_STORE":
        environment["MEMO_STORE"] = str(path)
    result = run(memo_binary, environment, *arguments, "add", "lost")
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"error: the folder {folder} does not exist: nothing was created there\n"
    assert not (tmp_path / "no").exists()


def test_the_default_store_is_created_with_its_folders_at_the_first_write(memo_binary, environment, home):
    path = home / ".local" / "share" / "memo" / "memo.sqlite"
    added = run(memo_binary, environment, "add", "first run")
    assert (added.returncode, added.stdout) == (0, "added #1\n")
    assert added.stderr == f"memo: created a new store at {path}\n"
    assert oct(os.stat(path.parent).st_mode & 0o777) == "0o700"
    again = run(memo_binary, environment, "add", "second")
    assert (again.returncode, again.stderr) == (0, "")


# 2. A store file that does not exist

@pytest.mark.parametrize("command", READING_COMMANDS, ids=lambda words: words[0])
def test_a_reading_command_on_a_missing_store_file_is_an_error(memo_binary, environment, tmp_path, command):
    typo = tmp_path / "journal.sqlit"
    result = run(memo_binary, environment, "--store", typo, *command)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"error: no store at {typo}: nothing was created (the first change there creates it)\n"
    assert tree(tmp_path) == ["home"]


def test_a_missing_memo_store_file_is_an_error_too(memo_binary, environment, tmp_path):
    environment["MEMO_STORE"] = str(tmp_path / "journal.sqlit")
    result = run(memo_binary, environment, "count")
    assert result.returncode == 1 and "no store at" in result.stderr
    assert tree(tmp_path) == ["home"]


@pytest.mark.parametrize("command", READING_COMMANDS, ids=lambda words: words[0])
def test_a_reading_command_on_the_missing_default_store_creates_nothing(memo_binary, environment, home, command):
    result = run(memo_binary, environment, *command)
    assert result.stderr == "" or command[0] == "show"
    # `show 1` finds no memo; a search that finds nothing exits 1, as grep does.
    assert result.returncode == (1 if command[0] in ("show", "search") else 0)
    assert tree(home) == []


def test_the_first_write_to_a_new_store_file_says_so(memo_binary, environment, tmp_path):
    path = tmp_path / "new.sqlite"
    added = run(memo_binary, environment, "--store", path, "add", "hello")
    assert (added.returncode, added.stdout, added.stderr) == (0, "added #1\n", f"memo: created a new store at {path}\n")
    listed = run(memo_binary, environment, "--store", path, "count")
    assert (listed.returncode, listed.stdout, listed.stderr) == (0, "1\n", "")


def test_a_session_reads_nothing_from_a_missing_store_and_creates_it_at_its_first_write(memo_binary, environment, tmp_path):
    path = tmp_path / "new.sqlite"
    session = run(memo_binary, environment, "--store", path, stdin="count\nadd hello\ncount\n")
    assert session.stdout == "added #1\n1\n"
    assert session.stderr == (f"<stdin>:1: error: no store at {path}: nothing was created (the first change there creates it)\n"
                              f"memo: created a new store at {path}\n")
    assert session.returncode == 1


# 3. A pager that cannot start or fails

def on_terminal(binary, environment, *arguments, rows=10):
    child = pexpect.spawn(binary, list(arguments), env=environment, encoding="utf-8", timeout=20, dimensions=(rows, 100))
    child.expect(pexpect.EOF)
    child.close()
    return child.before.replace("\r\n", "\n"), child.exitstatus


def test_a_pager_that_cannot_start_leaves_the_output_on_the_screen(memo_binary, environment):
    environment["PAGER"] = "nonexistent-pager"
    output, status = on_terminal(memo_binary, environment, "--fixture", "sample", "list")
    assert status == 0
    lines = output.splitlines()
    assert lines[0] == "memo: cannot start the pager 'nonexistent-pager' (not found): writing the output directly"
    assert len(lines) == 21 and lines[1].startswith("#20  ") and lines[-1].startswith("#1  ")


def test_a_failing_pager_fails_the_command(memo_binary, environment):
    environment["PAGER"] = "false"
    output, status = on_terminal(memo_binary, environment, "--fixture", "sample", "list")
    assert status == 1
    assert output == "error: the pager 'false' failed (exit status 1)\n"


def test_quitting_the_pager_early_is_no_failure(memo_binary, environment):
    environment["PAGER"] = "head -n 2"
    output, status = on_terminal(memo_binary, environment, "--fixture", "sample", "list")
    assert status == 0 and output.count("\n") == 2


# 6. Options after the text, and the program's flags after the command

def test_options_may_follow_the_text(memo_binary, environment):
    script = "add Buy bread --tag shop\nadd -- Buy --tag milk\n"
    result = run(memo_binary, environment, "--json", "run", "-", stdin=script)
    assert result.returncode == 0, result.stderr
    assert [(memo["content"], memo["tags"]) for memo in map(json.loads, result.stdout.splitlines())] == [
        ("Buy bread", ["shop"]), ("Buy --tag milk", [])]
    added = run(memo_binary, environment, "--fixture", "sample", "add", "Buy", "bread", "--tag", "shop", "--json")
    assert added.returncode == 0, added.stderr
    assert (json.loads(added.stdout)["content"], json.loads(added.stdout)["tags"]) == ("Buy bread", ["shop"])
    literal = run(memo_binary, environment, "--in-memory", "add", "--", "Buy", "--tag", "shop", "--json")
    assert literal.stdout == "added #1\n"


def test_the_programs_flags_may_follow_the_command(memo_binary, environment):
    listed = run(memo_binary, environment, "--fixture", "sample", "list", "-n", "2", "--json", "--no-pager", "--no-color")
    assert listed.returncode == 0, listed.stderr
    assert [json.loads(line)["id"] for line in listed.stdout.splitlines()] == [20, 19]
    literal = run(memo_binary, environment, "--in-memory", "add", "--", "--json")
    assert (literal.returncode, literal.stdout) == (0, "added #1\n")
