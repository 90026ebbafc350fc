"""Sync and encrypted stores (docs/REFERENCE.md, Sync): from an encrypted store, a store that
is not encrypted (or one the sync would create) is asked about on a terminal and refused in
scripts and piped input unless `sync --allow-plaintext`; two encrypted stores, here or through
ssh, stay encrypted and leave no memo text on disk; a sync killed in the middle leaves both
stores whole and encrypted. Each test's words are sentinels that `SealedPlaces.files_holding`
looks for in every place memo could leave text."""
import ctypes
import json
import os
import select
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import time

import pexpect
import pytest

from plaintext import SealedPlaces, sentinel
from waiting import has_ended, wait_until

MAGIC = b"memoSEAL"
RELAY = os.path.join(os.path.dirname(__file__), "ssh_relay.py")
REFUSAL = "is not an encrypted store, and this one is"
QUESTION = ("the other store is not encrypted: its copy of your memos will be readable by anyone who gets the file; "
            "go on? [y/N] ")


@pytest.fixture
def places(environment, tmp_path):
    return SealedPlaces(environment, tmp_path)


def memo(binary, places, store, *arguments, check=True, environment=None, **options):
    result = subprocess.run([binary, "--store", str(store)] + [str(argument) for argument in arguments],
                            env=environment or places.environment, capture_output=True, text=True, **options)
    assert not check or result.returncode == 0, result.stderr
    return result


def sealed_store(binary, places, store, *texts):
    for text in texts:
        memo(binary, places, store, "add", text)
    memo(binary, places, store, "encrypt")
    assert is_sealed(store)


def is_sealed(store):
    with open(store, "rb") as file:
        return file.read(len(MAGIC)) == MAGIC


def contents(binary, places, store):
    """The texts of the store's memos, sorted."""
    lines = memo(binary, places, store, "--json", "list").stdout.splitlines()
    return sorted(json.loads(line)["content"] for line in lines)


def test_a_sealed_store_syncs_into_a_plain_one_only_when_allowed(memo_binary, places):
    """Without a terminal (a one-shot command with piped input, `memo run`, a piped session)
    the sync is refused, exit status 1, with one line that names the way on; the plain
    store keeps its bytes and a missing one is not created. `--allow-plaintext` syncs."""
    word = sentinel()
    sealed_store(memo_binary, places, places.store, word)
    plain, new = places.store_folder / "plain.sqlite", places.store_folder / "new.sqlite"
    memo(memo_binary, places, plain, "add", "public")
    plain_bytes = plain.read_bytes()
    for target in (plain, new):
        refused = memo(memo_binary, places, places.store, "sync", target, check=False, stdin=subprocess.DEVNULL)
        assert (refused.returncode, refused.stdout) == (1, "")
        assert refused.stderr == (f"error: {target} {REFUSAL}: a sync would leave your memos there readable by anyone"
                                  " who gets the file; nothing was synced (encrypt that store first, or give"
                                  " --allow-plaintext)\n")
    script = places.inputs / "sync.memo"
    script.write_text(f"sync {new}\n")
    ran = memo(memo_binary, places, places.store, "run", script, check=False)
    assert ran.returncode != 0 and REFUSAL in ran.stderr
    piped = memo(memo_binary, places, places.store, check=False, input=f"sync {plain}\n")
    assert piped.returncode != 0 and REFUSAL in piped.stderr
    assert plain.read_bytes() == plain_bytes and not new.exists()
    assert places.files_holding(word) == []
    allowed = memo(memo_binary, places, places.store, "sync", plain, "--allow-plaintext", stdin=subprocess.DEVNULL)
    assert allowed.stdout == f"synced with {plain}: 1 memo sent, 1 received\n"
    assert contents(memo_binary, places, plain) == sorted([word, "public"])
    assert is_sealed(places.store) and not is_sealed(plain)
    # The text is where the user allowed it, and nowhere else.
    assert {os.path.basename(path) for path in places.files_holding(word)} <= {"plain.sqlite", "plain.sqlite-wal"}


