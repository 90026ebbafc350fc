"""Export and import as a user with backups, editors and a running iOS app would use them:
an export never overwrites a database and never leaves a partial file, every format
round-trips hostile text exactly, hand-written Markdown loses nothing, a file cannot hold
one uuid twice, and a Core Data store that its app is writing imports cleanly."""
import hashlib
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from stores import create_store, fill
from waiting import wait_for_cpu, whole_run_cpu_seconds


def memo(binary, environment, store, *arguments, check=True, **options):
    return subprocess.run([binary, "--store", str(store)] + [str(a) for a in arguments], env=environment,
                          capture_output=True, text=True, check=check, **options)


def dump(binary, environment, store):
    """Every memo as uuid, text, dates and tags (ids are local to a store), oldest first."""
    # Split on newlines only: a memo's JSON may hold U+2028 or U+0085, which splitlines() splits on.
    lines = memo(binary, environment, store, "--json", "list", "--asc").stdout.split("\n")
    return [{k: v for k, v in json.loads(line).items() if k != "id"} for line in lines if line]


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


# Export must not destroy a database (issue 21 item 8)

@pytest.fixture
def store(memo_binary, environment, tmp_path):
    path = tmp_path / "s.sqlite"
    memo(memo_binary, environment, path, "add", "keep me")
    return path


def destinations(tmp_path, store):
    """Other names of the store: a symlink, a hard link, `./x`, `../folder/x`."""
    (tmp_path / "link.jsonl").symlink_to(store)
    os.link(store, tmp_path / "hard.jsonl")
    return ["s.sqlite", "./s.sqlite", f"../{tmp_path.name}/s.sqlite", str(store), "link.jsonl", "hard.jsonl"]


def test_export_refuses_the_store_by_any_path(memo_binary, environment, tmp_path, store):
    for destination in destinations(tmp_path, store):
        before = digest(store)
        result = memo(memo_binary, environment, store, "export", destination, check=False, cwd=tmp_path)
        assert result.returncode == 1, (destination, result)
        assert result.stderr.startswith("error: ") and "the store itself" in result.stderr, (destination, result.stderr)
        assert digest(store) == before, destination
        assert (tmp_path / "link.jsonl").is_symlink()
    assert [m["content"] for m in dump(memo_binary, environment, store)] == ["keep me"]


def test_export_refuses_any_sqlite_database(memo_binary, environment, tmp_path, store):
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t(x)")
    before = digest(other)
    result = memo(memo_binary, environment, store, "export", other.name, "--format", "json", check=False, cwd=tmp_path)
    assert result.returncode == 1
    assert "is an SQLite database" in result.stderr
    assert digest(other) == before


