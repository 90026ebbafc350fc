"""Sync through ssh (issue 26, docs/REFERENCE.md, Sync through ssh): `memo sync HOST:PATH` and
`ssh://` through a real OpenSSH server on 127.0.0.1 (the `sshd` fixture: throwaway keys in a
temporary folder), the remote half `memo sync --serve PATH`, its versioned hello, and each failure
as one clear line."""
import hashlib
import json
import os
import pwd
import sqlite3
import subprocess
import sys

import pexpect
import pytest

from stores import dump, integrity, memo

RELAY = os.path.join(os.path.dirname(__file__), "ssh_relay.py")


def remote(path):
    return f"memo-test:{path}"


def sync(binary, environment, store, target, remote_memo=None, check=True):
    return subprocess.run([binary, "--store", str(store), "sync", str(target), "--remote-memo", remote_memo or binary],
                          env=environment, capture_output=True, text=True, check=check)


def summary(binary, environment, store, target):
    result = subprocess.run([binary, "--json", "--store", str(store), "sync", str(target), "--remote-memo", binary],
                            env=environment, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def test_a_first_sync_creates_the_remote_store_and_later_ones_move_both_ways(memo_binary, ssh_environment, tmp_path):
    """The remote store file is created in a folder that exists; a missing folder is one
    line naming it, and nothing is created there (an unmounted disk, a mistyped path)."""
    here, there = tmp_path / "here.sqlite", tmp_path / "far" / "away" / "there.sqlite"
    memo(memo_binary, ssh_environment, here, "add", "written here @home")
    missing = sync(memo_binary, ssh_environment, here, remote(there), check=False)
    assert (missing.returncode, missing.stdout) == (1, "")
    assert missing.stderr == f"error: {remote(there)}: the folder {there.parent} does not exist: nothing was created there\n"
    assert not (tmp_path / "far").exists()
    there.parent.mkdir(parents=True)
    first = sync(memo_binary, ssh_environment, here, remote(there))
    assert first.stdout == f"synced with {remote(there)}: 1 memo sent, 0 received\n"
    assert first.stderr == "", "no progress or noise when standard error is not a terminal"
    assert there.exists() and dump(memo_binary, ssh_environment, there) == dump(memo_binary, ssh_environment, here)
    memo(memo_binary, ssh_environment, there, "add", "written there")
    memo(memo_binary, ssh_environment, here, "tag", 1, "work")
    both = summary(memo_binary, ssh_environment, here, remote(there))
    assert (both["sent"], both["received"], both["conflicts"]) == (1, 1, 0)
    assert both["synced"] == remote(there) and both["bytesSent"] > 0 and both["bytesReceived"] > 0
    assert dump(memo_binary, ssh_environment, there) == dump(memo_binary, ssh_environment, here)
    assert {m["content"]: sorted(m["tags"]) for m in dump(memo_binary, ssh_environment, here)} == {
        "written here @home": ["home", "work"], "written there": []}
    again = summary(memo_binary, ssh_environment, here, remote(there))
    assert (again["sent"], again["received"]) == (0, 0)


def test_an_ssh_url_with_user_and_port_reaches_the_same_store(memo_binary, ssh_environment, sshd, tmp_path):
    here, there = tmp_path / "here.sqlite", tmp_path / "there with space's.sqlite"
    memo(memo_binary, ssh_environment, here, "add", "through a URL")
    url = f"ssh://{sshd.user}@127.0.0.1:{sshd.port}{str(there).replace(' ', '%20')}"
    synced = sync(memo_binary, ssh_environment, here, url)
    assert synced.stdout == f"synced with {url}: 1 memo sent, 0 received\n"
    assert [m["content"] for m in dump(memo_binary, ssh_environment, there)] == ["through a URL"]
    same = sync(memo_binary, ssh_environment, here, remote(there))
    assert same.stdout.endswith(": 0 memos sent, 0 received\n")


def test_a_text_changed_on_both_sides_keeps_both_versions(memo_binary, ssh_environment, tmp_path):
    here, there = tmp_path / "here.sqlite", tmp_path / "there.sqlite"
    memo(memo_binary, ssh_environment, here, "add", "the original")
    sync(memo_binary, ssh_environment, here, remote(there))
    memo(memo_binary, ssh_environment, here, "edit", 1, "changed here")
    memo(memo_binary, ssh_environment, there, "edit", 1, "changed there")
    result = summary(memo_binary, ssh_environment, here, remote(there))
    assert result["conflicts"] == 1
    memos = dump(memo_binary, ssh_environment, here)
    assert memos == dump(memo_binary, ssh_environment, there)
    assert sorted(m["content"] for m in memos) == ["changed here", "changed there"]
    assert [sorted(m["tags"]) for m in memos].count(["conflict"]) == 1


def test_only_the_changes_travel_not_the_store(memo_binary, ssh_environment, tmp_path):
    """Bytes on the wire for one edit each way: about the same for a 10-memo and a 3,000-memo store."""
    traffic = {}
    for count in (10, 3000):
        here, there = tmp_path / f"here-{count}.sqlite", tmp_path / f"there-{count}.sqlite"
        records = tmp_path / f"memos-{count}.jsonl"
        records.write_text("".join(json.dumps({"content": f"memo {n} of {count}"}) + "\n" for n in range(count)))
        memo(memo_binary, ssh_environment, here, "import", records)
        sync(memo_binary, ssh_environment, here, remote(there))
        memo(memo_binary, ssh_environment, here, "edit", 1, "edited here")
        memo(memo_binary, ssh_environment, there, "edit", 2, "edited there")
        result = summary(memo_binary, ssh_environment, here, remote(there))
        assert (result["sent"], result["received"]) == (1, 1)
        traffic[count] = result["bytesSent"] + result["bytesReceived"]
    assert traffic[3000] < traffic[10] * 1.5 + 1000, traffic


def one_line_error(result):
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_a_remote_without_memo_is_one_line_naming_the_way_out(memo_binary, ssh_environment, tmp_path):
    here = tmp_path / "here.sqlite"
    memo(memo_binary, ssh_environment, here, "add", "kept")
    result = subprocess.run([memo_binary, "--store", str(here), "sync", remote(tmp_path / "there.sqlite")],
                            env=ssh_environment, capture_output=True, text=True)
    assert result.returncode == 1
    line = one_line_error(result)
    assert line.startswith(f"error: {remote(tmp_path / 'there.sqlite')}: no 'memo' program there") and "--remote-memo" in line
    assert not (tmp_path / "there.sqlite").exists()


def fake_remote(tmp_path, body):
    """A remote program (for --remote-memo) that is a Python script."""
    script = tmp_path / "fake-memo"
    script.write_text(f"#!{sys.executable}\nimport json, sys\n{body}\n")
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize("hello, blame", [
    ({"protocol": 0, "oldest": 0, "program": "memo 0.0.1"}, "upgrade memo there"),
    ({"protocol": 7, "oldest": 5, "program": "memo 9.0.0"}, "upgrade memo here"),
])
def test_a_remote_of_another_protocol_is_refused_naming_both_versions(memo_binary, ssh_environment, tmp_path, hello, blame):
    here = tmp_path / "here.sqlite"
    memo(memo_binary, ssh_environment, here, "add", "kept")
    before = dump(memo_binary, ssh_environment, here)
    program = fake_remote(tmp_path, f"print(json.dumps({{'memo-sync': {hello!r}}}), flush=True)\nsys.stdin.read()")
    result = sync(memo_binary, ssh_environment, here, "memo-test:x.sqlite", remote_memo=program, check=False)
    assert result.returncode == 1
    line = one_line_error(result)
    versions = str(hello["protocol"]) if hello["protocol"] == hello["oldest"] else f"{hello['oldest']} to {hello['protocol']}"
    assert f"the memo there is {hello['program']}, sync protocol {versions}; this one is memo " in line
    assert ", protocol 1: " in line and line.endswith(blame), line
    assert dump(memo_binary, ssh_environment, here) == before


def test_a_memo_older_than_the_exchange_is_told_apart(memo_binary, ssh_environment, tmp_path):
    """A memo from before `sync --serve` fails its command line: exit 2 and a usage error."""
    here = tmp_path / "here.sqlite"
    program = fake_remote(tmp_path, "print(\"error: unknown option '--serve' for 'sync'\", file=sys.stderr)\nsys.exit(2)")
    result = sync(memo_binary, ssh_environment, here, "memo-test:x.sqlite", remote_memo=program, check=False)
    assert result.returncode == 1
    line = one_line_error(result)
    assert "does not know 'sync --serve'" in line and "unknown option '--serve'" in line and "upgrade memo there" in line


def test_the_remote_half_refuses_a_client_of_another_protocol_before_opening_its_store(memo_binary, environment, tmp_path):
    store = tmp_path / "served.sqlite"
    hello = json.dumps({"memo-sync": {"protocol": 99, "oldest": 99, "program": "memo 99"}})
    result = subprocess.run([memo_binary, "sync", "--serve", str(store)], input=hello + "\n" + json.dumps({"identity": {}}) + "\n",
                            env=environment, capture_output=True, text=True)
    assert result.returncode == 1
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0] == {"memo-sync": {"protocol": 1, "oldest": 1, "program": lines[0]["memo-sync"]["program"],
                                      "sealed": False}}
    message = lines[1]["failed"]["message"]
    assert "the memo there is memo" in message and "protocol 1" in message
    assert "this one is memo 99, protocol 99" in message and message.endswith("upgrade memo there")
    assert len(lines) == 2 and not store.exists()


