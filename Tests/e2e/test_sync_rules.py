"""The sync rules of docs/REFERENCE.md, Sync that issue 21 found broken (items 1–5), each on its
repro: a store records what it received only in the transaction that stores it; a copied or restored
store converges; scripted stores do not share uuids; text and tags merge separately; stores made by
export and import agree with their source about what is one version."""
import json
import os
import shutil
import subprocess

import pytest

from stores import dump, integrity, memo, moved_nothing, texts
from test_full_disk import small_disk  # noqa: F401 (a fixture: a 2 MiB tmpfs, skipped without root)


def assert_converged(binary, environment, *stores):
    first = dump(binary, environment, stores[0])
    for store in stores[1:]:
        assert dump(binary, environment, store) == first, f"{stores[0].name} and {store.name} differ"


def steps(binary, environment, *commands):
    """Runs each (store, command, arguments…) in order, as a user at a shell would."""
    for store, *arguments in commands:
        memo(binary, environment, store, *arguments)


def synced_pair(binary, environment, folder):
    """a and b, each with a memo of its own, synced once; then each gains one more."""
    a, b = folder / "a.sqlite", folder / "b.sqlite"
    steps(binary, environment, (a, "add", "a1"), (b, "add", "b1"), (a, "sync", b), (a, "add", "a2"), (b, "add", "b2"))
    return a, b


# Item 1: the peer records what this store has before this store has saved it.

def test_a_sync_that_fills_the_disk_is_completed_once_there_is_room(memo_binary, environment, small_disk, tmp_path):
    a, b = small_disk / "a.sqlite", tmp_path / "b.sqlite"  # a on the small disk
    memo(memo_binary, environment, a, "add", "a1")
    memo(memo_binary, environment, a, "sync", b)
    records = tmp_path / "records.jsonl"
    records.write_text("".join(json.dumps({"content": f"imported {n:04} " + "x" * 285}) + "\n" for n in range(3_000)))
    memo(memo_binary, environment, b, "import", records)
    memo(memo_binary, environment, a, "add", "a2")
    full = memo(memo_binary, environment, a, "sync", b, check=False)
    assert (full.returncode, full.stderr) == (3, "error: store failure: the disk is full\n")
    assert integrity(a) == "ok" and integrity(b) == "ok"
    subprocess.run(["mount", "-o", "remount,size=50m", str(small_disk)], check=True)
    memo(memo_binary, environment, a, "sync", b)
    assert len(texts(memo_binary, environment, a)) == 3_002, "the sync after the full disk did not bring b's memos"
    assert_converged(memo_binary, environment, a, b)
    assert moved_nothing(memo(memo_binary, environment, a, "sync", b).stdout)


def test_a_sync_killed_between_the_two_saves_is_completed_by_the_next(memo_binary, environment, tmp_path):
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed")
    a, b = synced_pair(memo_binary, environment, tmp_path)
    subprocess.run(["strace", "-f", "-o", "/dev/null", "-e", "trace=fdatasync",
                    "-e", "inject=fdatasync:signal=KILL:when=3", memo_binary, "--store", str(a), "sync", str(b)],
                   env=environment, capture_output=True)
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, a, "sync", b)
    assert texts(memo_binary, environment, a) == ["a1", "a2", "b1", "b2"]
    assert_converged(memo_binary, environment, a, b)


# Item 2: a copied or restored store file makes its peers skip changes for good.

def test_a_copied_store_converges_and_its_original_gets_what_the_copy_saw(memo_binary, environment, tmp_path):
    a, c, laptop = tmp_path / "a.sqlite", tmp_path / "c.sqlite", tmp_path / "laptop.sqlite"
    steps(memo_binary, environment, (a, "add", "first"), (a, "sync", c))
    shutil.copy(a, laptop)
    steps(memo_binary, environment, (c, "add", "written on C"), (laptop, "sync", c), (a, "sync", c), (a, "sync", c))
    assert texts(memo_binary, environment, a) == ["first", "written on C"]
    assert_converged(memo_binary, environment, a, c, laptop)


def test_a_store_restored_from_a_backup_gets_back_what_its_peer_holds(memo_binary, environment, tmp_path):
    a, c, backup = tmp_path / "a.sqlite", tmp_path / "c.sqlite", tmp_path / "backup.sqlite"
    steps(memo_binary, environment, (a, "add", "first"), (a, "sync", c))
    shutil.copy(a, backup)
    steps(memo_binary, environment, (c, "add", "from c"), (a, "sync", c))
    shutil.copy(backup, a)
    steps(memo_binary, environment, (a, "add", "after the restore"), (a, "sync", c), (a, "sync", c))
    assert texts(memo_binary, environment, a) == ["after the restore", "first", "from c"]
    assert_converged(memo_binary, environment, a, c)