def test_export_refuses_the_log_of_another_store_that_holds_saved_memos(memo_binary, environment, tmp_path, store):
    # A store whose process was killed keeps saved memos in its -wal until it is opened again.
    other = tmp_path / "b.sqlite"
    session = subprocess.Popen([memo_binary, "--store", str(other)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               env=environment, text=True)
    session.stdin.write("add precious\n")
    session.stdin.flush()
    assert session.stdout.readline() == "added #1\n", "the add is saved once memo says so"
    assert (tmp_path / "b.sqlite-wal").stat().st_size > 0
    session.kill()
    session.wait()
    for log in ("b.sqlite-wal", "b.sqlite-shm"):
        before = digest(tmp_path / log)
        result = memo(memo_binary, environment, store, "export", log, check=False, cwd=tmp_path)
        assert result.returncode == 1 and "belongs to the SQLite database" in result.stderr, (log, result)
        assert digest(tmp_path / log) == before, log
    assert [m["content"] for m in dump(memo_binary, environment, other)] == ["precious"]


def test_export_keeps_an_existing_files_mode_and_a_new_one_follows_the_umask(memo_binary, environment, tmp_path, store):
    existing = tmp_path / "old.jsonl"
    existing.write_text("old\n")
    existing.chmod(0o640)
    memo(memo_binary, environment, store, "export", existing)
    assert existing.stat().st_mode & 0o777 == 0o640
    assert "keep me" in existing.read_text()
    for mask, mode in ((0o022, 0o644), (0o077, 0o600), (0o002, 0o664)):
        new = tmp_path / f"new-{mask:o}.md"
        memo(memo_binary, environment, store, "export", new, umask=mask)
        assert new.stat().st_mode & 0o777 == mode, (mask, oct(new.stat().st_mode))


def test_export_through_a_symlink_writes_its_target(memo_binary, environment, tmp_path, store):
    target = tmp_path / "real.jsonl"
    target.write_text("old\n")
    (tmp_path / "alias.jsonl").symlink_to(target)
    memo(memo_binary, environment, store, "export", "alias.jsonl", cwd=tmp_path)
    assert (tmp_path / "alias.jsonl").is_symlink()
    assert "keep me" in target.read_text()


def files_beside(store):
    """The files in the store's folder other than its own: its -wal and -shm come and go with the
    processes that open it (a killed one leaves them for the next to take over)."""
    return sorted(name for name in os.listdir(store.parent) if not name.startswith(store.name))


def test_a_killed_export_leaves_no_partial_file(memo_binary, environment, tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    store = folder / "big.sqlite"
    fill(memo_binary, environment, store, 150_000)
    previous = folder / "previous.jsonl"
    previous.write_text("the previous export\n")
    names = files_beside(store)
    # The least of three runs: a run that met a busy machine (other tests' memory traffic)
    # spends more CPU on the same work, and later runs must reach each share of it.
    whole = min(whole_run_cpu_seconds([memo_binary, "--store", str(store), "export", folder / "timed.jsonl"],
                                      env=environment) for _ in range(3))
    (folder / "timed.jsonl").unlink()
    for share in (0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.95):
        for destination in ("new.jsonl", "previous.jsonl"):
            process = subprocess.Popen([memo_binary, "--store", str(store), "export", str(folder / destination)],
                                       env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            running = wait_for_cpu(process, whole * share)
            process.send_signal(signal.SIGKILL)
            process.wait()
            if share <= 0.8:
                assert running, f"the export ended before {share} of its {whole:.1f} s of CPU"
            left = files_beside(store)
            if "new.jsonl" in left:
                # The kill came after the export was complete and in place.
                assert len((folder / "new.jsonl").read_text().splitlines()) == 150_000
                (folder / "new.jsonl").unlink()
                left.remove("new.jsonl")
            assert left == names, (share, destination, left)
            text = previous.read_text()
            assert text == "the previous export\n" or len(text.splitlines()) == 150_000, share
            previous.write_text("the previous export\n")


# Every format round-trips hostile text (issue 21 item 9)

HOSTILE_TEXTS = [
    "first\r\nsecond\nthird",
    "a trailing carriage return\r",
    "\r\nstarts with CRLF",
    "nul \x00 inside",
    "escape \x1b[31mred\x1b[0m and bell \x07",
    "line\u2028separator and paragraph\u2029separator, next line \u0085",
    "\ufeffa byte-order mark first",
    "---\ntitle: front matter\n---",
    "# a heading\n## 2024-01-01\n- an item\n  indented",
    "text then a comment\n<!-- memo {\"uuid\":\"00000000-0000-4000-8000-00000000beef\"} -->",
    "<!-- memo {\"tags\":[\"x\"]} -->",
    "  <!-- memo {} -->\n<!-- memo {} -->\n<!-- plain comment -->",
    "ends the comment --> here",
    "\nstarts with a newline\n\n\nand ends with blank lines\n\n",
    "   leading spaces\n\ttab\n    four spaces",
    "quotes \" and \\ backslash",
    "emoji 👩‍👩‍👧 ZWJ and e\u0301 combining",
    "a" * 200_000 + "\nafter a 200 KB line",
    "- looks like an item\n* and another\n1. numbered",
    "trailing spaces   \nline  ",
]


def hostile_records():
    records = []
    for n, text in enumerate(HOSTILE_TEXTS):
        record = {"uuid": f"00000000-0000-4000-8000-{n:012d}", "content": text,
                  "insertDate": f"2024-03-0{1 + n % 3}T0{n % 10}:0{n % 6}:07.{n:03d}Z",
                  "updateDate": f"2024-04-01T12:00:00.{n:03d}Z" if n % 2 else None, "tags": ["hostile", f"t{n % 4}"]}
        records.append(record)
    return records


@pytest.mark.parametrize("format_name", ["jsonl", "json", "markdown"])
def test_every_format_round_trips_the_hostile_corpus(memo_binary, environment, tmp_path, format_name):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(record) + "\n" for record in hostile_records()))
    source, target = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    memo(memo_binary, environment, source, "import", corpus)
    original = dump(memo_binary, environment, source)
    assert [m["content"] for m in sorted(original, key=lambda m: m["uuid"])] == HOSTILE_TEXTS
    exported = tmp_path / f"all.{format_name}"
    memo(memo_binary, environment, source, "export", exported, "--format", format_name)
    result = memo(memo_binary, environment, target, "import", exported, "--format", format_name)
    assert f"{len(HOSTILE_TEXTS)} added" in result.stdout
    assert dump(memo_binary, environment, target) == original
    # Exported again, the file is the same but for the ids: nothing drifts on a second trip.
    again = tmp_path / f"again.{format_name}"
    memo(memo_binary, environment, target, "export", again, "--format", format_name)
    assert re.sub(rb'"id":\d+,', b"", again.read_bytes()) == re.sub(rb'"id":\d+,', b"", exported.read_bytes())


def test_markdown_round_trips_text_added_from_a_pipe(memo_binary, environment, tmp_path):
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    memo(memo_binary, environment, a, "add", input="first\r\nsecond\nthird")
    memo(memo_binary, environment, a, "export", tmp_path / "cr.md")
    memo(memo_binary, environment, b, "import", tmp_path / "cr.md")
    assert dump(memo_binary, environment, b) == dump(memo_binary, environment, a)


# Hand-written Markdown loses nothing (issue 21 item 10)

def test_hand_written_markdown_keeps_headings_and_paragraphs(memo_binary, environment, tmp_path):
    hand = tmp_path / "hand.md"
    hand.write_text("# My notes\n\nSome paragraph text\nthat goes on\n\n- item one\n- item two\n  more of two\n"
                    "Lazy paragraph after an item\n\n## 2024-03-01\n\n* a star item\n\n## Ideas\n")
    store = tmp_path / "k.sqlite"
    result = memo(memo_binary, environment, store, "import", hand)
    assert "7 added" in result.stdout, result.stdout
    texts = [m["content"] for m in dump(memo_binary, environment, store)]
    for text in ["# My notes", "Some paragraph text\nthat goes on", "item one", "item two\nmore of two",
                 "Lazy paragraph after an item", "* a star item", "## Ideas"]:
        assert text in texts, (text, texts)


# A uuid once per file, no invented date (issue 21 item 11)

@pytest.mark.parametrize("second", ["00000000-0000-4000-8000-0000000000AA", "00000000-0000-4000-8000-0000000000aa"])
def test_a_file_holding_one_uuid_twice_fails_at_the_second(memo_binary, environment, tmp_path, second):
    records = tmp_path / "twice.jsonl"
    records.write_text(json.dumps({"uuid": "00000000-0000-4000-8000-0000000000aa", "content": "one",
                                   "insertDate": "2024-01-01T00:00:00.000Z"}) + "\n"
                       + json.dumps({"content": "between"}) + "\n"
                       + json.dumps({"uuid": second, "content": "two", "insertDate": "2024-02-01T00:00:00.000Z"}) + "\n")
    store = tmp_path / "s.sqlite"
    create_store(memo_binary, environment, store)
    result = memo(memo_binary, environment, store, "import", records, check=False)
    assert result.returncode == 1
    assert result.stderr.startswith(f"{records}:3: error: ") and "earlier record" in result.stderr, result.stderr
    assert dump(memo_binary, environment, store) == []


def test_an_import_never_invents_an_update_date(memo_binary, environment, tmp_path):
    store = tmp_path / "s.sqlite"
    first = tmp_path / "first.jsonl"
    first.write_text(json.dumps({"uuid": "00000000-0000-4000-8000-0000000000aa", "content": "one",
                                 "insertDate": "2024-01-01T00:00:00.000Z"}) + "\n")
    memo(memo_binary, environment, store, "import", first)
    for record in ({"uuid": "00000000-0000-4000-8000-0000000000AA", "content": "later insert",
                    "insertDate": "2024-02-01T00:00:00.000Z"},
                   {"uuid": "00000000-0000-4000-8000-0000000000aa", "content": "no dates"}):
        later = tmp_path / "later.jsonl"
        later.write_text(json.dumps(record) + "\n")
        memo(memo_binary, environment, store, "import", later)
        # Never edited, with another text: another memo under the same uuid, added under its own.
        memo_now = next(m for m in dump(memo_binary, environment, store) if m["uuid"] == "00000000-0000-4000-8000-0000000000aa")
        assert memo_now["content"] == "one", memo_now
        assert memo_now["updateDate"] is None and memo_now["insertDate"] == "2024-01-01T00:00:00.000Z", memo_now
    assert all(m["updateDate"] is None for m in dump(memo_binary, environment, store))


# A Core Data store its app is writing (issue 21 item 12)

CORE_DATA_SCHEMA = """
CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
INSERT INTO Z_METADATA VALUES (1, 'F1E2D3C4-B5A6-4978-8695-A4B3C2D1E0F9', NULL);
INSERT INTO Z_PRIMARYKEY VALUES (1, 'MemoEntity', 0, 0);
CREATE TABLE ZMEMOENTITY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZINSERTDATE TIMESTAMP, ZCONTENT VARCHAR);
"""

WRITER = textwrap.dedent("""
    import sqlite3, sys, time
    connection = sqlite3.connect(sys.argv[1], isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA wal_autocheckpoint = 8")
    n = 0
    while True:
        connection.execute("BEGIN")
        for _ in range(20):
            n += 1
            connection.execute("INSERT INTO ZMEMOENTITY VALUES (NULL, 1, 1, ?, ?)", (700000000 + n, f"row {n} " + "x" * 300))
        if n > 2000:
            # Keeps the store's size steady while its pages keep changing.
            connection.execute("DELETE FROM ZMEMOENTITY WHERE Z_PK IN (SELECT Z_PK FROM ZMEMOENTITY "
                               "WHERE ZCONTENT LIKE 'row %' ORDER BY Z_PK LIMIT 20)")
        connection.execute("COMMIT")
        if n % 100 == 0:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        sys.stdout.write(f"{n}\\n")
        sys.stdout.flush()
""")


def core_data_store(path):
    with sqlite3.connect(path) as connection:
        connection.executescript(CORE_DATA_SCHEMA)
        connection.executemany("INSERT INTO ZMEMOENTITY VALUES (NULL, 1, 1, ?, ?)",
                               [(600000000 + n, f"old row {n} " + "y" * 1500) for n in range(3000)])


def test_a_core_data_store_being_written_imports_every_time(memo_binary, environment, tmp_path):
    source = tmp_path / "App.sqlite"
    core_data_store(source)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(source)], stdout=subprocess.PIPE, text=True)
    try:
        writer.stdout.readline()
        failures = []
        for run in range(20):
            result = memo(memo_binary, environment, tmp_path / f"m{run}.sqlite", "import", source, "--format", "coredata",
                          check=False)
            if result.returncode != 0:
                failures.append(result.stderr)
            else:
                assert "added" in result.stdout
        assert failures == []
        assert {path.name for path in tmp_path.glob("App.sqlite*")} <= {"App.sqlite", "App.sqlite-wal", "App.sqlite-shm"}
    finally:
        writer.kill()
        writer.wait()