def test_on_a_terminal_the_sync_into_a_plain_store_is_asked_first(memo_binary, places):
    word = sentinel()
    sealed_store(memo_binary, places, places.store, word)
    new = places.store_folder / "new.sqlite"

    def sync(answer):
        session = pexpect.spawn(memo_binary, ["--store", str(places.store), "sync", str(new)],
                                env=places.environment, encoding="utf-8", timeout=20)
        session.expect_exact(QUESTION)
        session.send(answer + "\r")
        session.expect(pexpect.EOF)
        session.close()
        return session.exitstatus, session.before

    status, said = sync("n")
    assert status == 0 and "nothing synced" in said
    assert not new.exists() and places.files_holding(word) == []
    status, said = sync("y")
    assert status == 0 and f"synced with {new}: 1 memo sent, 0 received" in said
    assert contents(memo_binary, places, new) == [word]
    assert is_sealed(places.store)


def test_the_reverse_direction_is_not_asked_and_the_sealed_peer_stays_sealed(memo_binary, places):
    word = sentinel()
    sealed_store(memo_binary, places, places.store, word)
    plain = places.root / "plain.sqlite"
    memo(memo_binary, places, plain, "add", "public")
    synced = memo(memo_binary, places, plain, "sync", places.store, stdin=subprocess.DEVNULL)
    assert synced.stdout == f"synced with {places.store}: 1 memo sent, 1 received\n"
    assert is_sealed(places.store)
    assert contents(memo_binary, places, places.store) == sorted([word, "public"])


def test_two_sealed_stores_sync_and_stay_sealed(memo_binary, places):
    first, second = sentinel(), sentinel()
    sealed_store(memo_binary, places, places.store, first)
    other = places.store_folder / "second.sqlite"
    sealed_store(memo_binary, places, other, second)
    synced = memo(memo_binary, places, places.store, "sync", other, stdin=subprocess.DEVNULL)
    assert synced.stdout == f"synced with {other}: 1 memo sent, 1 received\n"
    assert is_sealed(places.store) and is_sealed(other)
    assert places.files_holding(first) == [] and places.files_holding(second) == []
    for store in (places.store, other):
        assert contents(memo_binary, places, store) == sorted([first, second])
    assert is_sealed(places.store) and is_sealed(other)
    assert places.files_holding(first) == [] and places.files_holding(second) == []
    # With itself, by another name, it is refused at once: not a wait for its own lock.
    itself = memo(memo_binary, places, places.store, "sync", places.store_folder / "." / "private.sqlite",
                  "--allow-plaintext", check=False, timeout=8)
    assert itself.returncode == 1 and "is this store's own file" in itself.stderr