# Item 3: scripted stores share "deterministic" uuids, so unrelated memos merge.

def scripted_stores(binary, environment, folder):
    a, b = folder / "a.sqlite", folder / "b.sqlite"
    (folder / "a.memo").write_text("add Alice: dentist\nadd Alice: rent\n")
    (folder / "b.memo").write_text("add Bob: milk\n")
    subprocess.run([binary, "run", "--store", str(a), str(folder / "a.memo")], env=environment, check=True, capture_output=True)
    subprocess.run([binary, "run", "--store", str(b), str(folder / "b.memo")], env=environment, check=True, capture_output=True)
    return a, b


def test_scripted_stores_sync_without_merging_unrelated_memos(memo_binary, environment, tmp_path):
    a, b = scripted_stores(memo_binary, environment, tmp_path)
    synced = memo(memo_binary, environment, a, "sync", b)
    assert "conflict" not in synced.stdout
    for store in (a, b):
        memos = dump(memo_binary, environment, store)
        assert sorted(memo["content"] for memo in memos) == ["Alice: dentist", "Alice: rent", "Bob: milk"]
        assert all(memo["tags"] == [] for memo in memos), f"{store.name} has a false @conflict memo"
    shown = json.loads(memo(memo_binary, environment, b, "--json", "show", "1").stdout)
    assert shown["content"] == "Bob: milk"


def test_scripted_stores_through_export_and_import_keep_every_memo(memo_binary, environment, tmp_path):
    a, b = scripted_stores(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, b, "export", tmp_path / "b.jsonl")
    imported = memo(memo_binary, environment, a, "import", tmp_path / "b.jsonl")
    assert imported.stdout.endswith(": 1 added, 0 updated, 0 skipped\n"), imported.stdout
    assert texts(memo_binary, environment, a) == ["Alice: dentist", "Alice: rent", "Bob: milk"]


# Item 4: concurrent tag changes are lost, and a tag change reverts a text edit.

def two_synced_memos(binary, environment, folder):
    a, b = folder / "a.sqlite", folder / "b.sqlite"
    memo(binary, environment, a, "add", "one")
    memo(binary, environment, a, "add", "two")
    memo(binary, environment, a, "sync", b)
    return a, b


def memo_with_uuid_of(binary, environment, store, memo_id):
    shown = json.loads(memo(binary, environment, store, "--json", "show", memo_id).stdout)
    return next(memo for memo in dump(binary, environment, store) if memo["uuid"] == shown["uuid"])


def test_tags_added_on_both_sides_both_stay(memo_binary, environment, tmp_path):
    a, b = two_synced_memos(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, a, "tag", "1", "work")
    memo(memo_binary, environment, b, "tag", "1", "home")
    memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert memo_with_uuid_of(memo_binary, environment, store, "1")["tags"] == ["home", "work"], store.name
    assert_converged(memo_binary, environment, a, b)


def test_a_tag_removed_on_one_side_and_untouched_on_the_other_goes(memo_binary, environment, tmp_path):
    a, b = two_synced_memos(memo_binary, environment, tmp_path)
    steps(memo_binary, environment, (a, "tag", "1", "old"), (a, "sync", b),
          (a, "untag", "1", "old"), (b, "tag", "1", "new"), (a, "sync", b))
    for store in (a, b):
        assert memo_with_uuid_of(memo_binary, environment, store, "1")["tags"] == ["new"], store.name
    assert_converged(memo_binary, environment, a, b)


def test_a_tag_change_never_reverts_a_text_edit(memo_binary, environment, tmp_path):
    a, b = two_synced_memos(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, a, "edit", "2", "two, edited on a")
    memo(memo_binary, environment, b, "tag", "2", "important")
    synced = memo(memo_binary, environment, a, "sync", b)
    assert "conflict" not in synced.stdout
    for store in (a, b):
        memos = dump(memo_binary, environment, store)
        assert sorted((memo["content"], memo["tags"]) for memo in memos) == [
            ("one", []), ("two, edited on a", ["important"])], store.name