def test_a_core_data_import_leaves_the_live_files_unchanged(memo_binary, environment, tmp_path):
    source = tmp_path / "App.sqlite"
    core_data_store(source)
    app = sqlite3.connect(source, isolation_level=None)
    app.execute("PRAGMA journal_mode = WAL")
    app.execute("PRAGMA wal_autocheckpoint = 0")
    app.execute("INSERT INTO ZMEMOENTITY VALUES (NULL, 1, 1, 1, 'only in the WAL')")
    before = {suffix: digest(tmp_path / f"App.sqlite{suffix}") for suffix in ("", "-wal")}
    result = memo(memo_binary, environment, tmp_path / "m.sqlite", "import", source, "--format", "coredata")
    assert "3001 added" in result.stdout
    assert {suffix: digest(tmp_path / f"App.sqlite{suffix}") for suffix in ("", "-wal")} == before
    app.close()


def test_a_damaged_core_data_source_is_named_not_the_users_store(memo_binary, environment, tmp_path):
    source = tmp_path / "App.sqlite"
    core_data_store(source)
    data = bytearray(source.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    for offset in range(page_size * 2, len(data), 97):
        data[offset] = 0xFF
    source.write_bytes(bytes(data))
    store = tmp_path / "m.sqlite"
    memo(memo_binary, environment, store, "add", "mine")
    result = memo(memo_binary, environment, store, "import", source, "--format", "coredata", check=False)
    assert result.returncode != 0
    assert str(source) in result.stderr and "the store file is damaged" not in result.stderr, result.stderr
    assert [m["content"] for m in dump(memo_binary, environment, store)] == ["mine"]


# Importing again adds nothing; scripted runs never share uuids; a short Markdown comment (issue 36)

def test_two_scripts_export_memos_that_never_merge_and_each_script_repeats_its_own(memo_binary, environment, tmp_path):
    (tmp_path / "a.memo").write_text("add Alice: dentist\nexport a.jsonl\n")
    (tmp_path / "b.memo").write_text("add Bob: milk\nexport b.jsonl\n")
    def run(name):
        subprocess.run([memo_binary, "run", name], env=environment, cwd=tmp_path, check=True, capture_output=True)
        return [json.loads(line) for line in (tmp_path / name.replace(".memo", ".jsonl")).read_text().splitlines()]
    [alice], [bob] = run("a.memo"), run("b.memo")
    assert alice["uuid"] != bob["uuid"]
    assert run("a.memo") == [alice], "a script reproduces its own uuids"
    store = tmp_path / "s.sqlite"
    for name in ("a.jsonl", "b.jsonl"):
        assert "1 added" in memo(memo_binary, environment, store, "import", tmp_path / name).stdout
    assert sorted(m["content"] for m in dump(memo_binary, environment, store)) == ["Alice: dentist", "Bob: milk"]


def test_a_record_whose_uuid_names_an_unrelated_memo_is_added_under_a_new_uuid(memo_binary, environment, tmp_path):
    store = tmp_path / "s.sqlite"
    alice = tmp_path / "alice.jsonl"
    alice.write_text(json.dumps({"uuid": "00000000-0000-4000-8000-000000000001", "content": "Alice: dentist",
                                 "insertDate": "2000-01-01T00:00:00.000Z"}) + "\n")
    bob = tmp_path / "bob.jsonl"
    bob.write_text(json.dumps({"uuid": "00000000-0000-4000-8000-000000000001", "content": "Bob: milk",
                               "insertDate": "2000-01-01T00:00:00.000Z"}) + "\n")
    memo(memo_binary, environment, store, "import", alice)
    result = memo(memo_binary, environment, store, "import", bob)
    assert result.stdout == "imported 1 record: 1 added (1 under a new uuid: its own names another memo here), 0 updated, 0 skipped\n"
    assert "0 added" in memo(memo_binary, environment, store, "import", bob).stdout, "imported again, it is found"
    memos = dump(memo_binary, environment, store)
    assert [m["content"] for m in memos] == ["Alice: dentist", "Bob: milk"]
    assert memos[0]["uuid"] == "00000000-0000-4000-8000-000000000001" and memos[1]["uuid"] != memos[0]["uuid"]


def test_hand_written_markdown_imported_twice_adds_nothing_the_second_time(memo_binary, environment, tmp_path):
    hand = tmp_path / "hand.md"
    hand.write_text("Undated paragraph @idea\n\n## 2024-03-01\n\n- dated item\n")
    store = tmp_path / "s.sqlite"
    assert "2 added" in memo(memo_binary, environment, store, "import", hand).stdout
    result = memo(memo_binary, environment, store, "import", hand)
    assert result.stdout == "imported 2 records: 0 added, 0 updated, 2 skipped (2 already in the store)\n"
    assert len(dump(memo_binary, environment, store)) == 2


def synced_pair(memo_binary, environment, tmp_path):
    """Two stores that synced, with an edit, an explicit tag and a reference: a typical synced store."""
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    memo(memo_binary, environment, a, "add", "Alice dentist @health")
    memo(memo_binary, environment, a, "add", "--tag", "errand", "see #1 for details")
    memo(memo_binary, environment, b, "add", "Bob milk")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, b, "edit", "1", "Alice dentist @health moved to Friday")
    memo(memo_binary, environment, a, "sync", b)
    return a, b


