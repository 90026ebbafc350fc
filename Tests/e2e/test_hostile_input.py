"""Hostile input to every face: scripts, piped sessions and the REPL, every import format,
Core Data stores with wrong column types, and peer stores for sync. Nothing crashes, hangs
or grows memory without bound; every error is a message; the store keeps what it had."""
import os
import random
import sqlite3
import subprocess

import pexpect
import pytest

from framing import frame, frame_bytes, read_frames
from hostile import assert_only_messages, run_bounded, token_soup


def memo(binary, environment, store, *arguments):
    return subprocess.run([binary, "--store", str(store)] + list(arguments), env=environment,
                          capture_output=True, text=True)


def random_bytes(seed, size):
    return random.Random(seed).randbytes(size)


# Scripts and piped sessions.

SCRIPTS = {
    **{f"random bytes {seed}": random_bytes(seed, 1 << 20) for seed in range(3)},
    **{f"token soup {seed}": token_soup(seed) for seed in range(8)},
    "a 10 MiB line": b"add " + b"x" * (10 << 20) + b"\ncount\n",
    "a 10 MiB line without a newline": b"y" * (10 << 20),
    "an unterminated heredoc": b"add <<EOF\n" + b"more\n" * 10_000,
    "NUL bytes": b"add one\x00two\n\x00\x00\x00\nsearch \x00\ncount\n",
    "invalid UTF-8": b"add \xff\xfe\xfd\nadd \xc3\x28\nadd \xed\xa0\x80 surrogate\ncount\n",
    "deep quotes": b"add " + b"\"'" * 100_000 + b"\n",
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_scripts_and_piped_sessions_survive_hostile_input(memo_binary, environment, tmp_path, name):
    for arguments in (["run", "--keep-going", "-"], ["--in-memory"]):
        result = run_bounded([memo_binary] + arguments, environment, tmp_path, SCRIPTS[name])
        assert result.status in (0, 1), (arguments, result.stderr[-500:])
        assert_only_messages(result.stderr)


@pytest.mark.parametrize("name", ["random bytes 0", "token soup 1", "an unterminated heredoc", "invalid UTF-8"])
def test_transcript_tests_survive_hostile_files(memo_binary, environment, tmp_path, name):
    transcript = tmp_path / "hostile.transcript"
    transcript.write_bytes(b"".join(b"memo> " + line + b"\n" for line in SCRIPTS[name].split(b"\n")))
    result = run_bounded([memo_binary, "test", str(transcript)], environment, tmp_path)
    assert result.status == 1
    assert_only_messages(result.stderr)


def test_the_repl_survives_hostile_lines(memo_binary, environment, tmp_path):
    repl = pexpect.spawn(memo_binary, ["--store", str(tmp_path / "store.sqlite")], env=environment, timeout=30)
    repl.expect_exact(b"memo> ")
    # Keys that stop the terminal's output (^S), suspend (^Z), end the input (^D) or start a
    # search or a prefix in the line editor wait for more keys by design: they are left out.
    waiting_keys = set(b"\x03\x04\x0f\x11\x12\x13\x16\x18\x1a\r\n")
    generator = random.Random("repl")
    noise = [bytes(byte for byte in generator.randbytes(300) if byte not in waiting_keys) for _ in range(3)]
    hostile_lines = [b"add \xff\xfe invalid", b"add " + b"z" * 20_000, b"\x00\x00 add nul",
                     b"add \x1b[2J\x07\x08\x7f escape", b"search \"unclosed", b"add <<EOF", b"EOF",
                     b"add ctrl \x05\x06\x0b\x0c\x19 end"] + noise
    for line in hostile_lines:
        repl.send(line + b"\r")
        repl.expect_exact([b"memo> ", b"...> "])
    repl.send(b"count\r")
    repl.expect(rb"\r\n(\d+)\r\n")
    counted = int(repl.match.group(1))
    repl.expect_exact(b"memo> ")
    repl.sendcontrol("d")
    repl.expect(pexpect.EOF)
    repl.close()
    assert repl.exitstatus in (0, 1)
    assert counted == int(memo(memo_binary, environment, tmp_path / "store.sqlite", "count").stdout)


def test_the_repl_survives_a_history_file_of_random_bytes(memo_binary, environment, tmp_path, home):
    history = home / ".local" / "state" / "memo" / "history"
    history.parent.mkdir(parents=True)
    history.write_bytes(random_bytes("history", 3 << 20))
    repl = pexpect.spawn(memo_binary, ["--store", str(tmp_path / "store.sqlite")], env=environment, timeout=30)
    repl.expect_exact(b"memo> ")
    repl.send(b"add after a hostile history\r")
    repl.expect_exact(b"added #1")
    repl.expect_exact(b"memo> ")
    repl.send(b"\x1b[A\x1b[A\x1b[B")  # walk the history
    repl.sendcontrol("u")
    repl.send(b"count\r")
    repl.expect_exact(b"1")
    repl.expect_exact(b"memo> ")
    repl.sendcontrol("d")
    repl.expect(pexpect.EOF)
    repl.close()
    assert repl.exitstatus == 0
    assert b"add\\040after\\040a\\040hostile\\040history" in history.read_bytes()  # libedit's encoding


# Import in each format.

def exported(binary, environment, format_name):
    return subprocess.run([binary, "--fixture", "sample", "export", "-", "--format", format_name], env=environment,
                          capture_output=True, check=True).stdout


def hostile_imports(binary, environment):
    cases = {}
    for format_name, extension in (("jsonl", "jsonl"), ("json", "json"), ("markdown", "md")):
        valid = exported(binary, environment, format_name)
        generator = random.Random(format_name)
        for cut in sorted(generator.sample(range(1, len(valid)), 4)):
            cases[f"{format_name} truncated at {cut}"] = (extension, valid[:cut])
        cases[f"{format_name} with invalid UTF-8"] = (extension, valid.replace(b"milk", b"m\xff\xfek"))
        cases[f"{format_name} with NUL bytes"] = (extension, valid.replace(b"milk", b"mi\x00lk"))
        cases[f"{format_name} with a 10 MiB line"] = (extension, valid + b"z" * (10 << 20) + b"\n")
        cases[f"{format_name} of random bytes"] = (extension, random_bytes(format_name, 100_000))
    deep = b"[" * 100_000 + b"]" * 100_000
    cases["json deeply nested"] = ("json", deep)
    cases["json deeply nested in a record"] = ("json", b'[{"content": "x", "tags": ' + deep + b"}]")
    cases["jsonl deeply nested"] = ("jsonl", b'{"content": ' + deep + b"}\n")
    cases["markdown deeply nested"] = ("md", b"# Memos\n\n- x\n  <!-- memo {\"tags\": " + deep + b"} -->\n")
    for name, number in (("huge", b"1" * 400), ("exponent", b"1e999999"), ("negative", b"-9" * 40)):
        for field in (b"insertDate", b"updateDate", b"id"):
            record = b'{"content": "n", "' + field + b'": ' + number + b"}"
            cases[f"jsonl with a {name} number as {field.decode()}"] = ("jsonl", record + b"\n")
            cases[f"json with a {name} number as {field.decode()}"] = ("json", b"[" + record + b"]")
    cases["jsonl with far-away dates"] = ("jsonl", b'{"content": "far", "insertDate": "99999-01-01T00:00:00Z"}\n'
                                                   b'{"content": "early", "insertDate": "-0001-01-01T00:00:00Z"}\n')
    cases["jsonl with wrong types"] = ("jsonl", b'{"content": 5}\n{"content": ["a"]}\n{"content": "t", "tags": "x"}\n'
                                               b'{"content": "t", "tags": [1, null, {}]}\n{"content": "t", "uuid": 7}\n')
    return cases


def test_every_import_format_survives_hostile_files(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    assert memo(memo_binary, environment, store, "add", "there before").returncode == 0
    for name, (extension, data) in hostile_imports(memo_binary, environment).items():
        path = tmp_path / f"hostile.{extension}"
        path.write_bytes(data)
        result = run_bounded([memo_binary, "--store", str(store), "import", str(path)], environment, tmp_path)
        assert result.status in (0, 1), (name, result.stderr[-500:])
        assert_only_messages(result.stderr)
        if result.status == 1:
            assert result.stderr.startswith(str(path).encode()), (name, result.stderr[:300])
        listed = run_bounded([memo_binary, "--store", str(store), "--json", "list"], environment, tmp_path)
        assert listed.status == 0, (name, listed.stderr)
        assert b"there before" in listed.stdout
        undone = memo(memo_binary, environment, store, "undo") if result.status == 0 else None
        assert undone is None or undone.returncode == 0, (name, undone.stderr)
    assert memo(memo_binary, environment, store, "count").stdout == "1\n"


# Core Data stores with wrong types in their columns.

def core_data_store(path, rows):
    with sqlite3.connect(path) as connection:
        connection.executescript("""
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'MemoEntity', 0, 100);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE ZMEMOENTITY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCONTENT VARCHAR, ZINSERTDATE TIMESTAMP);
        """)
        connection.execute("INSERT INTO Z_METADATA VALUES (1, ?, NULL)", (rows.pop("metadata uuid", "C0FFEE"),))
        for number, (content, date) in enumerate(rows["rows"], start=1):
            connection.execute("INSERT INTO ZMEMOENTITY VALUES (?, 1, 1, ?, ?)", (number, content, date))


CORE_DATA_ROWS = {
    "invalid UTF-8 text": [(b"\xff\xfe not text", 700_000_000.0)],
    "text as a number": [(12345, 700_000_000.0), (1.5e300, 700_000_000.0)],
    "no text": [(None, 700_000_000.0), ("", 700_000_000.0)],
    "date as text": [("memo", "yesterday"), ("memo", "")],
    "date as a blob": [("memo", b"\x00\x01")],
    "huge dates": [("memo", 1e308), ("memo", -1e308), ("memo", 9.3e18), ("memo", -9.3e18)],
    "NUL inside text": [("before\x00after", 700_000_000.0)],
    "a 2 MiB text": [("w" * (2 << 20), 700_000_000.0)],
}


@pytest.mark.parametrize("name", sorted(CORE_DATA_ROWS))
def test_core_data_stores_with_wrong_column_types(memo_binary, environment, tmp_path, name):
    source = tmp_path / "App.sqlite"
    core_data_store(source, {"rows": list(CORE_DATA_ROWS[name])})
    store = tmp_path / "store.sqlite"
    memo(memo_binary, environment, store, "add", "there before")
    result = run_bounded([memo_binary, "--store", str(store), "import", str(source), "--format", "coredata"],
                         environment, tmp_path)
    assert result.status in (0, 1), result.stderr[-500:]
    assert_only_messages(result.stderr)
    listed = run_bounded([memo_binary, "--store", str(store), "list"], environment, tmp_path)
    assert listed.status == 0 and b"there before" in listed.stdout


# Hostile peer stores for sync.

def peer_store(binary, environment, path, sql):
    assert memo(binary, environment, path, "add", "a fine memo").returncode == 0
    with sqlite3.connect(path) as connection:
        connection.executescript(sql)


HOSTILE_PEERS = {
    "duplicate uuids": """
        CREATE TABLE memo_copy AS SELECT * FROM memo;
        DROP TABLE memo; CREATE TABLE memo(id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL, content TEXT NOT NULL,
          insert_date INTEGER NOT NULL, update_date INTEGER, version TEXT NOT NULL DEFAULT '{}', changed_at INTEGER NOT NULL DEFAULT 0,
          changed_by TEXT NOT NULL DEFAULT '', change_seq INTEGER NOT NULL DEFAULT 0, tags_version TEXT NOT NULL DEFAULT '{}',
          text_by TEXT NOT NULL DEFAULT '', text_seq INTEGER NOT NULL DEFAULT 0, support TEXT, tag_names TEXT NOT NULL DEFAULT '',
          word_count INTEGER NOT NULL DEFAULT 0, state_named INTEGER NOT NULL DEFAULT 0,
          linked INTEGER NOT NULL DEFAULT 0);
        INSERT INTO memo SELECT * FROM memo_copy;
        INSERT INTO memo(uuid, content, insert_date, change_seq) SELECT uuid, 'a twin', insert_date, 1 FROM memo_copy;
        UPDATE memo SET change_seq = 1;
    """,
    "future and past dates": """
        INSERT INTO memo(uuid, content, insert_date, update_date, changed_at, change_seq)
          VALUES ('5a0e7c52-9a47-4d4b-8c9c-000000000001', 'far future', 9223372036854775807, -9223372036854775808,
                  9223372036854775807, 1),
                 ('5a0e7c52-9a47-4d4b-8c9c-000000000002', 'far past', -9223372036854775808, NULL, -1, 1);
    """,
    "invalid contents": """
        INSERT INTO memo(uuid, content, insert_date, change_seq) VALUES
          ('5a0e7c52-9a47-4d4b-8c9c-000000000003', '', 0, 1),
          ('5a0e7c52-9a47-4d4b-8c9c-000000000004', CAST(x'fffe' AS TEXT), 0, 1),
          ('5a0e7c52-9a47-4d4b-8c9c-000000000005', 12345, 0, 1),
          ('5a0e7c52-9a47-4d4b-8c9c-000000000006', zeroblob(2000000), 0, 1),
          ('not a uuid', 'odd uuid', 0, 1);
    """,
    "malformed versions and tags": """
        UPDATE memo SET version = '{"x": "not a number", "y": [[[[[[[[[[]]]]]]]]]]}', changed_by = '', change_seq = 1;
        INSERT INTO memo_tag(memo_id, name, inline) SELECT id, '', 7 FROM memo;
        INSERT INTO memo_tag(memo_id, name, inline) SELECT id, 'has space', 'x' FROM memo;
        INSERT INTO memo_tombstone(uuid, version, changed_at, changed_by, change_seq)
          VALUES ('5a0e7c52-9a47-4d4b-8c9c-000000000007', '[' || printf('%.50000c', '[') || ']', 5, 'z', 1);
    """,
    "a newer schema": "PRAGMA user_version = 99;",
    "hostile deleted texts": """
        INSERT INTO memo_tombstone(uuid, version, changed_at, changed_by, change_seq, text) VALUES
          ('5a0e7c52-9a47-4d4b-8c9c-000000000008', '{"z":1}', 5, 'z', 1, '{"content": 5, "insertDate": "x"}'),
          ('5a0e7c52-9a47-4d4b-8c9c-000000000009', '{"z":2}', 5, 'z', 1, '[' || printf('%.50000c', '[') || ']'),
          ('5a0e7c52-9a47-4d4b-8c9c-00000000000a', '{"z":3}', 5, 'z', 1,
           '{"content": "", "insertDate": 0, "updateDate": null, "textBy": "z", "textSeq": 1}');
    """,
    "another program's database": "PRAGMA application_id = 42; PRAGMA user_version = 3;",
    "malformed links": """
        INSERT INTO memo(uuid, content, insert_date, change_seq) VALUES ('5a0e7c52-9a47-4d4b-8c9c-00000000000b', 'see #1', 0, 1);
        INSERT INTO memo_link(memo_id, start, length, target_uuid) SELECT id, 4, 2, 'zz' FROM memo WHERE content = 'see #1';
    """,
}


#: What each hostile peer's sync ends with: merged, or refused with this message and nothing synced.
PEER_OUTCOMES = {
    "duplicate uuids": None,
    "future and past dates": b"is outside the years 0001 to 9999; nothing was synced",
    "invalid contents": b"nothing was synced",
    "malformed versions and tags": b"is not a valid tag name; nothing was synced",
    "a newer schema": b"newer than this memo knows (13); it was left untouched: upgrade memo to open it",
    "hostile deleted texts": b"its deleted text: memo text is empty; nothing was synced",
    "another program's database": b"is not a memo store (an SQLite database of another program); it was left untouched",
    "malformed links": b"its link at 4 names 'zz', not an RFC 4122 uuid; nothing was synced",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_PEERS))
def test_a_hostile_peer_store_cannot_hurt_this_one(memo_binary, environment, tmp_path, name):
    store, peer = tmp_path / "store.sqlite", tmp_path / "peer.sqlite"
    memo(memo_binary, environment, store, "add", "there before @mine")
    peer_store(memo_binary, environment, peer, HOSTILE_PEERS[name])
    result = run_bounded([memo_binary, "--store", str(store), "sync", str(peer)], environment, tmp_path)
    assert_only_messages(result.stderr)
    if PEER_OUTCOMES[name] is None:
        assert result.status == 0, result.stderr
    else:
        assert result.status == 3
        assert result.stderr.startswith(b"error: ") and result.stderr.endswith(PEER_OUTCOMES[name] + b"\n"), result.stderr
        assert memo(memo_binary, environment, store, "count").stdout == "1\n"
    with sqlite3.connect(store) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert connection.execute("SELECT count(*) FROM memo WHERE content = '' OR typeof(content) != 'text'").fetchone() == (0,)
    for arguments in (["list"], ["--json", "list"], ["show", "1"], ["export", "-"], ["tags"], ["history"]):
        shown = run_bounded([memo_binary, "--store", str(store)] + arguments, environment, tmp_path)
        assert shown.status == 0, (arguments, shown.stderr)
    assert b"there before" in run_bounded([memo_binary, "--store", str(store), "list"], environment, tmp_path).stdout


def test_a_file_that_is_not_a_store_is_refused_as_a_peer(memo_binary, environment, tmp_path):
    store, peer = tmp_path / "store.sqlite", tmp_path / "peer.sqlite"
    memo(memo_binary, environment, store, "add", "there before")
    peer.write_bytes(random_bytes("peer", 50_000))
    before = peer.read_bytes()
    result = run_bounded([memo_binary, "--store", str(store), "sync", str(peer)], environment, tmp_path)
    assert result.status == 3
    assert result.stderr.endswith(b"is not a memo store (not an SQLite database); it was left untouched\n")
    assert peer.read_bytes() == before


# The server: random bytes, huge and deeply nested JSON, wrong types in every param.

def request(identifier, method, params):
    message = {"jsonrpc": "2.0", "method": method, "params": params}
    if identifier is not None:
        message["id"] = identifier
    return frame(message)


DOCUMENT = "file:///hostile/notes.memo"
RANGE = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 3}}
POSITION = {"textDocument": {"uri": DOCUMENT}, "position": {"line": 0, "character": 5}}
#: Valid params of every method: each of their values is replaced in turn by every WRONG value.
SAMPLE_PARAMS = {
    "memo/add": {"content": "hello @a", "tags": ["a"]},
    "memo/get": {"id": 1},
    "memo/list": {"order": "asc", "limit": 5, "offset": 0, "tag": "a", "since": "2024-01-01", "until": "today"},
    "memo/update": {"id": 1, "content": "changed", "tags": ["b"]},
    "memo/delete": {"ids": [424242]},
    "memo/search": {"query": "hello", "limit": 3},
    "memo/tags": {},
    "memo/execute": {"line": "count"},
    "memo/watch": {"limit": 2},
    "memo/unwatch": {"watchId": 1},
    "textDocument/completion": POSITION,
    "textDocument/hover": POSITION,
    "textDocument/definition": POSITION,
    "textDocument/documentLink": {"textDocument": {"uri": DOCUMENT}},
    "textDocument/inlayHint": {"textDocument": {"uri": DOCUMENT}, "range": RANGE},
    "textDocument/codeAction": {"textDocument": {"uri": DOCUMENT}, "range": RANGE, "context": {"diagnostics": []}},
    "workspace/symbol": {"query": "hel"},
    "workspace/executeCommand": {"command": "memo.saveSelection", "arguments": [{"uri": DOCUMENT, "range": RANGE}]},
}
NOTIFICATIONS = {
    "textDocument/didOpen": {"textDocument": {"uri": DOCUMENT, "languageId": "memo", "version": 1, "text": "add hi #1\nlist\n"}},
    "textDocument/didChange": {"textDocument": {"uri": DOCUMENT, "version": 2},
                               "contentChanges": [{"range": RANGE, "text": "tag"}]},
    "textDocument/didSave": {"textDocument": {"uri": DOCUMENT}, "text": "add hi\n"},
}
WRONG = [None, True, -1, 2 ** 63, -(2 ** 63) - 1, 1e308, 0.5, "", "\u0000\ud7ff\U0010ffff", "x" * 100_000,
         [], [1, "a", None], {}, {"k": {"k": 1}}, 10 ** 30]