def test_bringing_back_a_deleted_memo_keeps_the_tags_added_elsewhere(memo_binary, environment, tmp_path):
    # A delete removes a memo, not its tags: undoing the sync that brought b's delete brings
    # the memo back on a, and the tag b added before deleting it comes back with it.
    a, b = two_synced_memos(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, b, "tag", "1", "urgent")
    memo(memo_binary, environment, b, "delete", "1")
    memo(memo_binary, environment, a, "sync", b)
    assert texts(memo_binary, environment, a) == ["two"]
    memo(memo_binary, environment, a, "undo", "--sync")
    memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert sorted((memo["content"], memo["tags"]) for memo in dump(memo_binary, environment, store)) == [
            ("one", ["urgent"]), ("two", [])], store.name


def id_of(binary, environment, store, content):
    lines = memo(binary, environment, store, "--json", "list").stdout.splitlines()
    return next(json.loads(line)["id"] for line in lines if json.loads(line)["content"] == content)


def contents_and_tags(binary, environment, store):
    return sorted((memo["content"], memo["tags"]) for memo in dump(binary, environment, store))


def test_a_tag_change_beside_an_edit_and_a_delete_keeps_the_newer_text(memo_binary, environment, tmp_path):
    # a edits the memo, then deletes it; b untags it meanwhile: the untag keeps the memo alive,
    # and text merges apart from tags, so it lives on with a's text, not the older one.
    a, b = two_synced_memos(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, a, "tag", "1", "later")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, a, "edit", "1", "one, edited on a")
    memo(memo_binary, environment, a, "delete", "1")
    memo(memo_binary, environment, b, "untag", "1", "later")
    memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert contents_and_tags(memo_binary, environment, store) == [("one, edited on a", []), ("two", [])], store.name
    assert moved_nothing(memo(memo_binary, environment, a, "sync", b).stdout)


def test_undoing_a_sync_keeps_the_newer_add_of_a_tag_it_leaves(memo_binary, environment, tmp_path):
    # b removes a tag and adds it again; a takes the new add by a sync, then undoes the sync: the
    # tag is there before and after, and stays the new add, which c (that saw only the removal,
    # and changes the tags meanwhile) does not remove.
    a, b = two_synced_memos(memo_binary, environment, tmp_path)
    c = tmp_path / "c.sqlite"
    memo(memo_binary, environment, a, "tag", "1", "work")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, b, "untag", "1", "work")
    memo(memo_binary, environment, b, "sync", c)
    memo(memo_binary, environment, b, "tag", "1", "work")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, a, "undo", "--sync")
    memo(memo_binary, environment, c, "tag", id_of(memo_binary, environment, c, "one"), "home")
    for first, second in ((a, c), (a, b), (b, c), (a, c)):
        memo(memo_binary, environment, first, "sync", second)
    for store in (a, b, c):
        assert contents_and_tags(memo_binary, environment, store) == [("one", ["home", "work"]), ("two", [])], store.name


def test_a_memo_that_outlives_a_delete_remembers_what_the_delete_removed(memo_binary, environment, tmp_path):
    # a deletes b's edit; c's concurrent edit keeps the memo alive. b's edit, which the delete
    # saw, does not come back when b syncs later, not even as a conflict copy.
    a, b = two_synced_memos(memo_binary, environment, tmp_path)
    c = tmp_path / "c.sqlite"
    memo(memo_binary, environment, a, "sync", c)
    memo(memo_binary, environment, b, "edit", "1", "one, edited on b")
    memo(memo_binary, environment, b, "sync", a)
    memo(memo_binary, environment, a, "delete", "1")
    memo(memo_binary, environment, c, "edit", id_of(memo_binary, environment, c, "one"), "one, edited on c")
    memo(memo_binary, environment, a, "sync", c)
    synced = memo(memo_binary, environment, b, "sync", a)
    assert "conflict" not in synced.stdout
    memo(memo_binary, environment, b, "sync", c)
    for store in (a, b, c):
        assert contents_and_tags(memo_binary, environment, store) == [("one, edited on c", []), ("two", [])], store.name


# Item 5: stores made by export→import disagree about what is one version.

def exported_and_imported(binary, environment, folder):
    a, b = folder / "a.sqlite", folder / "b.sqlite"
    memo(binary, environment, a, "add", "one")
    memo(binary, environment, a, "add", "two @t")
    memo(binary, environment, a, "edit", "1", "one, edited")
    memo(binary, environment, a, "export", folder / "all.jsonl")
    memo(binary, environment, b, "import", folder / "all.jsonl")
    return a, b