def exported_lines(memo_binary, environment, store, path):
    memo(memo_binary, environment, store, "export", path, "--format", "jsonl")
    return [re.sub(r'^\{"id":\d+,', "{", line) for line in path.read_text().splitlines()]


def test_markdown_of_a_synced_store_carries_what_sync_needs_in_a_short_comment(memo_binary, environment, tmp_path):
    a, b = synced_pair(memo_binary, environment, tmp_path)
    markdown = tmp_path / "a.md"
    memo(memo_binary, environment, a, "export", markdown)
    comments = [line for line in markdown.read_text().splitlines() if line.lstrip().startswith("<!--")]
    assert len(comments) == 3
    assert max(len(line) for line in comments) < 200, comments
    copy = tmp_path / "copy.sqlite"
    assert "3 added" in memo(memo_binary, environment, copy, "import", markdown).stdout
    # Every memo, its version and its links come back as the source holds them ...
    assert exported_lines(memo_binary, environment, copy, tmp_path / "copy.jsonl") == \
        exported_lines(memo_binary, environment, a, tmp_path / "a.jsonl")
    # ... so the copy syncs with the source's peer without a conflict or a change.
    result = memo(memo_binary, environment, copy, "sync", b)
    assert "conflict" not in result.stdout and not any("@conflict" in m["content"] for m in dump(memo_binary, environment, b))
    assert len(dump(memo_binary, environment, b)) == 3


