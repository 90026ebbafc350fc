"""Several memo processes on one store: batches, one-shot undo, change merging, concurrent writers."""
import json
import os
import pathlib
import signal
import sqlite3
import subprocess
import threading
import time

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