def test_a_delete_on_an_imported_copy_stays_deleted(memo_binary, environment, tmp_path):
    a, b = exported_and_imported(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, b, "delete", "2")
    memo(memo_binary, environment, a, "sync", b)
    assert texts(memo_binary, environment, b) == ["one, edited"]
    assert_converged(memo_binary, environment, a, b)


def test_an_edit_on_an_imported_copy_makes_no_conflict(memo_binary, environment, tmp_path):
    a, b = exported_and_imported(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, b, "edit", "1", "one, edited on b")
    synced = memo(memo_binary, environment, a, "sync", b)
    assert "conflict" not in synced.stdout
    assert texts(memo_binary, environment, a) == ["one, edited on b", "two @t"]
    assert_converged(memo_binary, environment, a, b)


def test_a_tag_set_made_by_a_merge_is_one_version_with_its_imported_copy(memo_binary, environment, tmp_path):
    a, b = two_synced_memos(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, a, "tag", "1", "one")
    memo(memo_binary, environment, b, "tag", "1", "two")
    memo(memo_binary, environment, a, "sync", b)
    c = tmp_path / "c.sqlite"
    memo(memo_binary, environment, b, "export", tmp_path / "merged.jsonl")
    memo(memo_binary, environment, c, "import", tmp_path / "merged.jsonl")
    memo(memo_binary, environment, a, "untag", "1", "one")
    memo(memo_binary, environment, a, "sync", c)
    uuid = memo_with_uuid_of(memo_binary, environment, a, "1")["uuid"]
    for store in (a, c):
        assert next(m for m in dump(memo_binary, environment, store) if m["uuid"] == uuid)["tags"] == ["two"], store.name
    assert_converged(memo_binary, environment, a, c)


def exported_after_syncing(binary, environment, folder):
    """a, which synced with z and then changed, exported and imported into b: the copy holds
    a's versions, which name a's own changes, not only the state."""
    a, b, z = folder / "a.sqlite", folder / "b.sqlite", folder / "z.sqlite"
    steps(binary, environment, (a, "add", "one"), (a, "add", "two"), (a, "sync", z),
          (a, "edit", "1", "one, edited"), (a, "tag", "2", "work"), (a, "sync", z))
    return a, b


@pytest.mark.parametrize("suffix", [".jsonl", ".json", ".md"])
def test_changes_on_the_imported_copy_of_a_store_that_synced_win(memo_binary, environment, tmp_path, suffix):
    a, b = exported_after_syncing(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, a, "export", tmp_path / f"all{suffix}")
    memo(memo_binary, environment, b, "import", tmp_path / f"all{suffix}")
    memo(memo_binary, environment, b, "edit", "1", "one, edited on b")
    memo(memo_binary, environment, b, "untag", "2", "work")
    synced = memo(memo_binary, environment, a, "sync", b)
    assert "conflict" not in synced.stdout
    for store in (a, b):
        assert contents_and_tags(memo_binary, environment, store) == [("one, edited on b", []), ("two", [])], store.name
    memo(memo_binary, environment, b, "delete", "2")
    memo(memo_binary, environment, a, "sync", b)
    assert texts(memo_binary, environment, a) == ["one, edited on b"]


def test_an_import_edited_by_hand_is_a_version_of_its_own(memo_binary, environment, tmp_path):
    # The export's `sync` member describes the record it came with: a record whose text was
    # edited in the file is not that version, and meets the source's as a concurrent one.
    a, b = exported_after_syncing(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, a, "export", tmp_path / "all.jsonl")
    records = [json.loads(line) for line in (tmp_path / "all.jsonl").read_text().splitlines()]
    assert all("sync" in record for record in records)
    records[0]["content"] = "one, edited in the file"
    (tmp_path / "all.jsonl").write_text("".join(json.dumps(record) + "\n" for record in records))
    memo(memo_binary, environment, b, "import", tmp_path / "all.jsonl")
    synced = memo(memo_binary, environment, a, "sync", b)
    assert "1 conflict" in synced.stdout
    for store in (a, b):
        assert sorted(texts(memo_binary, environment, store)) == ["one, edited", "one, edited in the file", "two"], store.name


# Found by trying to break sync as a user would: copies of a store that never synced.