def mutations(params):
    """`params` with one value at a time (at any depth) replaced by each WRONG value or removed."""
    for key, value in params.items():
        for wrong in WRONG:
            yield {**params, key: wrong}
        yield {k: v for k, v in params.items() if k != key}
        if isinstance(value, dict):
            for inner in mutations(value):
                yield {**params, key: inner}
        if isinstance(value, list) and value and isinstance(value[0], dict):
            for inner in mutations(value[0]):
                yield {**params, key: [inner]}


def test_the_server_answers_wrong_params_of_every_method_and_goes_on(memo_binary, environment, tmp_path):
    stream = request(0, "initialize", {"capabilities": {}})
    expected = [0]
    for method, params in NOTIFICATIONS.items():
        stream += request(None, method, params)
        for number, mutated in enumerate(mutations(params)):
            stream += request(None, method, mutated)
    for method, params in SAMPLE_PARAMS.items():
        for number, mutated in enumerate([params] + list(mutations(params)) + WRONG):
            identifier = f"{method}#{number}"
            stream += request(identifier, method, mutated)
            expected.append(identifier)
    deep = b"[" * 100_000 + b"]" * 100_000
    stream += frame_bytes(b'{"jsonrpc":"2.0","id":"deep","method":"memo/add","params":{"content":' + deep + b"}}")
    stream += frame_bytes(b'{"jsonrpc":"2.0","id":"deeper","method":"memo/add","params":' + b'{"a":' * 50_000 + b"1" + b"}" * 50_000 + b"}")
    stream += frame_bytes(b'{"jsonrpc":"2.0","id":"huge number","method":"memo/get","params":{"id":' + b"9" * 5000 + b"}}")
    # 20 MB of values: each would become an object (1.8 GB for 40 MB); refused unread.
    stream += frame_bytes(b'{"jsonrpc":"2.0","id":"many","method":"memo/delete","params":{"ids":[' + b"1," * (10 << 20) + b"1]}}")
    stream += request("last", "memo/list", {}) + request("bye", "shutdown", None) + request(None, "exit", None)
    # JSON nested deeper than any request needs, and a message of too many values, are refused
    # unread (-32600) with the id the scan can read; a number past any integer is an invalid
    # param of a readable request.
    expected += ["deep", "deeper", "huge number", "many", "last", "bye"]
    result = run_bounded([memo_binary, "--store", str(tmp_path / "store.sqlite"), "serve"], environment, tmp_path, stream,
                         seconds=240)
    answers = [reply for reply in read_frames(result.stdout) if "method" not in reply]
    assert [answer["id"] for answer in answers] == expected
    for answer in answers:
        assert ("result" in answer) != ("error" in answer), answer
        if "error" in answer:
            assert answer["error"]["code"] in (-32700, -32600, -32601, -32602, -32002, -32001, -32803), answer
            assert answer["error"]["message"]
    assert "result" in answers[-2]
    assert [answer["error"]["code"] for answer in answers if answer["id"] in ("deep", "deeper", "many")] == [-32600] * 3
    assert result.status == 0
    assert_only_messages(result.stderr)


