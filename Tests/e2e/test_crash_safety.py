"""Crash safety: `memo import` and `memo run --store` killed with SIGKILL at several moments
leave the store with all or none of the interrupted work, everything that was there before,
a clean `PRAGMA integrity_check`, and a history that undo still works on.

(`memo sync` killed mid-way is in test_sync.py.)"""
import json
import os
import signal
import sqlite3
import subprocess

import pytest

from waiting import wait_for_cpu, whole_run_cpu_seconds

# The kills come at moments of the process's own CPU time, so the work need only be large
# enough to write many pages (and, for the import, to checkpoint at its end).
IMPORTED = 50_000
BATCHED = 40_000


def memo(binary, environment, store, *arguments):
    return subprocess.run([binary, "--store", str(store)] + list(arguments), env=environment,
                          capture_output=True, text=True)


def count(binary, environment, store):
    return int(memo(binary, environment, store, "count").stdout)


def assert_intact(store):
    with sqlite3.connect(store) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
        # The full-text index is sound and indexes every memo once.
        connection.execute("INSERT INTO memo_search(memo_search) VALUES('integrity-check')")
        assert connection.execute("SELECT count(*) FROM memo_search").fetchone() == \
            connection.execute("SELECT count(*) FROM memo").fetchone()


def kill_at(command, environment, cpu_seconds):
    """Kills `command` once it has used `cpu_seconds` of CPU time (or leaves it to end first);
    its exit status and the CPU time it used."""
    process = subprocess.Popen(command, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_cpu(process, cpu_seconds)
    # os.kill, not Popen.send_signal, which would reap an ended process before wait4 reads its usage;
    # unreaped, its pid is still its own.
    os.kill(process.pid, signal.SIGKILL)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_utime + usage.ru_stime


def kill_during(command_on, prepare, environment, moment, duration, attempts=3):
    """Kills the command `command_on(store)` makes, on a store `prepare(attempt)` gives, at
    `moment` of `duration` seconds of CPU time; its store and exit status. The CPU time one
    whole run takes varies with what shares its core (the other test worker): when a run meant
    to be killed midway (moment < 1) ends first, the CPU time it took is how long a run takes
    now, and the next attempt kills at that moment of it."""
    for attempt in range(attempts):
        store = prepare(attempt)
        status, used = kill_at(command_on(store), environment, moment * duration)
        if moment >= 1 or status == -signal.SIGKILL:
            break
        duration = used
    return store, status, duration


def whole_run(command, folder):
    """The CPU time one whole run of `command` takes here, in a store of its own in `folder`."""
    return whole_run_cpu_seconds(command, env={"HOME": str(folder), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})


@pytest.fixture(scope="module")
def many_records(memo_binary, tmp_path_factory):
    """The records, and the CPU time one whole import of them takes here."""
    folder = tmp_path_factory.mktemp("crash")
    path = folder / "records.jsonl"
    path.write_text("".join(json.dumps({"content": f"imported memo {n} of many @batch{n % 7}"}) + "\n"
                            for n in range(IMPORTED)))
    return path, whole_run([memo_binary, "--store", str(folder / "whole.sqlite"), "import", str(path)], folder)


# Moments as fractions of a whole import: while it starts, reads, is about to commit, and
# around the commit and checkpoint at its end.
@pytest.mark.parametrize("moment", [0.02, 0.4, 0.9, 0.98, 1.02])
def test_a_killed_import_keeps_all_or_none_and_undo_still_works(memo_binary, environment, tmp_path, many_records, moment):
    records, duration = many_records

    def prepare(attempt):
        store = tmp_path / f"store-{attempt}.sqlite"
        for text in ("kept before @old", "also kept"):
            assert memo(memo_binary, environment, store, "add", text).returncode == 0
        return store

    store, status, duration = kill_during(lambda store: [memo_binary, "--store", str(store), "import", str(records)],
                                          prepare, environment, moment, duration)
    if moment <= 0.9:
        assert status == -signal.SIGKILL, f"the import ended before {moment} of its {duration:.1f} s of CPU"
    assert_intact(store)
    after = count(memo_binary, environment, store)
    assert after in (2, 2 + IMPORTED), f"killed at {moment} of {duration:.1f} s of CPU (status {status})"
    print(f"killed at {moment} of {duration:.1f} s of CPU: {'all' if after > 2 else 'none'} of the import kept")
    assert "kept before @old" in memo(memo_binary, environment, store, "search", "kept").stdout
    history = memo(memo_binary, environment, store, "history").stdout
    undone = memo(memo_binary, environment, store, "undo")
    assert undone.returncode == 0, undone.stderr
    if after == 2:
        assert "import" not in history
        assert count(memo_binary, environment, store) == 1
    else:
        assert count(memo_binary, environment, store) == 2
    assert memo(memo_binary, environment, store, "redo").returncode == 0
    assert count(memo_binary, environment, store) == after
    assert_intact(store)


@pytest.fixture(scope="module")
def batch_script(memo_binary, tmp_path_factory):
    """One memo saved on its own, then a batch of many adds saved as one change; and the CPU
    time one whole run of it takes here."""
    folder = tmp_path_factory.mktemp("batch")
    path = folder / "batch.memo"
    path.write_text("add saved before the batch\nbegin\n"
                    + "".join(f"add batched memo {n} @b{n % 3}\n" for n in range(BATCHED))
                    + "save\nadd saved after the batch\n")
    return path, whole_run([memo_binary, "run", "--store", str(folder / "whole.sqlite"), str(path)], folder)


# Moments as fractions of a whole run: at its start, in the batch, and around its end.
@pytest.mark.parametrize("moment", [0.05, 0.5, 0.95])
def test_a_run_killed_mid_batch_keeps_none_of_the_batch(memo_binary, environment, tmp_path, batch_script, moment):
    script, duration = batch_script

    def prepare(attempt):
        store = tmp_path / f"store-{attempt}.sqlite"
        assert memo(memo_binary, environment, store, "add", "there before").returncode == 0
        return store

    store, status, duration = kill_during(lambda store: [memo_binary, "run", "--store", str(store), str(script)],
                                          prepare, environment, moment, duration)
    if moment <= 0.5:
        assert status == -signal.SIGKILL, f"the run ended before {moment} of its {duration:.1f} s of CPU"
    assert_intact(store)
    total = count(memo_binary, environment, store)
    # Before the first add, after it, after `save`, after the last add: never part of the batch.
    assert total in (1, 2, 2 + BATCHED, 3 + BATCHED), f"killed at {moment} of {duration:.1f} s of CPU"
    assert memo(memo_binary, environment, store, "search", "there before").stdout.count("\n") == 1
    # Undo walks back whatever was saved, the batch as one change, down to the memo before.
    while total > 1:
        undone = memo(memo_binary, environment, store, "undo")
        assert undone.returncode == 0, undone.stderr
        now = count(memo_binary, environment, store)
        assert now == (total - BATCHED if total == 2 + BATCHED else total - 1)
        total = now
    assert memo(memo_binary, environment, store, "add", "after the crash").returncode == 0
    assert count(memo_binary, environment, store) == 2
    assert_intact(store)