def assert_synced_without_conflict(binary, environment, here, there, expected):
    """`here` syncs with `there`: no conflict, and both then hold exactly the texts `expected`."""
    synced = memo(binary, environment, here, "sync", there)
    assert "conflict" not in synced.stdout
    for store in (here, there):
        assert texts(binary, environment, store) == expected, store.name


@pytest.mark.parametrize("copy", ["export", "cp"])
def test_an_edit_after_copying_a_store_that_never_synced_is_newer_than_the_copy(memo_binary, environment, tmp_path, copy):
    a, c = tmp_path / "a.sqlite", tmp_path / "c.sqlite"
    memo(memo_binary, environment, a, "add", "x1")
    if copy == "export":
        memo(memo_binary, environment, a, "export", tmp_path / "a.jsonl")
        memo(memo_binary, environment, c, "import", tmp_path / "a.jsonl")
    else:
        shutil.copy(a, c)
    memo(memo_binary, environment, a, "edit", "1", "x1, edited")
    assert_synced_without_conflict(memo_binary, environment, c, a, ["x1, edited"])


def test_an_older_export_imported_elsewhere_never_wins_over_the_edit_made_after_it(memo_binary, environment, tmp_path):
    a, c = tmp_path / "a.sqlite", tmp_path / "c.sqlite"
    memo(memo_binary, environment, a, "add", "x1")
    memo(memo_binary, environment, a, "export", tmp_path / "a.jsonl")
    memo(memo_binary, environment, a, "edit", "1", "x1, edited")
    memo(memo_binary, environment, c, "import", tmp_path / "a.jsonl")
    assert_synced_without_conflict(memo_binary, environment, a, c, ["x1, edited"])


@pytest.mark.parametrize("deletion", [["delete", "1"], ["undo"], ["run", "-"]])
def test_a_memo_deleted_after_copying_a_store_that_never_synced_stays_deleted(memo_binary, environment, tmp_path, deletion):
    # A delete, the undo of an add, a batch: each change that may delete memos leaves a
    # tombstone, even in a store that keeps no versions yet.
    a, c = tmp_path / "a.sqlite", tmp_path / "c.sqlite"
    memo(memo_binary, environment, a, "add", "x1")
    shutil.copy(a, c)
    subprocess.run([memo_binary, "--store", str(a)] + deletion, input="begin\ndelete 1\nsave\n",
                   env=environment, capture_output=True, text=True, check=True)
    memo(memo_binary, environment, c, "sync", a)
    for store in (a, c):
        assert texts(memo_binary, environment, store) == [], store.name


def test_a_tag_removed_after_copying_a_store_that_never_synced_stays_removed(memo_binary, environment, tmp_path):
    a, c = tmp_path / "a.sqlite", tmp_path / "c.sqlite"
    memo(memo_binary, environment, a, "add", "--tag", "t", "x1")
    shutil.copy(a, c)
    memo(memo_binary, environment, a, "untag", "1", "t")
    memo(memo_binary, environment, c, "sync", a)
    for store in (a, c):
        assert contents_and_tags(memo_binary, environment, store) == [("x1", [])], store.name


def test_a_memo_imported_again_after_a_synced_delete_stays(memo_binary, environment, tmp_path):
    # A backup imported after a delete brings the memo back: the import is newer than the delete.
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    memo(memo_binary, environment, a, "add", "keep me")
    memo(memo_binary, environment, a, "export", tmp_path / "backup.jsonl")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, a, "delete", "1")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, a, "import", tmp_path / "backup.jsonl")
    memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert texts(memo_binary, environment, store) == ["keep me"], store.name


def test_an_untag_beside_a_delete_keeps_the_memo_without_the_tag(memo_binary, environment, tmp_path):
    a, b = two_synced_memos(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, a, "tag", "1", "t")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, a, "delete", "1")
    memo(memo_binary, environment, b, "untag", "1", "t")
    memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert contents_and_tags(memo_binary, environment, store) == [("one", []), ("two", [])], store.name


def test_a_sync_with_the_store_itself_is_refused_before_it_creates_anything(memo_binary, environment, tmp_path):
    folder = tmp_path / "stores"
    folder.mkdir()
    store = folder / "a.sqlite"
    memo(memo_binary, environment, store, "add", "x")
    os.link(store, folder / "hard.sqlite")
    for name in ("sub/../a.sqlite", "hard.sqlite"):
        result = subprocess.run([memo_binary, "--store", str(store), "sync", name], cwd=folder, env=environment,
                                capture_output=True, text=True)
        assert result.returncode == 1 and "this store's own file" in result.stderr, (name, result)
    assert sorted(path.name for path in folder.iterdir()) == ["a.sqlite", "hard.sqlite"]


