"""When a store file is created (issue 38): a command that may add memos creates a missing
store file, but one that fails leaves none behind (nor SQLite's -wal and -shm), on every face,
and neither does a failed sync on its other side. A file that existed, or that another
process opened or wrote to meanwhile, is never removed."""
import os
import subprocess

import pytest

from waiting import wait_until

FAILING_FIRST_COMMANDS = {
    "empty text": ["add", ""],
    "missing import": ["import", "/missing"],
    "malformed import": ["import", "bad.jsonl"],
    "unknown fixture": ["fixture", "nosuch"],
    "today without text": ["today"],
    "unknown template": ["add", "--template", "nosuch"],
}


def run(binary, environment, *arguments, stdin="", cwd=None):
    return subprocess.run([binary, *map(str, arguments)], env=environment, input=stdin,
                          capture_output=True, text=True, cwd=cwd)


def names(folder):
    return sorted(os.listdir(folder))


@pytest.fixture
def folder(tmp_path):
    """A folder holding a malformed JSON Lines file (its second record) and nothing else."""
    path = tmp_path / "stores"
    path.mkdir()
    (path / "bad.jsonl").write_text('{"content": "fine"}\n{not json\n')
    return path


@pytest.fixture
def existing(memo_binary, environment, folder):
    """How the failing commands fail on a store that exists: their status and error line."""
    def failure(words):
        assert run(memo_binary, environment, "--store", "old.db", "add", "x", cwd=folder).returncode == 0
        result = run(memo_binary, environment, "--store", "old.db", *words, cwd=folder)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(folder / f"old.db{suffix}"):
                os.remove(folder / f"old.db{suffix}")
        assert result.returncode != 0 and result.stderr.count("\n") == 1, result
        return result.returncode, result.stderr
    return failure


@pytest.mark.parametrize("words", FAILING_FIRST_COMMANDS.values(), ids=FAILING_FIRST_COMMANDS.keys())
def test_a_failed_first_command_leaves_no_store_file(memo_binary, environment, folder, existing, words):
    expected = existing(words)
    result = run(memo_binary, environment, "--store", "new.db", *words, cwd=folder)
    assert (result.returncode, result.stderr) == expected
    assert names(folder) == ["bad.jsonl"]


@pytest.mark.parametrize("words", FAILING_FIRST_COMMANDS.values(), ids=FAILING_FIRST_COMMANDS.keys())
def test_a_failed_first_command_of_a_session_or_script_leaves_no_store_file(memo_binary, environment, folder, words):
    line = subprocess.list2cmdline(words).replace('""', "''") + "\n"
    session = run(memo_binary, environment, "--store", "new.db", stdin=line, cwd=folder)
    assert session.returncode != 0 and session.stderr.count("\n") == 1 and "created" not in session.stderr
    (folder / "first.memo").write_text(line)
    script = run(memo_binary, environment, "run", "--store", "new.db", "first.memo", cwd=folder)
    assert script.returncode != 0 and "created" not in script.stderr
    assert names(folder) == ["bad.jsonl", "first.memo"]


def test_a_session_creates_the_file_at_its_first_change_after_a_failed_one(memo_binary, environment, folder):
    session = run(memo_binary, environment, "--store", "new.db", stdin="add ''\nadd hello\ncount\n", cwd=folder)
    assert session.stdout == "added #1\n1\n"
    assert session.stderr.splitlines()[1:] == [f"memo: created a new store at {folder / 'new.db'}"]
    assert "new.db" in names(folder)


def test_a_successful_first_import_still_creates_the_file(memo_binary, environment, folder):
    (folder / "good.jsonl").write_text('{"content": "fine"}\n')
    result = run(memo_binary, environment, "--store", "new.db", "import", "good.jsonl", cwd=folder)
    assert result.returncode == 0 and result.stderr == f"memo: created a new store at {folder / 'new.db'}\n"
    assert run(memo_binary, environment, "--store", "new.db", "count", cwd=folder).stdout == "1\n"