@pytest.mark.parametrize("seed", range(3))
def test_the_server_survives_random_bytes(memo_binary, environment, tmp_path, seed):
    garbage = random_bytes(seed, 1 << 20)
    generator = random.Random(seed)
    # Random bytes with plausible headers spliced in, some with absurd lengths.
    for length in (b"0", b"-1", b"99999999999999999999", b"5", b"abc", b"", b"68719476736"):
        at = generator.randrange(len(garbage))
        garbage = garbage[:at] + b"Content-Length: " + length + b"\r\n\r\n" + garbage[at:]
    result = run_bounded([memo_binary, "--store", str(tmp_path / "store.sqlite"), "serve"], environment, tmp_path,
                         request(0, "initialize", {"capabilities": {}}) + garbage)
    assert result.status in (0, 1)
    assert_only_messages(result.stderr)
    answers = read_frames(result.stdout)
    assert answers[0]["id"] == 0 and "result" in answers[0]
    assert all(answer["error"]["code"] in (-32700, -32600, -32601, -32602, -32002) for answer in answers[1:])


def test_the_server_takes_thousands_of_changes_to_a_long_document(memo_binary, environment, tmp_path):
    """Each change edits only the lines it touches: 10,000 changes in one message to a
    document of 100,000 lines (they once cost 0.2 s each); a document of 12 million empty
    lines is not kept, since its lines would take 30 times its size."""
    uri = "file:///long.memo"
    changes = [{"range": {"start": {"line": 99_999, "character": 0}, "end": {"line": 99_999, "character": 1}}, "text": "b"}
               for _ in range(10_000)]
    stream = (request(0, "initialize", {"capabilities": {}})
              + request(None, "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "memo", "version": 1,
                                                                         "text": "add x\n" * 100_000}})
              + request(None, "textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": changes})
              + request(1, "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 99_999, "character": 0}})
              + request(None, "textDocument/didOpen", {"textDocument": {"uri": "file:///huge.memo", "languageId": "memo",
                                                                         "version": 1, "text": "\n" * 12_000_000}})
              + request(2, "shutdown", None) + request(None, "exit", None))
    result = run_bounded([memo_binary, "--store", str(tmp_path / "store.sqlite"), "serve"], environment, tmp_path, stream)
    assert result.status == 0
    messages = read_frames(result.stdout)
    diagnostics = {message["params"]["uri"]: message["params"]["diagnostics"] for message in messages
                   if message.get("method") == "textDocument/publishDiagnostics"}
    # "bdd x" is not a command: the change reached the last line.
    assert [d["range"]["start"]["line"] for d in diagnostics[uri]] == [99_999]
    assert [d["message"] for d in diagnostics["file:///huge.memo"]] == [
        f"memo reads documents of up to {64 << 20} bytes and 2000000 lines; this one has 12000001 lines, "
        "so memo offers nothing in it"]
    assert [message.get("id") for message in messages if "method" not in message] == [0, 1, 2]