# Found by the model checker's longer runs: what keeps a memo alive after it outlived a delete.

def three_synced(binary, environment, folder):
    a, b, c = folder / "a.sqlite", folder / "b.sqlite", folder / "c.sqlite"
    memo(binary, environment, a, "add", "x")
    memo(binary, environment, a, "sync", b)
    memo(binary, environment, a, "sync", c)
    return a, b, c


def test_a_memo_that_outlived_a_delete_is_deleted_by_one_that_saw_what_kept_it(memo_binary, environment, tmp_path):
    # c untags and deletes; b edits meanwhile, and a deletes after seeing b's edit. The edit kept
    # the memo alive against c's delete, and a's delete saw the edit: the memo goes.
    a, b, c = three_synced(memo_binary, environment, tmp_path)
    memo(memo_binary, environment, a, "tag", "1", "t")
    for store in (b, c):
        memo(memo_binary, environment, a, "sync", store)
    memo(memo_binary, environment, c, "untag", "1", "t")
    memo(memo_binary, environment, c, "delete", "1")
    memo(memo_binary, environment, b, "edit", "1", "x, edited on b")
    memo(memo_binary, environment, b, "sync", a)
    memo(memo_binary, environment, a, "delete", "1")
    memo(memo_binary, environment, c, "sync", b)
    for first, second in ((a, b), (b, c), (a, c)):
        memo(memo_binary, environment, first, "sync", second)
    for store in (a, b, c):
        assert texts(memo_binary, environment, store) == [], store.name


def test_a_tag_removed_after_outliving_a_delete_stays_removed(memo_binary, environment, tmp_path):
    # c adds @home (d gets that add) and deletes; b adds @home too, which keeps the memo alive,
    # then removes it having seen c's add through the merge: d's copy of the add is old news.
    a, b, c = three_synced(memo_binary, environment, tmp_path)
    d = tmp_path / "d.sqlite"
    memo(memo_binary, environment, c, "tag", "1", "home")
    memo(memo_binary, environment, c, "sync", d)
    memo(memo_binary, environment, c, "delete", "1")
    memo(memo_binary, environment, b, "tag", "1", "home")
    memo(memo_binary, environment, b, "sync", c)
    memo(memo_binary, environment, b, "untag", "1", "home")
    memo(memo_binary, environment, b, "sync", d)
    for first, second in ((a, b), (b, c), (c, d), (a, d)):
        memo(memo_binary, environment, first, "sync", second)
    for store in (a, b, c, d):
        assert contents_and_tags(memo_binary, environment, store) == [("x", [])], store.name


def test_undoing_a_sync_that_left_a_memo_as_it_was_does_not_keep_it_from_a_delete(memo_binary, environment, tmp_path):
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    memo(memo_binary, environment, a, "add", "x")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, b, "edit", "1", "x, for a moment")
    memo(memo_binary, environment, b, "undo")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, a, "undo", "--sync")
    memo(memo_binary, environment, b, "delete", "1")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert texts(memo_binary, environment, store) == [], store.name


# Issue 36, item 13: an undo after a sync never deletes a text typed elsewhere.

def conflicting_edits_synced(binary, environment, folder):
    """a and b edit one memo apart, then sync: b's later text wins, a's is a @conflict copy on both."""
    a, b = folder / "a.sqlite", folder / "b.sqlite"
    steps(binary, environment, (a, "add", "base"), (a, "sync", b),
          (a, "edit", "1", "typed on laptop A"), (b, "edit", "1", "typed on desktop B"), (a, "sync", b))
    return a, b


def test_a_plain_undo_after_a_sync_refuses_and_names_undo_sync(memo_binary, environment, tmp_path):
    a, b = conflicting_edits_synced(memo_binary, environment, tmp_path)
    refused = memo(memo_binary, environment, b, "undo", check=False)
    assert refused.returncode == 1
    assert "a plain 'undo' does not take back a sync: 'undo --sync' does" in refused.stderr
    assert "(sync with " in refused.stderr
    memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert sorted(texts(memo_binary, environment, store)) == ["typed on desktop B", "typed on laptop A"], store.name