OLD_MARKDOWN = """# Memos

## 2026-12-03

- Alice dentist @health moved
  <!-- memo {"uuid":"deebd9cc-2b3b-4a27-8919-1a5b245221d1","insertDate":"2026-12-03T02:30:37.322Z","updateDate":"2026-12-03T02:30:37.552Z","tags":["health"],"sync":{"text":{"99a3c026-b5aa-45af-a96d-f2dd6bb259a6":3,"~17663cef04f6613446d8892042e6de5b":1,"~dacadc679a240cfbca04a6fee92e6e7e":1},"tags":{"~cbf29ce48422232584222325cbf29ce4":1},"support":{"99a3c026-b5aa-45af-a96d-f2dd6bb259a6":3,"~cbf29ce48422232584222325cbf29ce4":1,"~dacadc679a240cfbca04a6fee92e6e7e":1},"textBy":"99a3c026-b5aa-45af-a96d-f2dd6bb259a6","textSeq":3,"tagsAddedBy":{},"changedAt":1796265037552,"changedBy":"99a3c026-b5aa-45af-a96d-f2dd6bb259a6"}} -->
- see #1 for details
  <!-- memo {"uuid":"03111e50-6c67-4609-a5d0-67f1d0aedfae","insertDate":"2026-12-03T02:30:37.378Z","updateDate":null,"tags":[],"links":[{"start":4,"length":2,"uuid":"deebd9cc-2b3b-4a27-8919-1a5b245221d1"}]} -->
"""


