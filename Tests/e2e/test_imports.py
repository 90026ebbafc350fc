"""Imports from the tools people leave: a journal written with the real jrnl (from PyPI, in
the test environment) and exported with `jrnl --format json`, and folders of Markdown notes
laid out as zk, nb and Obsidian keep them. Each comes in with its dates and tags, the
summary says what was read, and importing the same source again adds nothing."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def memo(binary, environment, store, *arguments, check=True):
    return subprocess.run([binary, "--store", str(store)] + [str(a) for a in arguments], env=environment,
                          capture_output=True, text=True, check=check, timeout=120)


def dump(binary, environment, store):
    lines = memo(binary, environment, store, "--json", "list", "--asc").stdout.split("\n")
    return [json.loads(line) for line in lines if line]


@pytest.fixture
def paris(environment):
    """memo on a wall clock with daylight-saving time, as jrnl's local times are meant."""
    return dict(environment, TZ="Europe/Paris")


class Jrnl:
    """The real jrnl with a private config and journal under `folder`."""

    def __init__(self, folder):
        self.binary = Path(sys.executable).parent / "jrnl"
        assert self.binary.exists(), "jrnl is missing: pip install -r Tests/e2e/requirements.txt"
        config = folder / "config"
        (config / "jrnl").mkdir(parents=True)
        (config / "jrnl" / "jrnl.yaml").write_text(
            "colors: {body: none, date: none, tags: none, title: none}\n"
            "default_hour: 9\ndefault_minute: 0\neditor: ''\nencrypt: false\nhighlight: false\n"
            "indent_character: '|'\n"
            f"journals:\n  default:\n    journal: {folder / 'journal.txt'}\n"
            "linewrap: 79\ntagsymbols: '#@'\ntemplate: false\ntimeformat: '%Y-%m-%d %H:%M'\nversion: v4.6\n")
        self.environment = {"HOME": str(folder), "XDG_CONFIG_HOME": str(config), "PATH": "/usr/bin:/bin",
                            "LANG": "C.UTF-8", "TZ": "Europe/Paris"}

    def write(self, entry):
        """Adds an entry as typed on jrnl's standard input (`DATE: title. body`)."""
        subprocess.run([self.binary], input=entry, env=self.environment, capture_output=True, text=True,
                       check=True, timeout=120)

    def export(self, path):
        with open(path, "w") as output:
            subprocess.run([self.binary, "--format", "json"], stdout=output, env=self.environment,
                           stderr=subprocess.PIPE, check=True, timeout=120)
        return path


def test_a_jrnl_export_comes_in_with_its_dates_tags_and_stars_and_only_once(memo_binary, paris, tmp_path):
    jrnl = Jrnl(tmp_path / "jrnl")
    jrnl.write("2024-03-01 09:15: Morning run. Felt good @health @run")
    jrnl.write("2024-03-01 21:30: Evening. Read a book @reading")
    jrnl.write("2024-03-02 10:00: Starred one. Important *")
    jrnl.write("2024-03-31 12:00: Title line.\nSecond line @work\n\nThird para, see #12")
    export = jrnl.export(tmp_path / "export.json")
    assert '"entries"' in export.read_text()
    store = tmp_path / "s.sqlite"

    result = memo(memo_binary, paris, store, "import", export)
    assert result.stdout == "imported 4 records from a jrnl export: 4 added, 0 updated, 0 skipped\n"
    memos = dump(memo_binary, paris, store)
    assert [m["content"] for m in memos] == [
        "Morning run.\nFelt good @health @run", "Evening.\nRead a book @reading", "Starred one. Important",
        "Title line.\nSecond line @work\n\nThird para, see #12"]
    assert [m["insertDate"] for m in memos] == [
        "2024-03-01T08:15:00.000Z", "2024-03-01T20:30:00.000Z", "2024-03-02T09:00:00.000Z",
        "2024-03-31T10:00:00.000Z"]  # Paris wall clock; the last on the day summer time starts
    assert [m["tags"] for m in memos] == [["health", "run"], ["reading"], ["starred"], ["12", "work"]]

    again = memo(memo_binary, paris, store, "import", export)
    assert again.stdout == "imported 4 records from a jrnl export: 0 added, 0 updated, 4 skipped (4 already in the store)\n"

    jrnl.write("2024-04-01 08:00: Later entry.")
    renamed = jrnl.export(tmp_path / "journal")  # no extension: the content tells
    assert memo(memo_binary, paris, store, "import", renamed).stdout == \
        "imported 5 records from a jrnl export: 1 added, 0 updated, 4 skipped (4 already in the store)\n"
    assert len(dump(memo_binary, paris, store)) == 5


