"""Links only where someone wrote one: texts imported from other programs (jrnl written and
exported by the real jrnl, a zk note folder, JSON Lines without memo's `links`) make no link
from "Rule #1", "issue #2" or "#1 SMP", through later edits too; and a store an earlier memo
filled so (every bare `#N` a link) is cleaned with `memo links --check` / `--unlink`, undoably,
on every face."""
import json
import sqlite3
import subprocess

from test_imports import Jrnl, write
from test_server import initialize, serve

TEXTS = ["Rule #1: never panic", "fixed in issue #2", "Linux 5.10 #1 SMP Debian"]


def memo(binary, environment, store, *arguments, check=True):
    return subprocess.run([binary, "--store", str(store)] + [str(a) for a in arguments], env=environment,
                          capture_output=True, text=True, check=check, timeout=120)


def store_with_targets(binary, environment, path):
    memo(binary, environment, path, "add", "first memo")
    memo(binary, environment, path, "add", "second memo")
    return path


def foreign_sources(tmp_path, paris):
    jrnl = Jrnl(tmp_path / "jrnl")
    for day, text in enumerate(TEXTS, start=1):
        jrnl.write(f"2024-03-0{day} 09:00: Entry {day}. {text}")
    notes = tmp_path / "notes"
    for index, text in enumerate(TEXTS):
        write(notes / f"note{index}.md", f"---\ndate: 2024-03-0{index + 1} 09:00\n---\n\n# Note {index}\n\n{text}\n")
    plain = tmp_path / "plain.jsonl"
    plain.write_text("".join(json.dumps({"content": text}) + "\n" for text in TEXTS))
    return {"jrnl": jrnl.export(tmp_path / "export.json"), "zk": notes, "jsonl": plain}


def test_foreign_texts_make_no_links_and_edits_keep_them_words(memo_binary, environment, tmp_path):
    paris = dict(environment, TZ="Europe/Paris")
    for name, source in foreign_sources(tmp_path, paris).items():
        store = store_with_targets(memo_binary, paris, tmp_path / f"{name}.sqlite")
        memo(memo_binary, paris, store, "import", source)
        for memo_id in (3, 4, 5):
            assert "→" not in memo(memo_binary, paris, store, "show", memo_id).stdout, name
        orphans = memo(memo_binary, paris, store, "list", "--orphan", "--ids").stdout.split()
        assert sorted(orphans, key=int) == ["1", "2", "3", "4", "5"], name
        assert "->" not in memo(memo_binary, paris, store, "graph").stdout, name
        assert memo(memo_binary, paris, store, "links", "--check").stdout == "", name
        listed = memo(memo_binary, paris, store, "links").stdout
        assert listed.count("→ (none)") == 3, (name, listed)
        rule = next(m for m in (json.loads(line) for line in
                                memo(memo_binary, paris, store, "--json", "list").stdout.splitlines())
                    if "Rule #1" in m["content"])
        memo(memo_binary, paris, store, "edit", rule["id"], rule["content"].replace("never", "do not"))
        assert memo(memo_binary, paris, store, "list", "--links-to", "1").stdout == "", name


def earlier_memos_links(store):
    """What an earlier memo's import made of the same texts: every bare `#N` a link to the
    memo with that id (the link index, written as it wrote it)."""
    with sqlite3.connect(store) as database:
        database.execute("""
            UPDATE memo_link SET target_uuid = (
                SELECT uuid FROM memo t WHERE t.id = CAST(substr(CAST((SELECT content FROM memo m WHERE m.id = memo_link.memo_id)
                                                                     AS BLOB), start + 2, length - 1) AS TEXT))""")


def test_links_check_and_unlink_clean_a_store_an_earlier_import_linked(memo_binary, environment, tmp_path):
    source = tmp_path / "plain.jsonl"
    source.write_text("".join(json.dumps({"content": text}) + "\n" for text in TEXTS))
    store = store_with_targets(memo_binary, environment, tmp_path / "old.sqlite")
    memo(memo_binary, environment, store, "import", source)
    memo(memo_binary, environment, store, "add", "my own: see #2")
    earlier_memos_links(store)
    assert memo(memo_binary, environment, store, "list", "--links-to", "1", "--ids").stdout.split() == ["5", "3"]

    checked = memo(memo_binary, environment, store, "links", "--check").stdout
    assert checked == ('#3  #1 → #1 first memo  "Rule #1: never panic"\n'
                       '#4  #2 → #2 second memo  "fixed in issue #2"\n'
                       '#5  #1 → #1 first memo  "Linux 5.10 #1 SMP Debian"\n')
    assert memo(memo_binary, environment, store, "--json", "links", "--check", "--unlink").stdout == \
        '{"unlinked":3,"memos":3}\n'
    assert memo(memo_binary, environment, store, "list", "--links-to", "1").stdout == ""
    assert memo(memo_binary, environment, store, "list", "--links-to", "2", "--ids").stdout == "6\n"
    assert memo(memo_binary, environment, store, "list", "--orphan", "--ids").stdout.split() == ["5", "4", "3", "1"]
    graph = memo(memo_binary, environment, store, "graph").stdout
    assert [line.strip() for line in graph.splitlines() if "->" in line] == ["6 -> 2;"]
    assert "→" not in memo(memo_binary, environment, store, "show", "3").stdout

    assert memo(memo_binary, environment, store, "undo").stdout.startswith("undid change")
    assert memo(memo_binary, environment, store, "links", "--check").stdout == checked
    assert "-> 1;" in memo(memo_binary, environment, store, "graph").stdout

    # The script and server faces run the same command from the one table.
    script = tmp_path / "clean.memo"
    script.write_text("links --check --unlink\n")
    ran = subprocess.run([memo_binary, "run", "--store", str(store), str(script)], env=environment,
                         capture_output=True, text=True, timeout=120)
    assert (ran.returncode, ran.stdout) == (0, "unlinked 3 references in 3 memos\n"), ran.stderr

    async def body(client):
        await initialize(client)
        executed = await client.call("memo/execute", {"line": "links --check"})
        assert (executed.ok, executed.output) == (True, "")
        listed = await client.call("memo/execute", {"line": "links"})
        assert listed.output.count("→ (none)") == 3
    serve(memo_binary, environment, store, body)
