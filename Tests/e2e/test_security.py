"""Security: what memo writes is private whatever the umask, the server listens on no network
port, files given to memo are only read, and text reaches SQL only as bound values."""
import os
import sqlite3
import stat
import subprocess

import pexpect

from framing import frame
from hostile import run_bounded


def memo(binary, environment, store, *arguments, **options):
    return subprocess.run([binary, "--store", str(store)] + list(arguments), env=environment,
                          capture_output=True, text=True, umask=0, **options)


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_store_history_editor_and_memo_files_are_private_under_umask_0(memo_binary, environment, tmp_path):
    # The default store, whose missing folders memo makes (it makes none for a path given).
    environment.update(XDG_STATE_HOME=str(tmp_path / "state"), XDG_CACHE_HOME=str(tmp_path / "cache"),
                       XDG_DATA_HOME=str(tmp_path / "deep" / "er"))
    environment.pop("MEMO_STORE", None)
    store = tmp_path / "deep" / "er" / "memo" / "memo.sqlite"
    # The editor notes the mode of the file it was given.
    editor = tmp_path / "editor.sh"
    editor.write_text('#!/bin/sh\nstat -c %a "$1" > "' + str(tmp_path) + '/edited.mode"\n'
                      'printf "written in the editor" > "$1"\n')
    editor.chmod(0o755)
    repl = pexpect.spawn(memo_binary, [], env={**environment, "EDITOR": str(editor)},
                         preexec_fn=lambda: os.umask(0), timeout=15)
    repl.expect_exact("memo> ")
    repl.send("add kept private\r")
    repl.expect_exact("memo> ")
    repl.send("add\r")
    repl.expect_exact("memo> ")
    # While the session holds the store open, its write-ahead log and index exist too.
    for path in (store, store.with_name("memo.sqlite-wal"), store.with_name("memo.sqlite-shm")):
        assert mode(path) == 0o600, path
    for folder in (tmp_path / "deep", tmp_path / "deep" / "er", tmp_path / "deep" / "er" / "memo"):
        assert mode(folder) == 0o700, folder
    repl.sendcontrol("d")
    repl.expect(pexpect.EOF)
    assert (tmp_path / "edited.mode").read_text().strip() == "600"
    history = tmp_path / "state" / "memo" / "history"
    assert mode(history) == 0o600 and mode(history.parent) == 0o700
    copy = tmp_path / "copies" / "copy.sqlite"
    copy.parent.mkdir()  # a sync target's folder must exist: memo makes none there
    assert memo(memo_binary, environment, store, "sync", str(copy)).returncode == 0
    assert mode(copy) == 0o600

    server = subprocess.run([memo_binary, "--store", str(store), "serve"], env=environment, umask=0, capture_output=True,
                            input=frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
                            + frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                                "uri": "file:///notes.memo", "languageId": "memo", "version": 1, "text": "see #1\n"}}})
                            + frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/documentLink",
                                     "params": {"textDocument": {"uri": "file:///notes.memo"}}})
                            + frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
                            + frame({"jsonrpc": "2.0", "method": "exit"}), timeout=30)
    assert server.returncode == 0
    opened = tmp_path / "cache" / "memo" / "open"
    [store_folder] = opened.iterdir()
    assert sorted(path.name for path in store_folder.iterdir()) == [".1.base", "1.md"]
    assert [mode(path) for path in store_folder.iterdir()] == [0o600, 0o600]
    assert mode(opened) == 0o700 and mode(store_folder) == 0o700


def test_the_server_opens_no_network_socket(memo_binary, environment, tmp_path):
    process = subprocess.Popen([memo_binary, "--store", str(tmp_path / "store.sqlite"), "serve"], env=environment,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    process.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
                        + frame({"jsonrpc": "2.0", "id": 2, "method": "memo/watch", "params": {}}))
    process.stdin.flush()
    process.stdout.read1(1)  # the server answered: it is up and serving
    descriptors = [os.readlink(f"/proc/{process.pid}/fd/{fd}") for fd in os.listdir(f"/proc/{process.pid}/fd")]
    listening = open("/proc/net/tcp").read() + open("/proc/net/tcp6").read() + open("/proc/net/udp").read()
    process.kill()
    process.wait()
    sockets = [target for target in descriptors if target.startswith("socket:")]
    assert sockets == [], sockets
    assert f"{process.pid}" not in listening