def write(path, text, modified=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    if modified is not None:
        os.utime(path, (modified, modified))


def zk_notebook(root):
    """A zk notebook: `.zk/config.toml`, notes in subfolders written by a template with
    front matter (`date:`, `tags:`) over zk's default `# {{title}}` body; an Obsidian vault's
    `.obsidian/` and a picture beside them."""
    write(root / ".zk" / "config.toml",
          '[notebook]\ndir = "."\n[note]\nfilename = "{{id}}-{{slug title}}"\ntemplate = "default.md"\n')
    write(root / ".zk" / "templates" / "default.md", "# {{title}}\n\n{{content}}\n")
    write(root / ".obsidian" / "app.json", "{}\n")
    write(root / "journal" / "2024-03-01.md",
          "---\ndate: 2024-03-01 09:15\ntags: [daily, \"#health\"]\n---\n\n# Friday\n\nRan 5 km. See #12.\n")
    write(root / "ideas" / "a1b2-garden.md",
          "---\ntitle: Garden\ndate: 2024-03-02T18:00:00+01:00\ntags:\n  - garden\n  - ideas\nid: a1b2\n---\n"
          "# Garden\n\nPlant #tomatoes in April.\n")
    write(root / "ideas" / "loose.md", "# Loose idea\n\nNo front matter at all.\n", modified=1709370000)
    write(root / "attachments" / "plan.png", "\x89PNG not a note")


def test_a_zk_notebook_comes_in_one_memo_per_note_and_only_once(memo_binary, paris, tmp_path):
    root = tmp_path / "notes"
    zk_notebook(root)
    (root / "ideas" / "back").symlink_to("..")  # a loop a walk must not follow
    store = tmp_path / "s.sqlite"

    result = memo(memo_binary, paris, store, "import", root)
    assert result.stdout == (
        f"imported 3 records from 3 Markdown notes in {root} (2 other files left out: attachments/plan.png, "
        "ideas/back/): 3 added, 0 updated, 0 skipped\n")
    memos = dump(memo_binary, paris, store)
    assert [m["content"] for m in memos] == [
        "# Friday\n\nRan 5 km. See #12.", "# Loose idea\n\nNo front matter at all.",
        "# Garden\n\nPlant #tomatoes in April."]
    assert [m["insertDate"] for m in memos] == [
        "2024-03-01T08:15:00.000Z", "2024-03-02T09:00:00.000Z", "2024-03-02T17:00:00.000Z"]
    assert [m["tags"] for m in memos] == [["daily", "health"], [], ["garden", "ideas"]]

    again = memo(memo_binary, paris, store, "import", root)
    assert again.stdout.endswith(": 0 added, 0 updated, 3 skipped (3 already in the store)\n")

    write(root / "ideas" / "loose.md", "# Loose idea\n\nNow with a second thought.\n", modified=1709380000)
    changed = memo(memo_binary, paris, store, "import", root)
    assert changed.stdout.endswith(": 0 added, 1 updated, 2 skipped (2 already in the store)\n")
    assert [m["content"] for m in dump(memo_binary, paris, store)][1] == \
        "# Loose idea\n\nNow with a second thought."


def test_an_nb_notebook_passes_over_its_index_and_git(memo_binary, environment, tmp_path):
    home = tmp_path / "nb" / "home"
    write(home / ".index", "20240301091500.md\n")
    write(home / ".git" / "HEAD", "ref: refs/heads/master\n")
    write(home / "20240301091500.md", "# First nb note\n\nbody\n", modified=1709284500)
    store = tmp_path / "s.sqlite"
    result = memo(memo_binary, environment, store, "import", home)
    assert result.stdout == f"imported 1 record from 1 Markdown note in {home}: 1 added, 0 updated, 0 skipped\n"
    [note] = dump(memo_binary, environment, store)
    assert (note["content"], note["insertDate"]) == ("# First nb note\n\nbody", "2024-03-01T09:15:00.000Z")


def test_one_unreadable_note_fails_the_whole_import_naming_it(memo_binary, environment, tmp_path):
    root = tmp_path / "notes"
    zk_notebook(root)
    bad = root / "journal" / "latin1.md"
    bad.write_bytes(b"caf\xe9\n")
    store = tmp_path / "s.sqlite"
    memo(memo_binary, environment, store, "add", "already here")
    result = memo(memo_binary, environment, store, "import", root, check=False)
    assert result.returncode == 1
    assert result.stderr == f"{bad}: error: cannot read the note: it is not valid UTF-8 text\n"
    assert [m["content"] for m in dump(memo_binary, environment, store)] == ["already here"]


def test_the_shells_are_offered_import_formats(memo_binary, environment):
    """What the completion scripts offer on Tab after `--format` (`memo __complete`)."""
    def offered(line):
        return subprocess.run([memo_binary, "__complete", line], env=environment, capture_output=True, text=True,
                              check=True, timeout=60).stdout.split()
    assert offered("memo import export.json --format j") == ["jrnl", "json", "jsonl"]
    assert offered("memo import notes --format ") == ["coredata", "jrnl", "json", "jsonl", "markdown"]
    assert offered("memo export out.md --format ") == ["json", "jsonl", "markdown"]


@pytest.mark.parametrize("moment", ["2026-03-29 02:30", "2026-10-25 02:30"])
def test_a_local_time_imports_as_add_date_reads_it(memo_binary, environment, tmp_path, moment):
    """A wall-clock time Berlin's clocks skip (spring forward) or show twice (fall back), in
    a note's front matter and in a jrnl entry written by the real jrnl, is the instant
    `add --date` reads: one rule for every date memo reads."""
    berlin = dict(environment, TZ="Europe/Berlin")
    store = tmp_path / "s.sqlite"
    memo(memo_binary, berlin, store, "add", "--date", moment, "added")
    write(tmp_path / "notes" / "n.md", f"---\ndate: {moment}\n---\nnote\n")
    memo(memo_binary, berlin, store, "import", tmp_path / "notes")
    jrnl = Jrnl(tmp_path / "jrnl")
    jrnl.environment["TZ"] = "Europe/Berlin"
    jrnl.write(f"{moment}: Entry.")
    memo(memo_binary, berlin, store, "import", jrnl.export(tmp_path / "export.json"))
    memos = dump(memo_binary, berlin, store)
    assert [m["content"] for m in memos] == ["added", "note", "Entry."]
    assert len({m["insertDate"] for m in memos}) == 1, memos


def test_the_same_note_through_its_file_folder_and_subfolder_is_one_memo(memo_binary, environment, tmp_path):
    note = tmp_path / "n" / "sub" / "w.md"
    write(note, "---\ndate: 2026-03-29\n---\nhello\n")
    store = tmp_path / "s.sqlite"
    for source in [note, tmp_path / "n", tmp_path / "n" / "sub"]:
        memo(memo_binary, environment, store, "import", source)
    assert [m["content"] for m in dump(memo_binary, environment, store)] == ["hello"]
    write(note, "---\ndate: 2026-03-20 10:00\n---\nhello\n")
    os.utime(note, (note.stat().st_mtime + 10, note.stat().st_mtime + 10))
    # Named by its path under the folder first imported (the file alone: w.md, as under n/sub).
    moved = memo(memo_binary, environment, store, "import", tmp_path / "n" / "sub")
    assert moved.stdout.endswith(": 0 added, 1 updated, 0 skipped\n")
    [one] = dump(memo_binary, environment, store)
    assert one["insertDate"] == "2026-03-20T10:00:00.000Z"
    again = memo(memo_binary, environment, store, "import", tmp_path / "n")
    assert again.stdout.endswith(": 0 added, 0 updated, 1 skipped (1 already in the store)\n")


def test_another_memo_store_is_synced_not_imported(memo_binary, environment, tmp_path):
    other, mine = tmp_path / "other.db", tmp_path / "mine.db"
    memo(memo_binary, environment, other, "add", "elsewhere")
    memo(memo_binary, environment, mine, "add", "here")
    result = memo(memo_binary, environment, mine, "import", other, check=False)
    assert (result.returncode, result.stderr) == (
        1, f"error: {other} is a memo store: 'memo sync {other}' merges two stores (import reads other programs' files)\n")
    own = memo(memo_binary, environment, mine, "import", mine, check=False)
    assert (own.returncode, own.stderr) == (1, f"error: {mine} is this store's own file: there is nothing to import\n")
    assert [m["content"] for m in dump(memo_binary, environment, mine)] == ["here"]