def test_the_remote_half_serves_only_the_exchange(memo_binary, environment, tmp_path):
    """A line that is no request ends the session; store options are refused on its command line."""
    store = tmp_path / "served.sqlite"
    hello = json.dumps({"memo-sync": {"protocol": 1, "oldest": 1, "program": "a test"}})
    result = subprocess.run([memo_binary, "sync", "--serve", str(store)], input=hello + "\nlist\n{\"identity\":{}}\n",
                            env=environment, capture_output=True, text=True)
    assert result.returncode == 1
    assert [list(json.loads(line)) for line in result.stdout.splitlines()] == [["memo-sync"], ["failed"]]
    refused = subprocess.run([memo_binary, "--store", str(tmp_path / "other.sqlite"), "sync", "--serve", str(store)],
                             env=environment, capture_output=True, text=True, input="")
    assert refused.returncode == 2 and "--serve" in refused.stderr


def test_a_refused_login_is_one_line(memo_binary, environment, sshd, tmp_path):
    stranger = (f"ssh -F /dev/null -p {sshd.port} -i {sshd.path('stranger_key')} -o IdentitiesOnly=yes -o BatchMode=yes "
                f"-o UserKnownHostsFile={sshd.path('known_hosts')} -o LogLevel=ERROR")
    here = tmp_path / "here.sqlite"
    result = sync(memo_binary, dict(environment, MEMO_SSH=stranger), here, "127.0.0.1:there.sqlite", check=False)
    assert result.returncode == 1
    line = one_line_error(result)
    assert line.startswith("error: 127.0.0.1:there.sqlite: ssh to 127.0.0.1 failed: ") and "Permission denied" in line


