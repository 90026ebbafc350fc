"""Helpers for the sync tests: run memo on a store, and read what a store holds."""
import json
import os
import shutil
import sqlite3
import subprocess


def memo(binary, environment, store, *arguments, check=True):
    return subprocess.run([binary, "--store", str(store)] + [str(argument) for argument in arguments],
                          env=environment, capture_output=True, text=True, check=check)


def dump(binary, environment, store):
    """Every memo as uuid, text, dates and tags (ids are local to a store), in one order."""
    lines = memo(binary, environment, store, "--json", "list", "--asc").stdout.splitlines()
    memos = [{key: value for key, value in json.loads(line).items() if key != "id"} for line in lines]
    return sorted(memos, key=lambda memo: json.dumps(memo, sort_keys=True))


def texts(binary, environment, store):
    return sorted(memo["content"] for memo in dump(binary, environment, store))


def integrity(store):
    with sqlite3.connect(store) as connection:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]


def moved_nothing(sync_output):
    return sync_output.rstrip("\n").endswith(": 0 memos sent, 0 received")


def restore_in_place(snapshot, store):
    """Copies `snapshot` to `store` as the same store, not a copy: memo recognises a copied
    store file by its device and inode and makes it a store of its own (a full comparison at
    its next sync), so the copy notes its own file, as if the snapshot had never been taken."""
    shutil.copy(snapshot, store)
    file = os.stat(store)
    with sqlite3.connect(store) as connection:
        connection.execute("UPDATE sync_identity SET file_id = ?", (f"{file.st_dev}:{file.st_ino}",))
    connection.close()


def create_store(binary, environment, store):
    """Makes an empty store file at `store` (as the first write would), for a test about
    something else: an import of nothing creates it and adds no memo and no change."""
    created = subprocess.run([binary, "--store", str(store), "import", "/dev/null"], env=environment,
                             capture_output=True, text=True, check=True)
    assert created.stderr == f"memo: created a new store at {store}\n", created.stderr


def fill(binary, environment, store, count):
    """A store of `count` memos of about a line each, written by SQLite straight into the
    tables (far faster than memo adding them): `memo number N` and 80 hex digits, 4 words."""
    create_store(binary, environment, store)
    with sqlite3.connect(store) as connection:
        connection.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
            "INSERT INTO memo(uuid, content, insert_date, word_count) "
            "SELECT printf('00000000-0000-4000-8000-%012d', i), 'memo number ' || i || ' ' || hex(randomblob(40)), "
            "946684800000 + i * 1000, 4 FROM n", (count,))
        # The text is ASCII, whose indexed form is the text itself.
        connection.execute("INSERT INTO memo_search(rowid, text) SELECT id, content FROM memo")
    connection.close()
