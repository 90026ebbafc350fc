"""A sync killed at every write point in turn (issue 21, docs/REFERENCE.md, Sync): strace's fault
injection kills `memo sync` at the K-th `fdatasync` or `pwrite64`, for every K one unkilled sync
makes. After each kill two more syncs must leave both stores intact (`integrity_check`), identical,
and holding exactly what one unkilled sync gives: every memo of both sides, nothing lost.

Two small stores keep it short; MEMO_CRASH_SWEEP_MEMOS sets how many memos each side starts with."""
import os
import re
import shutil
import subprocess

import pytest

from stores import dump, integrity, memo, restore_in_place

MEMOS = max(3, int(os.environ.get("MEMO_CRASH_SWEEP_MEMOS", "3")))

pytestmark = pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed: the sweep injects its faults with it")


@pytest.fixture(scope="module")
def pristine(memo_binary, tmp_path_factory):
    """Two stores that synced once, then each gained memos, an edit, a tag and a delete."""
    folder = tmp_path_factory.mktemp("sweep")
    binary = memo_binary
    environment = {"HOME": str(folder), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"}
    a, b = folder / "a.sqlite", folder / "b.sqlite"
    for side, store in (("a", a), ("b", b)):
        for n in range(MEMOS):
            memo(binary, environment, store, "add", f"{side} before the first sync {n}")
    memo(binary, environment, a, "sync", b)
    for side, store in (("a", a), ("b", b)):
        # Each side's own memos are its #1 to #MEMOS: the two sides change different memos.
        memo(binary, environment, store, "add", f"{side} after the sync 1")
        memo(binary, environment, store, "add", f"{side} after the sync 2")
        memo(binary, environment, store, "edit", 1, f"{side} edited its own memo")
        memo(binary, environment, store, "tag", 2, f"from-{side}")
        memo(binary, environment, store, "delete", 3)
    expected = folder / "expected"
    expected.mkdir()
    for store in (a, b):
        shutil.copy(store, expected / store.name)
    memo(binary, environment, expected / "a.sqlite", "sync", expected / "b.sqlite")
    return folder, binary, environment, dump(binary, environment, expected / "a.sqlite")


def write_points(binary, environment, folder, syscall):
    """How many times one unkilled sync of fresh copies calls `syscall`."""
    run = fresh_copies(folder, f"count-{syscall}")
    trace = run / "trace"
    subprocess.run(["strace", "-f", "-o", str(trace), "-e", f"trace={syscall}", binary, "--store", str(run / "a.sqlite"),
                    "sync", str(run / "b.sqlite")], env=environment, check=True, capture_output=True)
    return len(re.findall(rf"^\d+ +{syscall}\(", trace.read_text(), re.MULTILINE))


def fresh_copies(folder, name):
    run = folder / name
    run.mkdir()
    # The incremental sync is swept: each copy is the store it copies, not a new one.
    for store in ("a.sqlite", "b.sqlite"):
        restore_in_place(folder / store, run / store)
    return run


def what_is_wrong(binary, environment, run, expected):
    """After the kill and two more syncs: None, or what is wrong."""
    a, b = run / "a.sqlite", run / "b.sqlite"
    for _ in range(2):
        synced = memo(binary, environment, a, "sync", b, check=False)
        if synced.returncode != 0:
            return f"a sync after the kill failed: {synced.stderr.strip()}"
    checks = [integrity(store) for store in (a, b)]
    if checks != ["ok", "ok"]:
        return f"integrity_check: {checks}"
    dumps = [dump(binary, environment, store) for store in (a, b)]
    if dumps[0] != dumps[1]:
        return f"the stores differ: {difference(dumps[0], dumps[1])}"
    if dumps[0] != expected:
        return f"not what an unkilled sync gives: {difference(dumps[0], expected)}"
    return None


def difference(these, those):
    """The texts of the memos (as uuid, text, tags and dates) each side has and the other lacks."""
    return (f"{[memo['content'] for memo in these if memo not in those]} against "
            f"{[memo['content'] for memo in those if memo not in these]}")


@pytest.mark.parametrize("syscall", ["fdatasync", "pwrite64"])
def test_a_sync_killed_at_any_write_point_is_completed_by_the_next_two(pristine, syscall):
    folder, binary, environment, expected = pristine
    points = write_points(binary, environment, folder, syscall)
    assert points > 0, f"one sync made no {syscall} call"
    failures = []
    for k in range(1, points + 1):
        run = fresh_copies(folder, f"{syscall}-{k}")
        subprocess.run(["strace", "-f", "-o", "/dev/null", "-e", "trace=fdatasync,pwrite64",
                        "-e", f"inject={syscall}:signal=KILL:when={k}", binary, "--store", str(run / "a.sqlite"),
                        "sync", str(run / "b.sqlite")], env=environment, capture_output=True)
        wrong = what_is_wrong(binary, environment, run, expected)
        if wrong:
            failures.append(f"killed at {syscall} #{k}: {wrong}")
    assert not failures, f"{len(failures)} of {points} kills at {syscall} left the stores apart:\n" + "\n".join(
        failure[:300] for failure in failures)
