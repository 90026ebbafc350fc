"""Stable references on the command line (docs/REFERENCE.md, Links): two stores synced through
a file, where a memo's id differs, read and resolve each reference to the same memo."""
import json
import subprocess


def memo(memo_binary, environment, store, *arguments, check=True):
    return subprocess.run([memo_binary, "--store", str(store)] + list(arguments), env=environment,
                          capture_output=True, text=True, check=check)


def text(memo_binary, environment, store, *arguments):
    return memo(memo_binary, environment, store, *arguments).stdout


def shown(memo_binary, environment, store, memo_id):
    return json.loads(text(memo_binary, environment, store, "--json", "show", str(memo_id)))


def two_stores(memo_binary, environment, tmp_path):
    """X has Alpha as #1 and a memo citing it as "#1" and by its handle; Y has a memo of its
    own, then syncs with X: there Alpha is #2 and the citing memo #3."""
    x, y = tmp_path / "x.sqlite", tmp_path / "y.sqlite"
    text(memo_binary, environment, x, "add", "Alpha")
    # Eight digits tell two random uuids apart: the shortest handle `show` gives.
    handle = "memo:" + shown(memo_binary, environment, x, 1)["uuid"][:8]
    text(memo_binary, environment, x, "add", f"see #1 and see {handle}")
    text(memo_binary, environment, y, "add", "Y's own")
    text(memo_binary, environment, y, "sync", str(x))
    return x, y, handle


def test_the_other_store_reads_each_link_by_its_id_there(memo_binary, environment, tmp_path):
    x, y, handle = two_stores(memo_binary, environment, tmp_path)
    alpha = shown(memo_binary, environment, x, 1)
    assert shown(memo_binary, environment, y, 2)["uuid"] == alpha["uuid"]

    readable = f"see #2 and see {handle}"
    assert text(memo_binary, environment, y, "show", "3").endswith("\n" + readable + "\n")
    assert "→ #2 Alpha" in text(memo_binary, environment, y, "show", "3")
    listed = [line for line in text(memo_binary, environment, y, "list").splitlines() if line.startswith("#3 ")]
    assert len(listed) == 1 and listed[0].endswith("  " + readable)
    assert f'3 [label="#3 {readable}"];' in text(memo_binary, environment, y, "graph")
    # The stored text is what was written, on both machines, and X reads it so.
    assert shown(memo_binary, environment, y, 3)["content"] == f"see #1 and see {handle}"
    assert text(memo_binary, environment, x, "show", "2").endswith(f"\nsee #1 and see {handle}\n")
    assert alpha["handle"] == handle and f"\nhandle:   {handle}\n" in text(memo_binary, environment, y, "show", "2")


def test_both_stores_resolve_each_reference_to_the_same_memo(memo_binary, environment, tmp_path):
    x, y, handle = two_stores(memo_binary, environment, tmp_path)
    alpha = shown(memo_binary, environment, x, 1)["uuid"]
    on_x, on_y = shown(memo_binary, environment, x, 2)["links"], shown(memo_binary, environment, y, 3)["links"]
    assert [link["uuid"] for link in on_x] == [alpha, alpha]
    assert [link["uuid"] for link in on_y] == [alpha, alpha]
    assert [link["id"] for link in on_x] == [1, 1] and [link["id"] for link in on_y] == [2, 2]
    # The handle names Alpha on both as an argument too.
    assert shown(memo_binary, environment, x, handle)["uuid"] == alpha
    assert shown(memo_binary, environment, y, handle)["uuid"] == alpha
    assert shown(memo_binary, environment, y, "memo:" + alpha)["id"] == 2
    assert text(memo_binary, environment, y, "list", "--links-to", handle, "--ids") == "3\n"


def test_a_deleted_target_is_never_named_by_another_memos_number(memo_binary, environment, tmp_path):
    _, y, handle = two_stores(memo_binary, environment, tmp_path)
    text(memo_binary, environment, y, "delete", "2")
    show = text(memo_binary, environment, y, "show", "3")
    assert f"links:    → {handle} Alpha (deleted)\n" in show
    assert "#1" not in show, "#1 is Y's own memo here"
    assert show.endswith(f"\nsee {handle} and see {handle}\n")
    links = shown(memo_binary, environment, y, 3)["links"]
    assert [(link["reference"], link["id"]) for link in links] == [("#1", None), (handle, None)]


def test_a_handle_several_memos_share_is_refused_naming_them(memo_binary, environment, tmp_path):
    records = tmp_path / "twins.jsonl"
    records.write_text('{"uuid":"abcdef01-2345-4000-8000-000000000001","content":"first twin"}\n'
                       '{"uuid":"abcdef01-2399-4000-8000-000000000002","content":"second twin"}\n')
    store = tmp_path / "store.sqlite"
    text(memo_binary, environment, store, "import", str(records))
    result = memo(memo_binary, environment, store, "delete", "memo:abcdef01", check=False)
    assert result.returncode == 1
    assert result.stderr.strip().endswith(
        "memo:abcdef01 names several memos: #1 (memo:abcdef01234) first twin, #2 (memo:abcdef01239) second twin")
    assert text(memo_binary, environment, store, "count") == "2\n"


def test_an_imports_links_follow_a_record_added_under_a_new_uuid(memo_binary, environment, tmp_path):
    """A record whose uuid names an unrelated memo here is added under a uuid of its own; the
    file's link to it, from a record before it, leads to it, not to the unrelated memo."""
    store, taken = tmp_path / "ur.sqlite", "77777777-aaaa-4111-8111-000000000001"
    local, foreign = tmp_path / "local.jsonl", tmp_path / "foreign.jsonl"
    local.write_text(json.dumps({"uuid": taken, "content": "Local unrelated"}) + "\n")
    text(memo_binary, environment, store, "import", str(local))
    foreign.write_text("\n".join(json.dumps(record) for record in [
        {"uuid": "88888888-aaaa-4111-8111-000000000001", "content": "Foreign ref #1",
         "insertDate": "2024-05-06T00:00:00.000Z", "links": [{"start": 12, "length": 2, "uuid": taken}]},
        {"uuid": taken, "content": "Foreign target", "insertDate": "2024-05-05T00:00:00.000Z"},
    ]) + "\n")
    assert "2 added (1 under a new uuid" in text(memo_binary, environment, store, "import", str(foreign))
    shown_ref = text(memo_binary, environment, store, "show", "2")
    assert "links:    → #3 Foreign target\n" in shown_ref
    assert shown_ref.endswith("\nForeign ref #3\n")
    assert text(memo_binary, environment, store, "list", "--links-to", "1") == ""


def test_a_malformed_links_member_fails_the_import_at_its_line(memo_binary, environment, tmp_path):
    store, bad = tmp_path / "ml.sqlite", tmp_path / "ml.jsonl"
    for number in range(1, 10):
        text(memo_binary, environment, store, "add", f"filler {number}")
    bad.write_text(json.dumps({"content": "see #9 a"}) + "\n"
                   + json.dumps({"content": "see #9 b", "links": [{"start": -1, "length": 2, "uuid": "zz"}]}) + "\n")
    result = memo(memo_binary, environment, store, "import", str(bad), check=False)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f'{bad}:2: error: "links" item 1: "start" must be a whole number of bytes, 0 or more\n'
    assert text(memo_binary, environment, store, "count") == "9\n"