def test_markdown_in_the_old_long_comment_form_still_imports(memo_binary, environment, tmp_path):
    old = tmp_path / "old.md"
    old.write_text(OLD_MARKDOWN)
    store = tmp_path / "s.sqlite"
    assert "2 added" in memo(memo_binary, environment, store, "import", old).stdout
    lines = [json.loads(line) for line in exported_lines(memo_binary, environment, store, tmp_path / "s.jsonl")]
    assert [(m["uuid"], m["content"], m["insertDate"], m["updateDate"]) for m in lines] == [
        ("deebd9cc-2b3b-4a27-8919-1a5b245221d1", "Alice dentist @health moved", "2026-12-03T02:30:37.322Z", "2026-12-03T02:30:37.552Z"),
        ("03111e50-6c67-4609-a5d0-67f1d0aedfae", "see #1 for details", "2026-12-03T02:30:37.378Z", None)]
    assert lines[0]["sync"]["textBy"] == "99a3c026-b5aa-45af-a96d-f2dd6bb259a6" and lines[0]["sync"]["textSeq"] == 3
    assert lines[1]["links"] == [{"start": 4, "length": 2, "uuid": "deebd9cc-2b3b-4a27-8919-1a5b245221d1"}]


def test_two_scripts_that_edit_the_memo_of_the_same_first_line_keep_both_texts_on_import(memo_binary, environment, tmp_path):
    # Found by an adversarial run: both scripts give their first memo the same uuid (what they
    # read before it is the same) and edit it at the same clock time; the second import
    # skipped "w" as an older or equal state of "y".
    (tmp_path / "e1.memo").write_text("add x\nedit 1 y\nexport e1.jsonl\n")
    (tmp_path / "e2.memo").write_text("add x\nedit 1 w\nexport e2.jsonl\n")
    for name in ("e1.memo", "e2.memo"):
        subprocess.run([memo_binary, "run", name], env=environment, cwd=tmp_path, check=True, capture_output=True)
    store = tmp_path / "u.sqlite"
    memo(memo_binary, environment, store, "import", tmp_path / "e1.jsonl")
    second = memo(memo_binary, environment, store, "import", tmp_path / "e2.jsonl").stdout
    assert "1 added (1 under a new uuid" in second
    assert sorted(m["content"] for m in dump(memo_binary, environment, store)) == ["w", "y"]
    assert "0 added" in memo(memo_binary, environment, store, "import", tmp_path / "e2.jsonl").stdout
