"""An encrypted store's save failed, or killed, at every write point in turn.

A one-shot `add` to an encrypted store of a few hundred memos (an image of several 64 KiB
chunks) saves it as a new file beside the store (`<store>.sealing-XXXXXX`): its writes, its
fsync, the rename over the store and the fsync of the folder. strace's fault injection makes
the K-th of each of those calls fail (EIO), or kills memo there (SIGKILL), for every K one
unhindered `add` makes. After each, the store opens with its passphrase and holds exactly the
memos it held before, or those and the added one; no `.sealing-` file outlives the next memo
command; and a failed save is exit status 3 and one line saying why, never a crash or an
`added`. A full disk (ENOSPC, injected and real) says the disk is full."""
import os
import re
import shutil
import subprocess

import pytest

from plaintext import PASSPHRASE_COMMAND
from stores import dump, fill, memo

MEMOS = 400
ADDED = "added while the sweep hinders the save"
SAVE_CALLS = ("write", "pwrite64", "ftruncate", "fsync", "fdatasync", "rename", "renameat", "renameat2")

pytestmark = pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed: the sweep injects its faults with it")


@pytest.fixture(scope="module")
def pristine(memo_binary, tmp_path_factory):
    """An encrypted store of MEMOS memos, what it holds, and the save points of one `add`."""
    folder = tmp_path_factory.mktemp("sealed-sweep")
    (folder / "home").mkdir()
    environment = {"HOME": str(folder / "home"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC",
                   "MEMO_PASSPHRASE_COMMAND": PASSPHRASE_COMMAND}
    store = folder / "pristine.sqlite"
    fill(memo_binary, environment, store, MEMOS)
    memo(memo_binary, environment, store, "encrypt")
    assert store.stat().st_size > 3 * 65536, "the image must span several chunks"
    before = dump(memo_binary, environment, store)
    assert len(before) == MEMOS
    return folder, memo_binary, environment, store, before, save_points(memo_binary, environment, folder, store)


def fresh_copy(folder, store, name):
    run = folder / name
    run.mkdir()
    shutil.copy(store, run / store.name)
    return run / store.name


def save_points(binary, environment, folder, store):
    """Each save call of one unhindered `add`, as (syscall, K): the K-th call of that syscall
    by memo's main thread, which saves. strace counts each process's calls apart, and follows
    no child here: the passphrase command's write is not memo's. A save call is one on the
    new file (its name holds `.sealing-`), the fsync of the store's folder, or the rename."""
    copy = fresh_copy(folder, store, "count")
    trace = copy.parent / "trace"
    subprocess.run(["strace", "-y", "-o", str(trace), "-e", f"trace={','.join(SAVE_CALLS)}", binary,
                    "--store", str(copy), "add", ADDED], env=environment, check=True, capture_output=True)
    calls = [re.match(r"(\w+)\((.*)", line).groups() for line in trace.read_text().splitlines()
             if re.match(r"\w+\(", line)]
    seen, points = {}, []
    for syscall, arguments in calls:
        seen[syscall] = seen.get(syscall, 0) + 1
        descriptor = re.match(r"\d+<([^>]*)>", arguments)
        on_new_file = ".sealing-" in arguments.split(",")[0]
        on_folder = descriptor is not None and descriptor.group(1) == str(copy.parent)
        if on_new_file or (syscall in ("fsync", "fdatasync") and on_folder):
            points.append((syscall, seen[syscall]))
    kinds = {syscall for syscall, _ in points}
    assert {"write", "fsync", "rename"} <= kinds, f"one add's save made {points}"
    assert sum(syscall == "write" for syscall, _ in points) > 3, "the sealed image is written a chunk at a time"
    # One commit, one save: the temporary table a first change sets up is not the store's.
    assert sum(syscall.startswith("rename") for syscall, _ in points) == 1, f"one add saved more than once: {points}"
    return points


def hindered_add(binary, environment, copy, syscall, k, fault):
    """`add` with the K-th `syscall` of its main thread failed with `fault` (error=EIO,
    signal=KILL, …)."""
    return subprocess.run(["strace", "-o", "/dev/null", "-e", f"trace={','.join(SAVE_CALLS)}",
                           "-e", f"inject={syscall}:{fault}:when={k}", binary, "--store", str(copy), "add", ADDED],
                          env=environment, capture_output=True, text=True)


def left_saves(copy):
    return sorted(path.name for path in copy.parent.iterdir() if ".sealing-" in path.name)


def what_is_wrong(binary, environment, copy, before):
    """After the hindered add: the next memo command (a list) opens the store; None, or what
    is wrong with what it holds and leaves beside it."""
    listed = memo(binary, environment, copy, "--json", "list", "--asc", check=False)
    if listed.returncode != 0:
        return f"the store no longer opens: {listed.stderr.strip()}"
    if left_saves(copy):
        return f"left beside the store after the next command: {left_saves(copy)}"
    after = dump(binary, environment, copy)
    added = [entry for entry in after if entry["content"] == ADDED]
    others = [entry for entry in after if entry["content"] != ADDED]
    if others != before or len(added) > 1:
        return (f"neither the old store nor the new: {len(others)} of the {len(before)} memos before "
                f"({sum(entry not in before for entry in others)} changed), and {len(added)} added")
    return None


def test_a_save_that_fails_at_any_write_point_keeps_a_whole_store_and_says_so(pristine):
    folder, binary, environment, store, before, points = pristine
    failures = []
    for syscall, k in points:
        copy = fresh_copy(folder, store, f"eio-{syscall}-{k}")
        added = hindered_add(binary, environment, copy, syscall, k, "error=EIO")
        where = f"EIO at {syscall} #{k}"
        if added.returncode != 3 or added.stdout:
            failures.append(f"{where}: exit status {added.returncode}, output {added.stdout!r}, {added.stderr!r}")
        elif added.stderr != "error: store failure: a read or write of the store file failed (I/O error)\n":
            failures.append(f"{where}: said {added.stderr!r}")
        elif left_saves(copy):
            # Before the rename memo removes the new file itself; after it, the file is the store.
            failures.append(f"{where}: the failed save left {left_saves(copy)}")
        wrong = what_is_wrong(binary, environment, copy, before)
        if wrong:
            failures.append(f"{where}: {wrong}")
    assert not failures, f"{len(failures)} of {len(points)} failed saves went wrong:\n" + "\n".join(failures)


def test_a_save_killed_at_any_write_point_leaves_the_old_store_or_the_new(pristine):
    folder, binary, environment, store, before, points = pristine
    failures, interrupted = [], 0
    for syscall, k in points:
        copy = fresh_copy(folder, store, f"kill-{syscall}-{k}")
        added = hindered_add(binary, environment, copy, syscall, k, "signal=KILL")
        where = f"killed at {syscall} #{k}"
        if added.returncode != -9:
            failures.append(f"{where}: not killed (exit status {added.returncode}, {added.stderr!r})")
        interrupted += bool(left_saves(copy))
        wrong = what_is_wrong(binary, environment, copy, before)
        if wrong:
            failures.append(f"{where}: {wrong}")
    assert not failures, f"{len(failures)} of {len(points)} kills went wrong:\n" + "\n".join(failures)
    # The kills before the rename left a part-written save for the next command to remove.
    assert interrupted > 0


@pytest.mark.parametrize("which", ["first", "last"])
def test_a_full_disk_during_a_save_says_the_disk_is_full(pristine, which):
    folder, binary, environment, store, before, points = pristine
    writes = [k for syscall, k in points if syscall == "write"]
    k = writes[0] if which == "first" else writes[-1]
    copy = fresh_copy(folder, store, f"enospc-{which}")
    added = hindered_add(binary, environment, copy, "write", k, "error=ENOSPC")
    assert (added.returncode, added.stdout, added.stderr) == (3, "", "error: store failure: the disk is full\n")
    assert left_saves(copy) == []
    assert what_is_wrong(binary, environment, copy, before) is None
    assert dump(binary, environment, copy) == before


def test_an_add_to_an_encrypted_store_on_a_full_disk(pristine, tmp_path):
    """A real full disk: a small tmpfs with room for the store but not for its next save."""
    _, binary, environment, store, before, _ = pristine
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)], capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        copy = disk / store.name
        shutil.copy(store, copy)
        free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
        spare = disk / "spare"
        spare.write_bytes(b"\0" * (free - store.stat().st_size // 2))
        added = memo(binary, environment, copy, "add", ADDED, check=False)
        assert (added.returncode, added.stdout, added.stderr) == (3, "", "error: store failure: the disk is full\n")
        assert left_saves(copy) == []
        assert dump(binary, environment, copy) == before
        spare.unlink()
        assert memo(binary, environment, copy, "add", ADDED).stdout == f"added #{MEMOS + 1}\n"
        assert what_is_wrong(binary, environment, copy, before) is None
        assert len(dump(binary, environment, copy)) == MEMOS + 1
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)