def remote_memo(binary, places):
    """A --remote-memo that runs memo with this test's passphrase command and private places:
    the memo there reads its own environment, as a login's would hold them."""
    wrapper = places.inputs / "remote-memo"
    settings = {name: places.environment[name] for name in
                ("HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "MEMO_PASSPHRASE_COMMAND")}
    wrapper.write_text("#!/bin/sh\nunset TMPDIR\n"
                       + "".join(f"export {name}={shlex.quote(value)}\n" for name, value in settings.items())
                       + f"exec {shlex.quote(binary)} \"$@\"\n")
    wrapper.chmod(0o755)
    return str(wrapper)


def serving(binary, store):
    """The memo processes that serve `store` (started through ssh; not the ssh client)."""
    found = subprocess.run(["pgrep", "-f", f"^{binary} sync --serve {store}$"], capture_output=True, text=True).stdout
    return [int(pid) for pid in found.split()]


def test_two_sealed_stores_sync_through_ssh_and_stay_sealed(memo_binary, places, sshd):
    environment = dict(places.environment, MEMO_SSH=sshd.ssh_command)
    first, second = sentinel(), sentinel()
    sealed_store(memo_binary, places, places.store, first)
    there = places.store_folder / "there.sqlite"
    sealed_store(memo_binary, places, there, second)
    program = remote_memo(memo_binary, places)
    synced = memo(memo_binary, places, places.store, "sync", f"memo-test:{there}", "--remote-memo", program,
                  environment=environment, stdin=subprocess.DEVNULL)
    assert synced.stdout == f"synced with memo-test:{there}: 1 memo sent, 1 received\n"
    assert is_sealed(places.store) and is_sealed(there)
    assert places.files_holding(first) == [] and places.files_holding(second) == []
    for store in (places.store, there):
        assert contents(memo_binary, places, store) == sorted([first, second])
    # The memo there never prompts: without its passphrase command it says what to set.
    login = memo(memo_binary, places, places.store, "sync", f"memo-test:{there}", "--remote-memo", memo_binary,
                 environment=environment, check=False, stdin=subprocess.DEVNULL, timeout=60)
    assert login.returncode != 0 and "MEMO_PASSPHRASE_COMMAND" in login.stderr
    assert is_sealed(there) and places.files_holding(first) == [] and places.files_holding(second) == []


def test_a_sealed_store_syncs_into_a_plain_remote_store_only_when_allowed(memo_binary, places, sshd):
    """The memo there tells in its hello whether its store is encrypted, before it opens it:
    a refused sync leaves a plain store there as it was and creates no new one."""
    environment = dict(places.environment, MEMO_SSH=sshd.ssh_command)
    word = sentinel()
    sealed_store(memo_binary, places, places.store, word)
    plain, new = places.store_folder / "plain.sqlite", places.store_folder / "new.sqlite"
    memo(memo_binary, places, plain, "add", "public")
    plain_bytes = plain.read_bytes()
    program = remote_memo(memo_binary, places)
    for target in (plain, new):
        refused = memo(memo_binary, places, places.store, "sync", f"memo-test:{target}", "--remote-memo", program,
                       environment=environment, check=False, stdin=subprocess.DEVNULL)
        assert refused.returncode == 1 and f"error: memo-test:{target} {REFUSAL}" in refused.stderr
    wait_until(lambda: not serving(memo_binary, plain) and not serving(memo_binary, new), lambda: "the memo there still runs", 20)
    assert plain.read_bytes() == plain_bytes and not new.exists()
    assert places.files_holding(word) == []
    allowed = memo(memo_binary, places, places.store, "sync", f"memo-test:{new}", "--allow-plaintext",
                   "--remote-memo", program, environment=environment, stdin=subprocess.DEVNULL)
    assert allowed.stdout == f"synced with memo-test:{new}: 1 memo sent, 0 received\n"
    assert contents(memo_binary, places, new) == [word]


class Inotify:
    """Linux inotify through ctypes: the names created in a folder, none missed."""

    def __init__(self, folder):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.descriptor = self.libc.inotify_init1(os.O_CLOEXEC | os.O_NONBLOCK)
        assert self.descriptor >= 0
        assert self.libc.inotify_add_watch(self.descriptor, str(folder).encode(), 0x100) >= 0  # IN_CREATE

    def wait_for(self, prefix, process, seconds=60):
        """Waits until a name starting with `prefix` is created (True) or `process` ends (False)."""
        deadline = time.monotonic() + seconds
        while process.poll() is None:
            ready, _, _ = select.select([self.descriptor], [], [], 0.05)
            if ready:
                data = os.read(self.descriptor, 1 << 16)
                offset = 0
                while offset < len(data):
                    _, _, _, length = struct.unpack_from("iIII", data, offset)
                    name = data[offset + 16:offset + 16 + length].rstrip(b"\0").decode()
                    offset += 16 + length
                    if name.startswith(prefix):
                        return True
            assert time.monotonic() < deadline, f"no {prefix}… after {seconds} s"
        return False

    def close(self):
        os.close(self.descriptor)


def check_after_kill(binary, places, stores, before, after, words):
    """Each store opens (its lock went with the killed process) with the memos it had or those
    the sync gives, stays encrypted, and no word is anywhere on disk; one more command each."""
    for store in stores:
        assert is_sealed(store), store
        held = contents(binary, places, store)
        assert held in (before[store], after), (store, held)
        memo(binary, places, store, "add", "after the kill")
        assert is_sealed(store)
        assert not list(store.parent.glob(store.name + ".sealing-*")), "a save left beside the store"
    for word in words:
        assert places.files_holding(word) == []


def test_a_sealed_sync_killed_while_it_saves_the_other_store_leaves_both_whole(memo_binary, places):
    """Killed as the other store's save begins (its new file appears beside it)."""
    first, second = sentinel(), sentinel()
    sealed_store(memo_binary, places, places.store, first)
    other = places.store_folder / "second.sqlite"
    sealed_store(memo_binary, places, other, second)
    watch = Inotify(places.store_folder)
    try:
        sync = subprocess.Popen([memo_binary, "--store", str(places.store), "sync", str(other)],
                                env=places.environment, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        assert watch.wait_for("second.sqlite.sealing-", sync), f"the sync ended first: {sync.communicate()}"
        sync.kill()
        sync.communicate(timeout=30)
    finally:
        watch.close()
    assert sync.returncode == -signal.SIGKILL
    before = {places.store: [first], other: [second]}
    check_after_kill(memo_binary, places, [places.store, other], before, sorted([first, second]), [first, second])


@pytest.mark.parametrize("before_end", [1, 3])
@pytest.mark.parametrize("victim", ["local", "remote"])
def test_a_sealed_sync_through_ssh_killed_in_the_middle_leaves_both_whole(memo_binary, places, sshd, victim,
                                                                           before_end):
    """The relay (ssh_relay.py) counts the exchange's lines of an uncut sync of copies, then
    stops another after all but `before_end` of them (1: the commit asked, its answer held;
    3: the records applied, the commit not asked) and the local or the remote memo is killed."""
    first, second = sentinel(), sentinel()
    sealed_store(memo_binary, places, places.store, first)
    there = places.store_folder / "there.sqlite"
    sealed_store(memo_binary, places, there, second)
    program = remote_memo(memo_binary, places)

    def start(here, far, control):
        control.mkdir()
        relayed = dict(places.environment, MEMO_SSH=f"{sys.executable} {RELAY} {control} {sshd.ssh_command}")
        return subprocess.Popen([memo_binary, "--store", str(here), "sync", f"memo-test:{far}", "--remote-memo",
                                 program], env=relayed, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    # The uncut run, on copies in the inputs folder (not searched: it holds nothing plain anyway).
    count = places.inputs / "count"
    count.mkdir()
    for store in (places.store, there):
        shutil.copy(store, count / store.name)
    uncut = start(count / places.store.name, count / there.name, count / "control")
    _, errors = uncut.communicate(timeout=120)
    assert uncut.returncode == 0, errors
    lines = int((count / "control" / "lines").read_text())
    assert lines > 10, lines

    control = places.inputs / "control"
    control.mkdir()
    (control / "freeze_at").write_text(str(lines - before_end))
    relayed = dict(places.environment, MEMO_SSH=f"{sys.executable} {RELAY} {control} {sshd.ssh_command}")
    sync = subprocess.Popen([memo_binary, "--store", str(places.store), "sync", f"memo-test:{there}", "--remote-memo",
                             program], env=relayed, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    wait_until(lambda: (control / "frozen").exists() or sync.poll() is not None, lambda: "the relay never froze", 60)
    assert (control / "frozen").exists(), sync.communicate()
    victims = [sync.pid] if victim == "local" else serving(memo_binary, there)
    assert victims, "no memo serves the store there"
    for pid in victims:
        os.kill(pid, signal.SIGKILL)
    wait_until(lambda: all(has_ended(pid) for pid in victims), lambda: f"the {victim} memo still runs")
    os.kill(int((control / "relay.pid").read_text()), signal.SIGKILL)
    sync.communicate(timeout=60)
    wait_until(lambda: not serving(memo_binary, there), lambda: "the memo there still runs", 30)
    before = {places.store: [first], there: [second]}
    check_after_kill(memo_binary, places, [places.store, there], before, sorted([first, second]), [first, second])
