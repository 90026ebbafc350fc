"""`memo sync` between real processes: killed with SIGKILL at several moments, both stores
stay valid and a second sync finishes the work; another process may hold a store open."""
import json
import shutil
import signal
import sqlite3
import subprocess

import pexpect
import pytest

from waiting import wait_for_cpu, whole_run_cpu_seconds

# Memos in each store. The kills come at moments of the sync's own CPU time, so the stores
# need only be large enough for a sync to write many pages and commit once.
EACH = 5_000


def memo(binary, environment, store, *arguments, check=True):
    return subprocess.run([binary, "--store", str(store)] + list(arguments), env=environment,
                          capture_output=True, text=True, check=check)


def dump(binary, environment, store):
    """Every memo as uuid, text, dates and tags (ids are local to a store)."""
    lines = memo(binary, environment, store, "--json", "list", "--asc").stdout.splitlines()
    return sorted(json.dumps({k: v for k, v in json.loads(line).items() if k != "id"}, sort_keys=True) for line in lines)


@pytest.fixture(scope="module")
def two_stores(memo_binary, tmp_path_factory):
    """Two stores of EACH memos each, never synced: the pristine copies each test starts
    from; and the CPU time one whole sync of them takes here (the least of three runs)."""
    folder = tmp_path_factory.mktemp("sync")
    environment = {"HOME": str(folder), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"}
    for side in "ab":
        records = folder / f"{side}.jsonl"
        records.write_text("".join(json.dumps({"content": f"memo {n} from {side} @t{n % 5}"}) + "\n" for n in range(EACH)))
        memo(memo_binary, environment, folder / f"pristine-{side}.sqlite", "import", str(records))
    # The least of three runs: a run's CPU time varies by a fifth with the machine's load, and
    # the tests kill a sync at a fraction of it that must come before its end.
    def whole_run():
        a, b = copies(folder, "whole")
        return whole_run_cpu_seconds([memo_binary, "--store", str(a), "sync", str(b)], env=environment)
    return folder, min(whole_run() for _ in range(3))


def copies(folder, name):
    """Fresh copies of the two pristine stores."""
    paths = folder / f"a-{name}.sqlite", folder / f"b-{name}.sqlite"
    for side, path in zip("ab", paths):
        shutil.copy(folder / f"pristine-{side}.sqlite", path)
    return paths


# Moments as fractions of a whole sync: as it starts, while it compares and copies, at its end.
@pytest.mark.parametrize("moment", [0.05, 0.2, 0.4, 0.7, 0.95])
def test_a_killed_sync_leaves_both_stores_valid_and_a_second_one_finishes(memo_binary, environment, two_stores, moment):
    folder, duration = two_stores
    a, b = copies(folder, moment)
    before = {path: dump(memo_binary, environment, path) for path in (a, b)}
    process = subprocess.Popen([memo_binary, "--store", str(a), "sync", str(b)], env=environment,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    running = wait_for_cpu(process, moment * duration)
    process.send_signal(signal.SIGKILL)
    process.wait()
    if moment <= 0.7:
        assert running, f"the sync ended before {moment} of its {duration:.1f} s of CPU"
    for path in (a, b):
        with sqlite3.connect(path) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        now = dump(memo_binary, environment, path)
        # Each side holds all of the other's memos, or none: its sync is one transaction.
        assert len(now) in (EACH, 2 * EACH), f"{path.name} killed at {moment} of {duration:.1f} s of CPU"
        assert set(before[path]) <= set(now)
    finished = memo(memo_binary, environment, a, "sync", str(b))
    assert finished.returncode == 0
    assert dump(memo_binary, environment, a) == dump(memo_binary, environment, b)
    assert len(dump(memo_binary, environment, a)) == 2 * EACH
    assert memo(memo_binary, environment, a, "sync", str(b)).stdout.endswith(": 0 memos sent, 0 received\n")
    # History and undo still work on both sides.
    for path in (a, b):
        assert "sync" in memo(memo_binary, environment, path, "history", "-n", "3").stdout
        memo(memo_binary, environment, path, "add", "after the crash")
        memo(memo_binary, environment, path, "undo")
        assert len(dump(memo_binary, environment, path)) == 2 * EACH


def test_the_other_store_may_be_open_in_another_process(memo_binary, environment, tmp_path):
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    memo(memo_binary, environment, a, "add", "from a")
    memo(memo_binary, environment, b, "add", "from b")
    repl = pexpect.spawn(memo_binary, ["--store", str(b)], env=environment, encoding="utf-8", timeout=10)
    repl.expect_exact("memo> ")
    repl.send("list\r")
    repl.expect_exact("from b")
    repl.expect_exact("memo> ")
    synced = memo(memo_binary, environment, a, "--json", "sync", str(b))
    assert json.loads(synced.stdout) == {"synced": str(b), "sent": 1, "received": 1, "conflicts": 0}
    repl.send("count\r")
    repl.expect_exact("2")
    repl.expect_exact("memo> ")
    repl.send("add typed while synced\r")
    repl.expect_exact("added #3")
    repl.sendcontrol("d")
    repl.expect(pexpect.EOF)
    memo(memo_binary, environment, a, "sync", str(b))
    assert dump(memo_binary, environment, a) == dump(memo_binary, environment, b)