def test_a_remote_path_that_is_not_a_store_is_refused_and_left_untouched(memo_binary, ssh_environment, tmp_path):
    here, there = tmp_path / "here.sqlite", tmp_path / "notes.txt"
    there.write_text("my shopping list\n")
    memo(memo_binary, ssh_environment, here, "add", "kept")
    result = sync(memo_binary, ssh_environment, here, remote(there), check=False)
    assert result.returncode == 3
    line = one_line_error(result)
    assert line.startswith(f"error: {remote(there)}: ") and "is not a memo store" in line
    assert there.read_text() == "my shopping list\n"


def test_a_busy_remote_store_is_one_line_and_the_next_sync_completes(memo_binary, ssh_environment, tmp_path):
    here, there = tmp_path / "here.sqlite", tmp_path / "there.sqlite"
    memo(memo_binary, ssh_environment, here, "add", "waiting")
    sync(memo_binary, ssh_environment, here, remote(there))
    memo(memo_binary, ssh_environment, here, "add", "after the wait")
    writer = sqlite3.connect(there, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    try:
        result = sync(memo_binary, ssh_environment, here, remote(there), check=False)
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert result.returncode == 3
    assert "busy" in one_line_error(result)
    sync(memo_binary, ssh_environment, here, remote(there))
    assert dump(memo_binary, ssh_environment, here) == dump(memo_binary, ssh_environment, there)


def test_a_long_sync_shows_its_progress_on_a_terminal(memo_binary, ssh_environment, sshd, tmp_path):
    """The relay slows each line, so receiving 300 memos takes over a second: the terminal shows
    the memos received so far, and the line is cleared before the summary."""
    here, there = tmp_path / "here.sqlite", tmp_path / "there.sqlite"
    records = tmp_path / "memos.jsonl"
    records.write_text("".join(json.dumps({"content": f"memo {n}"}) + "\n" for n in range(300)))
    memo(memo_binary, ssh_environment, there, "import", records)
    control = tmp_path / "control"
    control.mkdir()
    (control / "delay").write_text("0.005")
    slow = dict(ssh_environment, MEMO_SSH=f"{sys.executable} {RELAY} {control} {sshd.ssh_command}")
    terminal = pexpect.spawn(memo_binary, ["--store", str(here), "sync", remote(there), "--remote-memo", memo_binary],
                             env=slow, encoding="utf-8", timeout=60, dimensions=(24, 200))
    terminal.expect(r"syncing with memo-test:\S+: (\d+) memos received, 0 sent")
    shown = int(terminal.match.group(1))
    # The new store here is told of once the sync succeeded: after the line is cleared.
    terminal.expect(r"\x1b\[Kmemo: created a new store at \S+here\.sqlite\r\n"
                    r"synced with memo-test:\S+: 0 memos sent, 300 received")
    terminal.expect(pexpect.EOF)
    assert 0 < shown < 300


def test_a_remote_path_reaches_the_remote_shell_as_one_word(memo_binary, ssh_environment, tmp_path):
    """Quotes, `$`, backticks, `;` and spaces in the path name that file; nothing runs there."""
    folder = tmp_path / "odd"
    folder.mkdir()
    there = folder / "it's $HOME `touch ran`; $(touch ran2) x.sqlite"
    here = tmp_path / "here.sqlite"
    memo(memo_binary, ssh_environment, here, "add", "odd path")
    sync(memo_binary, ssh_environment, here, remote(there))
    assert sorted(os.listdir(folder)) == [there.name], "the one store file, and nothing the shell ran"
    login_home = pwd.getpwuid(os.getuid()).pw_dir
    assert not any(os.path.exists(os.path.join(login_home, name)) for name in ("ran", "ran2"))
    assert [m["content"] for m in dump(memo_binary, ssh_environment, there)] == ["odd path"]


class Served:
    """`memo sync --serve STORE` driven line by line, as a client of protocol 1."""

    def __init__(self, binary, environment, store):
        self.process = subprocess.Popen([binary, "sync", "--serve", str(store)], env=environment, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.hello = self.receive()
        self.send({"memo-sync": {"protocol": 1, "oldest": 1, "program": "a test"}})

    def send(self, message):
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def receive(self):
        return json.loads(self.process.stdout.readline())

    def call(self, message, *records):
        self.send(message)
        for record in records:
            self.send(record)
        return self.receive()

    def end(self):
        self.process.stdin.close()
        return self.process.wait(timeout=30)


def test_the_remote_half_writes_only_between_open_and_commit_in_order(memo_binary, environment, tmp_path):
    store = tmp_path / "served.sqlite"
    memo(memo_binary, environment, store, "add", "kept")
    served = Served(memo_binary, environment, store)
    cursor = {"seq": 1, "checkpoint": "x"}
    early = served.call({"apply": {"count": 0, "received": cursor, "from": "s", "clock": 1}})
    assert "'apply' came too early" in early["failed"]["message"]
    assert served.end() == 1
    assert [m["content"] for m in dump(memo_binary, environment, store)] == ["kept"]

    served = Served(memo_binary, environment, store)
    identity = served.call({"identity": {}})["identity"]["card"]
    assert identity["isWritable"] and identity["storeID"]
    assert "opened" in served.call({"open": {"time": 1_700_000_000_000, "peer": "a-peer"}})
    assert "'open' came again" in served.call({"open": {"time": 1_700_000_000_000, "peer": "a-peer"}})["failed"]["message"]
    assert served.end() == 1


def test_the_remote_half_refuses_a_record_no_store_may_hold_and_writes_none(memo_binary, environment, tmp_path):
    store = tmp_path / "served.sqlite"
    memo(memo_binary, environment, store, "add", "kept")
    served = Served(memo_binary, environment, store)
    served.call({"open": {"time": 1_700_000_000_000, "peer": "a-peer"}})
    changes = served.call({"changes": {"time": 1_700_000_000_000}})["changes"]
    sent = [served.receive() for _ in range(changes["count"])]
    assert [record["live"]["content"] for record in sent] == ["kept"]
    good = dict(sent[0], uuid="0b0e3f7a-1c2d-4e5f-8a9b-0c1d2e3f4a5b", live=dict(sent[0]["live"], content="written by the client"))
    bad = dict(good, uuid="not-a-uuid")
    refused = served.call({"apply": {"count": 3, "received": changes["cursor"], "from": "a-peer", "clock": 1}}, good, bad, good)
    assert "not-a-uuid" in refused["failed"]["message"] and refused["failed"]["storeUnusable"]
    assert served.call({"abandon": {}}) == {"done": {}}, "the lines after the bad record were read as records"
    assert served.end() == 0
    assert [m["content"] for m in dump(memo_binary, environment, store)] == ["kept"]


@pytest.mark.parametrize("through_ssh", [False, True])
def test_a_sync_with_the_stores_own_write_ahead_log_is_refused_and_loses_nothing(memo_binary, ssh_environment, tmp_path, through_ssh):
    """The adversarial review's worst find: `sync a.sqlite-wal` made a store of the log of
    a.sqlite, and both processes wrote one file: every memo was gone."""
    here = tmp_path / "a.sqlite"
    for n in range(20):
        memo(memo_binary, ssh_environment, here, "add", f"memo {n}")
    for suffix in ("-wal", "-shm", "-journal"):
        target = remote(f"{here}{suffix}") if through_ssh else f"{here}{suffix}"
        result = sync(memo_binary, ssh_environment, here, target, check=False)
        assert result.returncode == 3, result
        assert "is not a memo store (it is the" in one_line_error(result)
    assert integrity(here) == "ok"
    assert len(dump(memo_binary, ssh_environment, here)) == 20


def test_a_remote_that_prints_without_end_is_refused_not_waited_for(memo_binary, ssh_environment, tmp_path):
    here = tmp_path / "here.sqlite"
    for program, said in (("yes #", "the remote printed 'y' and more"),
                          ("head -c 100000000 /dev/zero | tr '\\0' x #", "over 64 KiB before its hello")):
        result = subprocess.run([memo_binary, "--store", str(here), "sync", "memo-test:x.sqlite", "--remote-memo", program],
                                env=ssh_environment, capture_output=True, text=True, timeout=60)
        assert result.returncode == 1
        assert said in one_line_error(result)


def test_options_and_settings_that_name_nothing_are_not_taken_for_programs(memo_binary, ssh_environment, tmp_path):
    here = tmp_path / "here.sqlite"
    empty = subprocess.run([memo_binary, "--store", str(here), "sync", "memo-test:x.sqlite", "--remote-memo", " "],
                           env=ssh_environment, capture_output=True, text=True)
    assert empty.returncode == 2 and "'--remote-memo' needs a program" in empty.stderr
    # A blank MEMO_SSH is unset: plain ssh, which knows no host memo-test without the test's config.
    blank = sync(memo_binary, dict(ssh_environment, MEMO_SSH="   "), here, "memo-test:x.sqlite", check=False)
    assert blank.returncode == 1
    assert one_line_error(blank).startswith("error: memo-test:x.sqlite: ssh to memo-test failed: ssh: Could not resolve hostname")