def test_scripts_fixtures_transcripts_and_imports_are_only_read(memo_binary, environment, tmp_path):
    marker = tmp_path / "EXECUTED"
    payload = f"#!/bin/sh\ntouch {marker}\n"
    files = {}
    for name in ("evil.memo", "evil.transcript", "evil.jsonl", "evil.json", "evil.md"):
        path = tmp_path / name
        path.write_text(payload)
        path.chmod(0o755)
        files[path] = (path.read_bytes(), os.stat(path).st_mtime_ns)
    store = tmp_path / "store.sqlite"
    runs = [["run", str(tmp_path / "evil.memo")], ["--fixture", str(tmp_path / "evil.memo"), "count"],
            ["test", str(tmp_path / "evil.transcript")]] + \
           [["--store", str(store), "import", str(tmp_path / name)] for name in ("evil.jsonl", "evil.json", "evil.md")]
    for arguments in runs:
        result = run_bounded([memo_binary] + arguments, environment, tmp_path)
        assert result.status in (0, 1), (arguments, result.stderr)
    assert not marker.exists()
    for path, (content, modified) in files.items():
        assert path.read_bytes() == content and os.stat(path).st_mtime_ns == modified, path


def test_text_reaches_sql_only_as_bound_values(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    injections = ["x'); DROP TABLE memo; --", "\" OR 1=1 --", "'; ATTACH DATABASE '/tmp/pwned' AS p; --",
                  "memo_search MATCH '*'", "NEAR(a b) OR content:*", "a\" OR \"b", "*", "^x"]
    for text in injections:
        assert memo(memo_binary, environment, store, "add", text).returncode == 0
    schema = sqlite3.connect(store).execute("SELECT name, sql FROM sqlite_schema ORDER BY name").fetchall()
    for text in injections:
        found = memo(memo_binary, environment, store, "--json", "search", text)
        assert found.returncode in (0, 1), found.stderr
        assert "store failure" not in found.stderr and "SQLite" not in found.stderr
        assert memo(memo_binary, environment, store, "list", "--tag", text).returncode in (0, 1)
        assert memo(memo_binary, environment, store, "tag", "1", text).returncode in (0, 1)
    # A Core Data import names tables and columns: they must be the source's own.
    source = tmp_path / "App.sqlite"
    with sqlite3.connect(source) as connection:
        connection.executescript("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'MemoEntity', 0, 1);
            CREATE TABLE ZMEMOENTITY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCONTENT VARCHAR, ZINSERTDATE TIMESTAMP);
            INSERT INTO ZMEMOENTITY VALUES (1, 1, 1, 'from core data', 700000000);
        """)
    for option, value in (("--entity", "MemoEntity\"; DROP TABLE ZMEMOENTITY; --"), ("--text", "content\" FROM sqlite_schema; --"),
                          ("--date", "insertDate) FROM ZMEMOENTITY; --")):
        result = memo(memo_binary, environment, store, "import", str(source), "--format", "coredata", option, value)
        assert result.returncode == 1, result.stderr
        assert result.stderr.startswith("error: ") and "SQLite" not in result.stderr
    assert sqlite3.connect(source).execute("SELECT count(*) FROM ZMEMOENTITY").fetchone() == (1,)
    assert sqlite3.connect(store).execute("SELECT name, sql FROM sqlite_schema ORDER BY name").fetchall() == schema
    assert memo(memo_binary, environment, store, "count").stdout == f"{len(injections)}\n"
    assert not os.path.exists("/tmp/pwned")