def test_undoing_a_sync_on_purpose_keeps_its_conflict_copy_everywhere(memo_binary, environment, tmp_path):
    # The repro: the @conflict copy was the only holder of a's text on b; undoing b's sync
    # removed it there, and the next sync removed it from a.
    a, b = conflicting_edits_synced(memo_binary, environment, tmp_path)
    undone = memo(memo_binary, environment, b, "undo", "--sync").stdout
    assert "1 memo it added kept" in undone and "the next sync with " in undone
    memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert sorted(texts(memo_binary, environment, store)) == ["typed on desktop B", "typed on laptop A"], store.name
    assert_converged(memo_binary, environment, a, b)


def test_undoing_a_sync_keeps_the_text_it_brought_and_puts_back_what_it_deleted(memo_binary, environment, tmp_path):
    # The sync brought b's edit of one memo and b's delete of another: undone, a keeps b's text
    # (the only copy there may be, see below) and has the deleted memo back, which the next
    # sync brings back to b too.
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    memo(memo_binary, environment, a, "add", "the old text")
    memo(memo_binary, environment, a, "add", "deleted on b")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, b, "edit", "1", "typed on b")
    memo(memo_binary, environment, b, "delete", "2")
    memo(memo_binary, environment, a, "sync", b)
    undone = json.loads(memo(memo_binary, environment, a, "--json", "undo", "--sync").stdout)
    assert (undone["kind"], undone["putBack"], undone["kept"], undone["undone"]) == ("sync", 2, 0, True)
    assert undone["peer"] == str(b)
    assert sorted(texts(memo_binary, environment, a)) == ["deleted on b", "typed on b"]
    memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert sorted(texts(memo_binary, environment, store)) == ["deleted on b", "typed on b"], store.name


def test_undoing_a_sync_keeps_a_text_the_peer_no_longer_holds(memo_binary, environment, tmp_path):
    # Model-checker seed 66: b's text reached a by a sync, then b was put back from a backup
    # taken before it; undoing a's sync put back a's old text, and b's was gone everywhere.
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    memo(memo_binary, environment, a, "add", "the old text")
    memo(memo_binary, environment, a, "sync", b)
    shutil.copyfile(b, tmp_path / "b.backup")
    memo(memo_binary, environment, b, "edit", "1", "typed on b")
    memo(memo_binary, environment, a, "sync", b)
    shutil.copyfile(tmp_path / "b.backup", b)
    memo(memo_binary, environment, a, "undo", "--sync")
    for _ in range(2):
        memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert "typed on b" in texts(memo_binary, environment, store), store.name


def test_undoing_a_sync_keeps_the_memos_it_brought(memo_binary, environment, tmp_path):
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    steps(memo_binary, environment, (a, "add", "mine"), (b, "add", "theirs"), (a, "sync", b), (a, "undo", "--sync"),
          (a, "sync", b))
    for store in (a, b):
        assert sorted(texts(memo_binary, environment, store)) == ["mine", "theirs"], store.name


def test_undo_sync_without_a_sync_says_so(memo_binary, environment, tmp_path):
    a = tmp_path / "a.sqlite"
    memo(memo_binary, environment, a, "add", "x")
    refused = memo(memo_binary, environment, a, "undo", "--sync", check=False)
    assert (refused.returncode, refused.stderr.strip()) == (1, "error: no sync to undo")
    assert texts(memo_binary, environment, a) == ["x"]


# Issue 36, item 16 (model-checker seed 21): a restoring change has a version of its own.

@pytest.mark.parametrize("copied", [False, True])
def test_an_undone_delete_in_a_store_that_never_synced_outlives_a_delete_of_an_imported_copy(
        memo_binary, environment, tmp_path, copied):
    # b imports a's export (named by its state) and deletes it; a (or a copy of a: cp of a store
    # that never synced) deletes the memo and undoes that. Named by its state at its first sync,
    # the memo brought back was the version b's delete had seen, and the delete removed it again.
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    memo(memo_binary, environment, a, "add", "x")
    memo(memo_binary, environment, a, "export", tmp_path / "a.jsonl")
    memo(memo_binary, environment, b, "import", tmp_path / "a.jsonl")
    memo(memo_binary, environment, b, "delete", "1")
    if copied:
        shutil.copyfile(a, tmp_path / "c.sqlite")
        a = tmp_path / "c.sqlite"
    memo(memo_binary, environment, a, "delete", "1")
    memo(memo_binary, environment, a, "undo")
    memo(memo_binary, environment, a, "sync", b)
    memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert texts(memo_binary, environment, store) == ["x"], store.name


