"""A full disk: on a small tmpfs, `add`, `import` and `sync` run until the disk is full. Each
failure is one line and exit status 3, no acknowledged memo is lost, and the store works
again once space is freed. A read-only file system: reads work, writes fail clearly. Needs
root to mount; skipped with the reason otherwise."""
import base64
import json
import os
import sqlite3
import subprocess

import pytest


def memo(binary, environment, store, *arguments):
    return subprocess.run([binary, "--store", str(store)] + list(arguments), env=environment,
                          capture_output=True, text=True)


def noise(size):
    """Text that no page of the store can hold many of."""
    return base64.b64encode(os.urandom(size)).decode()


def texts(binary, environment, store):
    listed = memo(binary, environment, store, "--json", "list", "--asc")
    assert listed.returncode == 0, listed.stderr
    return [json.loads(line)["content"] for line in listed.stdout.splitlines()]


def assert_full_disk_refusal(result):
    assert result.returncode == 3, result.stderr
    assert result.stderr == "error: store failure: the disk is full\n"


@pytest.fixture
def small_disk(tmp_path):
    """A 2 MiB tmpfs, with a 512 KiB file on it to free later."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount_point)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    (mount_point / "spare").write_bytes(b"\0" * 512 * 1024)
    yield mount_point
    subprocess.run(["umount", "-l", str(mount_point)], check=False)


def fill_with_adds(binary, environment, store):
    """Adds memos until the disk refuses one; returns the texts that were acknowledged."""
    acknowledged = []
    for n in range(10_000):
        text = f"acknowledged {n} {noise(3000)}"
        added = memo(binary, environment, store, "add", text)
        if added.returncode != 0:
            assert_full_disk_refusal(added)
            return acknowledged
        acknowledged.append(text)
    pytest.fail("the disk never filled")


def test_add_import_and_sync_on_a_full_disk(memo_binary, environment, small_disk, tmp_path):
    store = small_disk / "store.sqlite"
    acknowledged = fill_with_adds(memo_binary, environment, store)
    assert len(acknowledged) > 10

    records = tmp_path / "records.jsonl"
    records.write_text("".join(json.dumps({"content": f"imported {n} {noise(600)}"}) + "\n" for n in range(2_000)))
    assert_full_disk_refusal(memo(memo_binary, environment, store, "import", str(records)))

    peer = tmp_path / "peer.sqlite"
    assert memo(memo_binary, environment, peer, "import", str(records)).returncode == 0
    assert_full_disk_refusal(memo(memo_binary, environment, store, "sync", str(peer)))
    assert len(texts(memo_binary, environment, peer)) == 2_000

    assert texts(memo_binary, environment, store) == acknowledged
    with sqlite3.connect(store) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    (small_disk / "spare").unlink()
    assert memo(memo_binary, environment, store, "add", "after space was freed").returncode == 0
    assert memo(memo_binary, environment, store, "undo").returncode == 0
    small = tmp_path / "small.jsonl"
    small.write_text(json.dumps({"content": "a small import"}) + "\n")
    assert memo(memo_binary, environment, store, "import", str(small)).returncode == 0
    assert texts(memo_binary, environment, store) == acknowledged + ["a small import"]


def test_sync_onto_a_full_disk_fails_cleanly_and_finishes_once_space_is_freed(memo_binary, environment, small_disk, tmp_path):
    source = tmp_path / "source.sqlite"
    records = tmp_path / "records.jsonl"
    records.write_text("".join(json.dumps({"content": f"synced {n} {noise(900)}"}) + "\n" for n in range(1_500)))
    assert memo(memo_binary, environment, source, "import", str(records)).returncode == 0
    copy = small_disk / "copy.sqlite"
    # The copy is a new store: created before the disk fills, and not kept by the failed sync.
    failed = memo(memo_binary, environment, source, "sync", str(copy))
    assert failed.returncode == 3, failed.stderr
    assert failed.stderr == "error: store failure: the disk is full\n"
    (small_disk / "spare").unlink()
    for leftover in small_disk.iterdir():
        # What a failed sync left on the disk is a valid store, or nothing.
        if leftover.suffix == ".sqlite":
            assert memo(memo_binary, environment, leftover, "count").returncode == 0
    subprocess.run(["mount", "-o", "remount,size=8m", str(small_disk)], check=True)
    finished = memo(memo_binary, environment, source, "sync", str(copy))
    assert finished.returncode == 0, finished.stderr
    assert sorted(texts(memo_binary, environment, copy)) == sorted(texts(memo_binary, environment, source))


def test_a_store_on_a_read_only_file_system_can_be_read_but_not_written(memo_binary, environment, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("a read-only bind mount needs root")
    source, mount_point = tmp_path / "disk", tmp_path / "read-only"
    source.mkdir()
    mount_point.mkdir()
    assert memo(memo_binary, environment, source / "store.sqlite", "add", "kept on a read-only disk").returncode == 0
    mounted = subprocess.run(f"mount --bind '{source}' '{mount_point}' && mount -o remount,ro,bind '{mount_point}'",
                             shell=True, capture_output=True, text=True)
    if mounted.returncode != 0:
        subprocess.run(["umount", str(mount_point)], capture_output=True)
        pytest.skip(f"cannot make a read-only bind mount here: {mounted.stderr.strip()}")
    try:
        store = mount_point / "store.sqlite"
        assert texts(memo_binary, environment, store) == ["kept on a read-only disk"]
        added = memo(memo_binary, environment, store, "add", "refused")
        assert (added.returncode, added.stderr) == (3, "error: store failure: the store is read-only: memo cannot write to it\n")
        created = memo(memo_binary, environment, mount_point / "new.sqlite", "add", "refused")
        assert (created.returncode, created.stderr) == (3, f"error: cannot open store {mount_point}/new.sqlite: Read-only file system\n")
    finally:
        subprocess.run(["umount", str(mount_point)], check=True)
    assert sorted(path.name for path in source.iterdir()) == ["store.sqlite"]
