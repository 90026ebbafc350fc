"""A sync through ssh cut at every moment of its exchange (issue 26, docs/REFERENCE.md,
Sync through ssh): the relay (ssh_relay.py, as MEMO_SSH around the real ssh) stops after the K-th
message line, for every K an uncut sync sends, and then the local memo, the remote memo or ssh
itself is killed with SIGKILL. Each store must then be whole, as it was before or as the uncut sync
leaves it (each side commits what it received in one transaction), and the next sync must complete:
both stores hold exactly what one uncut sync gives."""
import os
import shutil
import signal
import subprocess
import sys

import pytest

from stores import dump, integrity, memo, restore_in_place
from waiting import has_ended, wait_until

RELAY = os.path.join(os.path.dirname(__file__), "ssh_relay.py")


@pytest.fixture(scope="module")
def pristine(memo_binary, tmp_path_factory):
    """Two stores that synced once, then each gained memos, an edit, a tag and a delete; and
    what both hold after one uncut sync."""
    folder = tmp_path_factory.mktemp("ssh-kills")
    binary = memo_binary
    environment = {"HOME": str(folder), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"}
    a, b = folder / "a.sqlite", folder / "b.sqlite"
    for side, store in (("a", a), ("b", b)):
        for n in range(3):
            memo(binary, environment, store, "add", f"{side} before the first sync {n}")
    memo(binary, environment, a, "sync", b)
    for side, store in (("a", a), ("b", b)):
        memo(binary, environment, store, "add", f"{side} after the sync")
        memo(binary, environment, store, "edit", 1, f"{side} edited its own memo")
        memo(binary, environment, store, "tag", 2, f"from-{side}")
        memo(binary, environment, store, "delete", 3)
    before = {store.name: dump(binary, environment, store) for store in (a, b)}
    expected = folder / "expected"
    expected.mkdir()
    for store in (a, b):
        shutil.copy(store, expected / store.name)
    memo(binary, environment, expected / "a.sqlite", "sync", expected / "b.sqlite")
    return folder, binary, environment, before, dump(binary, environment, expected / "a.sqlite")


@pytest.fixture(scope="module")
def lines(pristine, sshd):
    """How many message lines one uncut sync of fresh copies sends, both ways."""
    folder, binary, environment, _, _ = pristine
    run = fresh_copies(folder, "count")
    sync = start_sync(binary, environment, sshd, run)
    _, errors = sync.communicate(timeout=60)
    assert sync.returncode == 0, errors
    return int((run / "control" / "lines").read_text())


def fresh_copies(folder, name):
    run = folder / name
    run.mkdir()
    for store in ("a.sqlite", "b.sqlite"):
        restore_in_place(folder / store, run / store)
    (run / "control").mkdir()
    return run


def start_sync(binary, environment, sshd, run):
    relayed = dict(environment, MEMO_SSH=f"{sys.executable} {RELAY} {run / 'control'} {sshd.ssh_command}")
    return subprocess.Popen([binary, "--store", str(run / "a.sqlite"), "sync", f"memo-test:{run / 'b.sqlite'}",
                             "--remote-memo", binary], env=relayed, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(path, process, seconds=30):
    """Waits until `path` exists (True) or `process` has ended (False)."""
    wait_until(lambda: path.exists() or process.poll() is not None, lambda: f"no {path.name} after {seconds} s", seconds)
    return path.exists()


def remote_memos(run):
    found = subprocess.run(["pgrep", "-f", f"sync --serve '{run / 'b.sqlite'}'"], capture_output=True, text=True).stdout
    return [int(pid) for pid in found.split()]


def kill(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def cut(binary, environment, sshd, run, moment, victim):
    """Runs the sync, stops it after `moment` lines and kills `victim`; then lets everything end."""
    control = run / "control"
    (control / "freeze_at").write_text(str(moment))
    sync = start_sync(binary, environment, sshd, run)
    if wait_for(control / "frozen", sync):
        if victim == "local":
            victims = [sync.pid]
        elif victim == "remote":
            victims = remote_memos(run)
        else:
            victims = [int((control / "ssh.pid").read_text())]
        for pid in victims:
            kill(pid)
        # The victim dies first: only then does the relay end the others' pipes.
        wait_until(lambda: all(has_ended(pid) for pid in victims), lambda: f"{victim} still runs")
        kill(int((control / "relay.pid").read_text()))
    sync.communicate(timeout=60)
    # The remote memo ends once its input does: wait for it, so the next sync finds its store free.
    wait_until(lambda: not remote_memos(run), lambda: "the remote memo still runs", 20)
    return sync.returncode


def what_is_wrong(binary, environment, sshd, run, before, expected, states):
    """None, or what is wrong; notes in `states` which states the cut left the two stores in."""
    a, b = run / "a.sqlite", run / "b.sqlite"
    checks = [integrity(store) for store in (a, b)]
    if checks != ["ok", "ok"]:
        return f"integrity_check: {checks}"
    for store in (a, b):
        held = dump(binary, environment, store)
        if held not in (before[store.name], expected):
            return f"{store.name} is neither as it was nor as the sync leaves it: {[m['content'] for m in held]}"
        states.add((store.name, "synced" if held == expected else "as before"))
    ssh = dict(environment, MEMO_SSH=sshd.ssh_command)
    synced = subprocess.run([binary, "--store", str(a), "sync", f"memo-test:{b}", "--remote-memo", binary],
                            env=ssh, capture_output=True, text=True)
    if synced.returncode != 0:
        return f"the sync after the cut failed: {synced.stderr.strip()}"
    dumps = [dump(binary, environment, store) for store in (a, b)]
    if dumps != [expected, expected]:
        return f"after the next sync: not what an uncut sync gives: {[[m['content'] for m in d] for d in dumps]}"
    return None


@pytest.mark.parametrize("victim", ["local", "remote", "ssh"])
def test_a_sync_cut_at_any_moment_leaves_both_stores_whole_and_the_next_completes(pristine, sshd, lines, victim):
    folder, binary, environment, before, expected = pristine
    assert lines > 10, f"an exchange of {lines} lines"
    failures, states, statuses = [], set(), set()
    # Every moment for the remote memo; for the others every other one, and the last.
    moments = range(1, lines + 1) if victim == "remote" else sorted(set(range(1, lines + 1, 2)) | {lines})
    for moment in moments:
        run = fresh_copies(folder, f"{victim}-{moment}")
        statuses.add(cut(binary, environment, sshd, run, moment, victim))
        wrong = what_is_wrong(binary, environment, sshd, run, before, expected, states)
        if wrong:
            failures.append(f"{victim} killed after line {moment} of {lines}: {wrong}")
    assert not failures, "\n".join(failure[:400] for failure in failures)
    # The sweep cut syncs on both sides of each commit: some left a store as it was, some synced
    # (the local store only when the local memo lives to commit: it may be killed first).
    every = {(store, state) for store in ("a.sqlite", "b.sqlite") for state in ("as before", "synced")}
    assert every - ({("a.sqlite", "synced")} if victim == "local" else set()) <= states <= every, states
    assert (-signal.SIGKILL if victim == "local" else 1) in statuses, statuses