def test_a_memo_deleted_elsewhere_without_a_restore_here_stays_deleted(memo_binary, environment, tmp_path):
    # The other half of the rule: a memo a never touched is the very version b's delete saw.
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    memo(memo_binary, environment, a, "add", "x")
    memo(memo_binary, environment, a, "export", tmp_path / "a.jsonl")
    memo(memo_binary, environment, b, "import", tmp_path / "a.jsonl")
    memo(memo_binary, environment, b, "delete", "1")
    memo(memo_binary, environment, a, "sync", b)
    for store in (a, b):
        assert texts(memo_binary, environment, store) == [], store.name


def test_undo_sync_on_a_terminal_says_what_it_will_do_and_asks_first(memo_binary, environment, tmp_path):
    import pexpect
    a, b = conflicting_edits_synced(memo_binary, environment, tmp_path)
    before = dump(memo_binary, environment, b)

    def answered(answer, reply):
        """Runs `undo --sync` on a terminal, waits for its question, answers; its exit status."""
        child = pexpect.spawn(memo_binary, ["--store", str(b), "undo", "--sync"], env=environment, encoding="utf-8",
                              timeout=20, dimensions=(40, 200))
        child.expect_exact("undo change ")
        child.expect_exact(f"(sync with {a})? Of the 1 memo it changed here, it brings back what it deleted and puts back "
                           f"their tags; it keeps every text it brought and the 1 memo it added; the next sync with {a} "
                           "keeps both sides")
        child.expect_exact("[y/N] ")
        child.send(answer + "\r")
        child.expect_exact(reply)
        child.expect(pexpect.EOF)
        child.close()
        return child.exitstatus

    assert answered("n", "nothing undone") == 0
    assert dump(memo_binary, environment, b) == before, "a 'no' changes nothing"
    assert answered("y", "undid change ") == 0
    history = json.loads(memo(memo_binary, environment, b, "--json", "history", "-n", "1").stdout)
    assert (history["kind"], history["target"] is not None) == ("undo", True)

    # Piped (no terminal): nobody to ask, so it goes ahead, as scripts and the server do.
    memo(memo_binary, environment, b, "redo")
    piped = subprocess.run([memo_binary, "--store", str(b), "undo", "--sync"], env=environment, input="",
                           capture_output=True, text=True)
    assert piped.returncode == 0 and piped.stdout.startswith("undid change ") and "[y/N]" not in piped.stderr


def test_undo_sync_in_the_repl_asks_first(memo_binary, environment, tmp_path):
    import pexpect
    a, b = conflicting_edits_synced(memo_binary, environment, tmp_path)
    child = pexpect.spawn(memo_binary, ["--store", str(b)], env=environment, encoding="utf-8", timeout=20, dimensions=(40, 250))
    child.expect_exact("memo> ")
    memo(memo_binary, environment, a, "edit", "1", "typed on laptop A again")
    child.send(f"sync {a}\r")
    child.expect_exact("1 received")
    child.expect_exact("memo> ")
    child.send("undo\r")  # the session's own latest change is the sync
    child.expect_exact("'undo --sync' does")
    child.expect_exact("memo> ")
    child.send("undo --sync\r")
    child.expect_exact("[y/N] ")
    child.send("y\r")
    child.expect_exact("1 memo it changed put back (the texts it brought kept), 0 memos it added kept")
    child.expect_exact("memo> ")
    child.send("redo\r")
    child.expect_exact("redid change ")
    child.expect_exact("memo> ")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)


def test_a_tag_from_before_the_first_sync_removed_elsewhere_stays_removed_beside_a_new_tag(memo_binary, environment, tmp_path):
    # Found by the model checker with undos of syncs: at a store's first sync, its tags took as
    # their dot the name of every memo's tags at once (an inner memo_tag shadowed the outer one),
    # a dot no version counted, so b's removal of @urgent lost to a's concurrent tag change.
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    steps(memo_binary, environment, (a, "add", "one"), (a, "add", "two"), (a, "tag", "1", "urgent"), (a, "tag", "2", "home"),
          (a, "sync", b), (b, "untag", "1", "urgent"), (a, "tag", "1", "work"), (a, "sync", b))
    for store in (a, b):
        assert contents_and_tags(memo_binary, environment, store) == [("one", ["work"]), ("two", ["home"])], store.name
