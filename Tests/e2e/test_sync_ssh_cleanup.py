"""A sync through ssh that fails leaves nothing behind in a session that goes on: no ssh
unreaped (a zombie) and no pipe to it still open, however often it fails; and a write to an
ssh that is gone is an error, not the end of the session (issue 37)."""
import os

from test_repl import REPL
from test_sync_ssh import fake_remote, remote


def descriptors(pid):
    return sorted(os.listdir(f"/proc/{pid}/fd"), key=int)


def children(pid):
    """The processes whose parent is `pid`, zombies too, with their state letter."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append((int(entry), fields[0]))
    return found


def remote_saying_hello(folder, protocol, then):
    """A remote memo (for --remote-memo) that says a hello of `protocol`, then runs `then`."""
    folder.mkdir()
    hello = {"memo-sync": {"protocol": protocol, "oldest": protocol, "program": f"memo {protocol}.0.0"}}
    return fake_remote(folder, f"print(json.dumps({hello!r}), flush=True)\n{then}")


def test_failed_syncs_in_a_session_leave_no_process_and_no_pipe(memo_binary, ssh_environment, tmp_path):
    store = tmp_path / "here.sqlite"
    refusing = remote_saying_hello(tmp_path / "refusing", 0, "sys.stdin.read()")
    # Ends without a reply to memo's first request.
    vanishing = remote_saying_hello(tmp_path / "vanishing", 1, "sys.stdin.readline()")
    session = REPL(memo_binary, ssh_environment, "--store", str(store))
    session.expect_prompt()
    session.run("add kept")
    before = descriptors(session.child.pid)
    for program, said in [(refusing, "upgrade memo there"), (vanishing, "the connection ended in the middle of the sync")] * 2:
        printed = session.run(f"sync {remote(tmp_path / 'there.sqlite')} --remote-memo {program}")
        assert printed.startswith("error: memo-test:") and said in printed, printed
    assert descriptors(session.child.pid) == before
    assert children(session.child.pid) == []
    assert session.run("count") == "1"
    assert session.quit() == 0
