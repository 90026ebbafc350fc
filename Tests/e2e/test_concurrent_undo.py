"""One-shot `undo` and `redo` from several processes at once (docs/REFERENCE.md, History and undo):
the choice of the change and the undo are one write transaction, so each change is undone once and
every process that says "undid change N" undid it."""
import re
import shutil
import sqlite3
import subprocess
import threading

import pytest

from stores import create_store
from test_processes import PipedSession, one_shot
from waiting import wait_until

CHANGES = 12
PROCESSES = 3
TRIES = 10


def run_concurrently(memo_binary, environment, store, command):
    """Starts PROCESSES loops of TRIES one-shot `command`s; every answer, in no order."""
    answers = []

    def loop():
        for _ in range(TRIES):
            answers.append(one_shot(memo_binary, environment, store, command))

    loops = [threading.Thread(target=loop) for _ in range(PROCESSES)]
    for thread in loops:
        thread.start()
    for thread in loops:
        thread.join()
    return answers


def history_rows(store):
    with sqlite3.connect(store) as connection:
        return connection.execute("SELECT seq, kind, target, undone FROM history ORDER BY seq").fetchall()


def assert_each_change_taken_once(memo_binary, environment, store, command, done):
    """Runs `command` (undo or redo) from PROCESSES processes at once until none is left: each
    change is taken once, by the one process that says so, and the others say there is none."""
    answers = run_concurrently(memo_binary, environment, store, command)
    succeeded = [answer.stdout for answer in answers if answer.returncode == 0]
    assert len(succeeded) == CHANGES, [answer.stdout + answer.stderr for answer in answers]
    assert sorted(succeeded) == sorted(f'{done} change {n + 1} (add "memo {n}")\n' for n in range(CHANGES))
    assert {answer.stderr for answer in answers if answer.returncode != 0} == {f"error: nothing to {command}\n"}
    rows = history_rows(store)
    targets = [target for _, kind, target, _ in rows if kind == command]
    assert sorted(targets) == list(range(1, CHANGES + 1)), f"each change {done} once"
    assert all(undone == int(command == "undo") for seq, kind, _, undone in rows if kind == "add")


def test_concurrent_one_shot_undos_and_redos_take_each_change_once(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    for n in range(CHANGES):
        assert one_shot(memo_binary, environment, store, "add", f"memo {n}").returncode == 0

    assert_each_change_taken_once(memo_binary, environment, store, "undo", "undid")
    assert one_shot(memo_binary, environment, store, "count").stdout == "0\n"
    assert_each_change_taken_once(memo_binary, environment, store, "redo", "redid")
    assert one_shot(memo_binary, environment, store, "count").stdout == f"{CHANGES}\n"
    with sqlite3.connect(store) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


# SQLite's write lock in a store with a write-ahead log: byte 120 of its -shm file.
WRITE_LOCK_REFUSED = "fcntl(F_SETLK, {l_type=F_WRLCK, l_whence=SEEK_SET, l_start=120, l_len=1}) = -1 EAGAIN"


def start_blocked_on_the_write_lock(command, environment, trace):
    """Starts `command` under strace; returns once it has asked for the store's write lock and
    been refused, so that it waits for the lock from then on (or gives up: its output says)."""
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (scripts/test installs it)")
    process = subprocess.Popen(["strace", "-f", "-o", str(trace), "-e", "trace=fcntl", "-e", "signal=none"]
                               + command, env=environment, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def refused():
        return trace.exists() and WRITE_LOCK_REFUSED in re.sub(r"fcntl\(\d+, ", "fcntl(", trace.read_text())
    wait_until(lambda: refused() or process.poll() is not None, lambda: f"no lock asked for: {trace.read_text()}", 30)
    return process


def test_a_one_shot_undo_waiting_for_a_batch_undoes_the_batch_not_what_came_before(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    one_shot(memo_binary, environment, store, "add", "v0")
    one_shot(memo_binary, environment, store, "edit", "1", "v1")
    session = PipedSession(memo_binary, environment, store)
    session.send("begin")
    assert session.send("edit 1 v2") == ["edited #1"]
    undo = start_blocked_on_the_write_lock([memo_binary, "--store", str(store), "undo"], environment, tmp_path / "trace")
    assert session.send("save") == ["saved 1 change"]
    stdout, stderr = undo.communicate(timeout=30)
    assert (stdout, stderr) == ('undid change 3 (batch "v2")\n', "")
    assert one_shot(memo_binary, environment, store, "show", "1").stdout.rstrip("\n").endswith("v1")
    assert one_shot(memo_binary, environment, store, "undo").stdout == 'undid change 2 (edit "v1")\n'
    assert session.close() == 0


def test_a_session_refusal_names_the_later_change_and_what_the_shell_can_do(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    create_store(memo_binary, environment, store)
    session = PipedSession(memo_binary, environment, store)
    session.send("add shared memo")
    one_shot(memo_binary, environment, store, "tag", "1", "outside")
    assert session.refused("undo", "redo") == [
        '<stdin>:2: error: cannot undo change 1 (add "shared memo"): the later change 2 (tag "shared memo") came from another '
        "process and touched the same memos; a one-shot 'memo undo' from the shell takes the store's latest change\n",
        "<stdin>:3: error: nothing to redo\n"]
    assert session.close() == 1, "a refused line makes piped input exit 1"


def test_an_undo_blocked_by_a_sync_names_the_sync(memo_binary, environment, tmp_path):
    store, peer = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    one_shot(memo_binary, environment, store, "add", "shared")
    one_shot(memo_binary, environment, store, "sync", str(peer))
    session = PipedSession(memo_binary, environment, store)
    assert session.send("delete 1") == ["deleted #1"]
    one_shot(memo_binary, environment, peer, "edit", "1", "edited on b")
    assert one_shot(memo_binary, environment, store, "sync", str(peer)).returncode == 0
    assert session.refused("undo") == [
        f'<stdin>:2: error: cannot undo change 2 (delete "shared"): the later change 3 (sync with {peer}) touched the same '
        "memos; 'undo --sync' takes back the store's latest sync\n"]
    assert session.close() == 1, "a refused line makes piped input exit 1"
    assert one_shot(memo_binary, environment, store, "list").stdout.rstrip("\n").endswith("edited on b")


def test_a_session_whose_change_another_process_undid_names_it(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    create_store(memo_binary, environment, store)
    session = PipedSession(memo_binary, environment, store)
    assert session.send("add mine") == ["added #1"]
    assert one_shot(memo_binary, environment, store, "undo").stdout == 'undid change 1 (add "mine")\n'
    assert session.refused("undo") == [
        "<stdin>:2: error: change 1 (add \"mine\") is already undone: another process undid it ('memo history' lists the undo)\n"]
    assert session.close() == 1
