"""Several memo processes on one store: batches, one-shot undo, change merging, concurrent writers."""
import json
import os
import pathlib
import re
import signal
import sqlite3
import subprocess
import threading
import time

from plaintext import SealedPlaces
from stores import create_store
from waiting import wait_until


class PipedSession:
    """`memo --store S` reading commands from a pipe, one line at a time."""

    def __init__(self, memo_binary, environment, store):
        self.process = subprocess.Popen([memo_binary, "--store", str(store)], env=environment, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def send(self, line, answer_lines=1):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return [self.process.stdout.readline().rstrip("\n") for _ in range(answer_lines)]

    def refused(self, *lines):
        """Sends `lines`, each of which memo refuses: what it says of each on standard error."""
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()
        return [self.process.stderr.readline() for _ in lines]

    def close(self):
        self.process.stdin.close()
        return self.process.wait(timeout=20)


def one_shot(memo_binary, environment, store, *arguments):
    return subprocess.run([memo_binary, "--store", str(store), *arguments], env=environment,
                          capture_output=True, text=True, timeout=60)


def test_a_batch_is_invisible_to_other_processes_until_saved(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    session = PipedSession(memo_binary, environment, store)
    session.send("begin")
    assert session.send("add in the batch") == ["added #1"]
    assert session.send("count") == ["1"]
    assert one_shot(memo_binary, environment, store, "count").stdout == "0\n"
    assert session.send("save") == ["saved 1 change"]
    assert one_shot(memo_binary, environment, store, "count").stdout == "1\n"
    assert session.close() == 0


def test_a_writer_that_meets_an_open_batch_waits_then_says_the_store_is_busy(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    session = PipedSession(memo_binary, environment, store)
    session.send("begin")
    session.send("add held in a batch")
    started = time.monotonic()
    refused = one_shot(memo_binary, environment, store, "add", "waits")
    assert time.monotonic() - started >= 5
    assert refused.returncode == 3
    assert refused.stderr == "error: store failure: the store is busy: another memo process is writing to it; try again\n"
    assert one_shot(memo_binary, environment, store, "count").stdout == "0\n", "readers go on meanwhile"
    session.send("rollback")
    assert one_shot(memo_binary, environment, store, "add", "now it works").returncode == 0
    session.close()


def test_delete_then_undo_as_one_shot_commands(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    one_shot(memo_binary, environment, store, "add", "--tag", "kept", "first @inline")
    one_shot(memo_binary, environment, store, "add", "second")
    one_shot(memo_binary, environment, store, "edit", "1", "first, edited @inline")
    before = one_shot(memo_binary, environment, store, "--json", "show", "1").stdout
    assert one_shot(memo_binary, environment, store, "delete", "1").stdout == "deleted #1\n"
    undone = one_shot(memo_binary, environment, store, "undo")
    assert undone.stdout == 'undid change 4 (delete "first, edited @inline")\n'
    assert one_shot(memo_binary, environment, store, "--json", "show", "1").stdout == before
    assert json.loads(before)["tags"] == ["inline", "kept"]
    assert one_shot(memo_binary, environment, store, "redo").returncode == 0
    assert one_shot(memo_binary, environment, store, "count").stdout == "1\n"
    history = one_shot(memo_binary, environment, store, "--json", "history").stdout.splitlines()
    assert [json.loads(line)["kind"] for line in history] == ["redo", "undo", "delete", "edit", "add", "add"]


def test_a_piped_session_sees_another_processes_change_at_its_next_command(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    session = PipedSession(memo_binary, environment, store)  # before the store file exists
    one_shot(memo_binary, environment, store, "add", "from outside")
    assert session.send("count") == ["1"]
    assert session.send("search outside") [0].startswith("#1  ")
    one_shot(memo_binary, environment, store, "delete", "1")
    assert session.send("count") == ["0"]
    assert session.close() == 0


def test_concurrent_writers_lose_nothing(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    create_store(memo_binary, environment, store)
    script = tmp_path / "adds.memo"
    script.write_text("".join(f"add scripted memo {n}\n" for n in range(2000)))
    runs = [subprocess.Popen([memo_binary, "run", "--store", str(store), str(script)], env=environment,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    statuses = []

    def loop(name):
        for n in range(25):
            statuses.append(one_shot(memo_binary, environment, store, "add", f"{name} {n}").returncode)

    loops = [threading.Thread(target=loop, args=(name,)) for name in ("left", "right")]
    for thread in loops:
        thread.start()
    for thread in loops:
        thread.join()
    errors = [run.communicate(timeout=300)[1] for run in runs]
    assert [run.returncode for run in runs] == [0, 0], errors
    assert statuses == [0] * 50
    assert one_shot(memo_binary, environment, store, "count").stdout == "4050\n"
    with sqlite3.connect(store) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert connection.execute("SELECT count(DISTINCT uuid) FROM memo").fetchone()[0] == 4050
        assert connection.execute("SELECT count(*) FROM history WHERE kind = 'add'").fetchone()[0] == 4050


def test_a_session_never_undoes_over_another_processes_later_change(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    create_store(memo_binary, environment, store)
    session = PipedSession(memo_binary, environment, store)
    session.send("add shared memo")
    session.send("edit 1 edited in the session")
    one_shot(memo_binary, environment, store, "tag", "1", "outside")
    assert session.refused("undo") == [
        '<stdin>:3: error: cannot undo change 2 (edit "edited in the session"): the later change 3 '
        '(tag "edited in the session") came from another process and touched the same memos; '
        "a one-shot 'memo undo' from the shell takes the store's latest change\n"]
    assert one_shot(memo_binary, environment, store, "undo").stdout == 'undid change 3 (tag "edited in the session")\n'
    assert session.send("undo") == ['undid change 2 (edit "edited in the session")']
    assert session.send("list")[0].endswith("shared memo")
    session.close()


def test_input_that_ends_inside_a_batch_rolls_it_back(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    script = tmp_path / "unsaved.memo"
    script.write_text("add saved\nbegin\nadd never saved\n")
    result = subprocess.run([memo_binary, "run", "--store", str(store), str(script)], env=environment,
                            capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr == (f"memo: created a new store at {store}\n"
                             f"{script}: error: the input ended inside a batch: its 1 unsaved change was rolled back\n")
    assert one_shot(memo_binary, environment, store, "count").stdout == "1\n"


def test_a_store_set_up_by_another_process_between_two_reads_of_its_header_opens(memo_binary, environment, tmp_path):
    """Opening reads the file's marks in separate reads; another process that sets up the
    empty file between them must not make it "a database of another program". strace stops
    the opening process at each of its locking calls in turn (-P: on the store file only);
    where it holds no lock then, another process sets the store up before it goes on."""
    exercised = 0
    for call in range(1, 13):
        store = tmp_path / f"store-{call}.sqlite"
        store.write_bytes(b"")
        log = tmp_path / f"strace-{call}.log"
        log.write_text("")
        opener = subprocess.Popen(
            ["strace", "-o", str(log), "-P", str(store), "-e", "trace=fcntl",
             "-e", f"inject=fcntl:signal=SIGSTOP:when={call}", memo_binary, "--store", str(store), "count"],
            env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_until(lambda: opener.poll() is not None or "--- stopped by SIGSTOP ---" in log.read_text(),
                   lambda: f"memo neither stopped nor ended at locking call {call}")
        if opener.poll() is None:
            stopped = int(subprocess.run(["pgrep", "-P", str(opener.pid)], capture_output=True, text=True).stdout)
            if not holds_a_lock(stopped, store):
                exercised += 1
                assert one_shot(memo_binary, environment, store, "add", "set up meanwhile").returncode == 0
            os.kill(stopped, signal.SIGCONT)
        output, errors = opener.communicate(timeout=60)
        assert (opener.returncode, errors) == (0, ""), f"stopped at locking call {call}"
        assert output in ("0\n", "1\n")
    assert exercised > 0, "no stop fell between two reads"


def holds_a_lock(pid, path):
    """Whether `pid` holds a POSIX lock on the file at `path` (/proc/locks)."""
    inode = os.stat(path).st_ino
    held = [line.split() for line in pathlib.Path("/proc/locks").read_text().splitlines() if "->" not in line]
    return any(fields[4] == str(pid) and fields[5].endswith(f":{inode}") for fields in held)


def held_encrypted_store(memo_binary, environment, tmp_path):
    """An encrypted store of one memo, held by a piped session that has counted it."""
    places = SealedPlaces(environment, tmp_path)
    store, sealed = places.store, places.environment
    assert one_shot(memo_binary, sealed, store, "add", "held").returncode == 0
    assert one_shot(memo_binary, sealed, store, "encrypt").returncode == 0
    session = PipedSession(memo_binary, sealed, store)
    assert session.send("count") == ["1"]
    return store, sealed, session


def refused_locks(log):
    """How many times the traced process tried the store's lock and was refused."""
    return len(re.findall(r"^flock\(\d+, LOCK_EX\|LOCK_NB\) += -1 EAGAIN", log.read_text(), re.MULTILINE))


def test_a_second_process_waits_while_another_holds_an_encrypted_store(memo_binary, environment, tmp_path):
    """One process at a time holds an encrypted store (an flock on its file): a second tries
    the lock again every few milliseconds, and goes on once the first lets go, even when the
    first saved meanwhile (a new file in the old one's place). strace shows its tries refused
    (-P: calls on the store file only)."""
    store, sealed, session = held_encrypted_store(memo_binary, environment, tmp_path)
    log = tmp_path / "strace.log"
    log.write_text("")
    waiter = subprocess.Popen(["strace", "-o", str(log), "-P", str(store), "-e", "trace=flock", memo_binary, "--store",
                               str(store), "count"], env=sealed, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_until(lambda: waiter.poll() is not None or refused_locks(log) >= 2,
               lambda: f"the second process was never refused the lock: {log.read_text()}")
    assert waiter.poll() is None, f"the second process did not wait: {waiter.communicate()}"
    assert session.send("add while the other waits") == ["added #2"]
    assert waiter.poll() is None, f"the second process did not wait: {waiter.communicate()}"
    assert session.close() == 0
    output, errors = waiter.communicate(timeout=30)
    assert (waiter.returncode, output, errors) == (0, "2\n", "")
    assert refused_locks(log) >= 2


def test_a_second_process_gives_up_on_an_encrypted_store_held_over_ten_seconds(memo_binary, environment, tmp_path):
    store, sealed, session = held_encrypted_store(memo_binary, environment, tmp_path)
    started = time.monotonic()
    refused = one_shot(memo_binary, sealed, store, "count")
    assert time.monotonic() - started >= 10
    assert refused.returncode == 3
    assert refused.stdout == ""
    assert refused.stderr == (f"error: cannot open store {store}: "
                              "the store is busy: another memo process has it open; try again\n")
    assert session.send("count") == ["1"], "the first process holds the store still"
    assert session.close() == 0
    assert one_shot(memo_binary, sealed, store, "count").stdout == "1\n"