def test_an_empty_file_that_existed_is_not_removed(memo_binary, environment, folder):
    (folder / "empty.db").write_bytes(b"")
    result = run(memo_binary, environment, "--store", "empty.db", "add", "", cwd=folder)
    assert result.returncode == 1
    assert "empty.db" in names(folder)


def failing_import_holding_a_new_file(binary, environment, folder):
    """`import` of a pipe, started: it created new.db and waits for its input (`fail`)."""
    os.mkfifo(folder / "pipe.jsonl")
    importing = subprocess.Popen([binary, "--store", "new.db", "import", "pipe.jsonl"], cwd=folder, env=environment,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until(lambda: (folder / "new.db").exists(), lambda: "the import did not create its store")
    return importing


def fail(importing, folder):
    """Gives the waiting import a malformed line; its error."""
    (folder / "pipe.jsonl").write_text("{not json\n")
    _, errors = importing.communicate(timeout=30)
    assert (importing.returncode, errors) == (1, "pipe.jsonl:1: error: the line is not valid JSON\n")


def test_a_new_file_another_process_has_open_is_not_removed(memo_binary, environment, folder):
    importing = failing_import_holding_a_new_file(memo_binary, environment, folder)
    other = subprocess.Popen([memo_binary, "--store", "new.db"], cwd=folder, env=environment, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    other.stdin.write("count\n")
    other.stdin.flush()
    assert other.stdout.readline() == "0\n"
    fail(importing, folder)
    out, _ = other.communicate("add kept\n", timeout=30)
    assert (other.returncode, out) == (0, "added #1\n")
    assert run(memo_binary, environment, "--store", "new.db", "count", cwd=folder).stdout == "1\n"


def test_a_new_file_another_process_wrote_to_is_not_removed(memo_binary, environment, folder):
    importing = failing_import_holding_a_new_file(memo_binary, environment, folder)
    assert run(memo_binary, environment, "--store", "new.db", "add", "theirs", cwd=folder).returncode == 0
    fail(importing, folder)
    assert run(memo_binary, environment, "--store", "new.db", "list", cwd=folder).stdout.count("theirs") == 1


def unsyncable_store(binary, environment, path):
    """A store holding a memo whose uuid another program spoiled: no sync can take it."""
    assert run(binary, environment, "--store", path, "add", "spoiled").returncode == 0
    subprocess.run(["sqlite3", str(path), "UPDATE memo SET uuid = 'NOT-A-UUID'"], check=True)


def test_a_failed_sync_leaves_no_new_file_on_the_other_side(memo_binary, environment, folder):
    unsyncable_store(memo_binary, environment, folder / "y.db")
    run(memo_binary, environment, "--store", "old.db", "add", "x", cwd=folder)
    expected = run(memo_binary, environment, "--store", "y.db", "sync", "old.db", cwd=folder)
    assert expected.returncode == 3 and "cannot be synced" in expected.stderr
    before = names(folder)
    result = run(memo_binary, environment, "--store", "y.db", "sync", "y2.db", cwd=folder)
    assert (result.returncode, result.stderr) == (expected.returncode, expected.stderr)
    assert names(folder) == before


def test_a_failed_sync_leaves_no_new_file_on_this_side(memo_binary, environment, folder):
    unsyncable_store(memo_binary, environment, folder / "y.db")
    result = run(memo_binary, environment, "--store", "new.db", "sync", "y.db", cwd=folder)
    assert result.returncode == 3 and result.stderr.count("\n") == 1 and "cannot be synced" in result.stderr
    assert "new.db" not in "".join(names(folder))


def test_the_remote_half_keeps_no_new_file_of_a_sync_it_did_not_commit(memo_binary, environment, folder):
    from test_sync_ssh import Served
    served = Served(memo_binary, environment, folder / "served.db")
    assert "opened" in served.call({"open": {"time": 1_700_000_000_000, "peer": "a-peer"}})
    changes = served.call({"changes": {"time": 1_700_000_000_000}})["changes"]
    assert changes["count"] == 0 and (folder / "served.db").exists()
    bad = {"uuid": "not-a-uuid", "changedAt": 1, "live": {"content": "x", "insertDate": 1, "tags": []}}
    refused = served.call({"apply": {"count": 1, "received": changes["cursor"], "from": "a-peer", "clock": 1}}, bad)
    assert "failed" in refused
    assert served.end() == 0
    assert names(folder) == ["bad.jsonl"]


def test_a_failed_sync_through_ssh_leaves_no_new_remote_file(memo_binary, ssh_environment, folder):
    unsyncable_store(memo_binary, ssh_environment, folder / "y.db")
    result = subprocess.run([memo_binary, "--store", "y.db", "sync", f"memo-test:{folder / 'far.db'}",
                             "--remote-memo", memo_binary], cwd=folder, env=ssh_environment,
                            capture_output=True, text=True)
    assert result.returncode == 3 and "cannot be synced" in result.stderr
    assert "far.db" not in "".join(names(folder))


def test_memo_execute_that_fails_leaves_no_new_store_file(memo_binary, environment, folder):
    from test_server import initialize, serve
    store = folder / "new.db"

    async def body(client):
        await initialize(client)
        for lines in ("add ''", "add one\nadd ''", f"import {folder / 'bad.jsonl'}"):
            executed = await client.call("memo/execute", {"line": lines})
            assert not executed.ok, lines
            assert names(folder) == ["bad.jsonl"], lines
        assert (await client.call("memo/execute", {"line": "add one\nadd two"})).ok
        return (await client.call("memo/execute", {"line": "count"})).output

    assert serve(memo_binary, environment, store, body) == "2\n"
    assert "new.db" in names(folder)


@pytest.mark.parametrize("lines", ["begin\nadd x\nrollback\n", "begin\nadd x\n", "begin\nadd ''\nrollback\n"],
                         ids=["rolled back", "input ended in the batch", "failed in the batch"])
def test_a_batch_that_saves_nothing_leaves_no_new_store_file(memo_binary, environment, folder, lines):
    session = run(memo_binary, environment, "--store", "new.db", stdin=lines, cwd=folder)
    assert "created" not in session.stderr
    assert names(folder) == ["bad.jsonl"]


def test_a_batch_creates_the_store_file_when_it_is_saved(memo_binary, environment, folder):
    session = run(memo_binary, environment, "--store", "new.db", stdin="begin\nadd ''\nadd x\nsave\n", cwd=folder)
    assert session.stderr.splitlines()[1:] == [f"memo: created a new store at {folder / 'new.db'}"]
    assert run(memo_binary, environment, "--store", "new.db", "count", cwd=folder).stdout == "1\n"


def test_the_repl_on_a_terminal_creates_the_file_at_its_first_change_not_at_a_failed_one(memo_binary, environment,
                                                                                         folder):
    from test_repl import REPL
    session = REPL(memo_binary, environment, "--store", str(folder / "new.db"))
    session.expect_prompt()
    assert session.run("add ''") == "error: memo text is empty"
    session.dialogue(("begin\r", "memo*> "), ("add in a batch\r", "memo*> "), ("rollback\r", "rolled back"))
    session.expect_prompt()
    assert names(folder) == ["bad.jsonl"]
    assert session.run("add hello") == f"memo: created a new store at {folder / 'new.db'}\nadded #1"
    session.quit()
    assert run(memo_binary, environment, "--store", "new.db", "count", cwd=folder).stdout == "1\n"


def test_a_failed_first_run_leaves_no_default_store_nor_the_folders_made_for_it(memo_binary, environment, home):
    (home / ".local").mkdir()
    result = run(memo_binary, environment, "add", "")
    assert (result.returncode, result.stderr) == (1, "error: memo text is empty\n")
    assert sorted(os.listdir(home)) == [".local"] and os.listdir(home / ".local") == []
    added = run(memo_binary, environment, "add", "first")
    assert added.stderr == f"memo: created a new store at {home / '.local/share/memo/memo.sqlite'}\n"
