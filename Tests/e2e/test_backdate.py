"""Back-dating from the shell (docs/REFERENCE.md, Back-dating): the one-shot `memo add --date` and
`memo edit N --date` on a real store file, through the built binary."""
import json
import subprocess
import time

import pytest


def memo(binary, environment, store, *arguments, check=True):
    return subprocess.run([binary, "--store", str(store)] + [str(a) for a in arguments], env=environment,
                          capture_output=True, text=True, check=check)


def listed(binary, environment, store):
    lines = memo(binary, environment, store, "--json", "list", "--asc").stdout.split("\n")
    return [json.loads(line) for line in lines if line]


def milliseconds(text):
    """An ISO instant of memo's JSON (`2024-03-04T21:30:00.000Z`) as milliseconds since 1970."""
    seconds = time.mktime(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone
    return int(seconds) * 1000 + int(text[20:23])


def test_one_shot_add_and_edit_with_a_date_back_date_and_move_memos(memo_binary, environment, tmp_path):
    store = tmp_path / "journal.sqlite"
    # An editor that must not open: a move alone needs no text.
    editor = tmp_path / "editor"
    editor.write_text(f"#!/bin/sh\ntouch '{tmp_path}/editor-opened'\nexit 1\n")
    editor.chmod(0o755)
    environment = dict(environment, EDITOR=str(editor), VISUAL=str(editor))
    assert memo(memo_binary, environment, store, "add", "today's note").stdout == "added #1\n"
    assert memo(memo_binary, environment, store, "add", "--date", "2024-03-04T21:30:00Z", "last night").stdout == "added #2\n"
    assert [m["content"] for m in listed(memo_binary, environment, store)] == ["last night", "today's note"]
    assert listed(memo_binary, environment, store)[0]["insertDate"] == "2024-03-04T21:30:00.000Z"

    moved = memo(memo_binary, environment, store, "edit", "1", "--date", "2024-03-01T08:00:00Z")
    assert moved.stdout == "moved #1 to 2024-03-01 08:00:00\n", moved.stderr
    assert not (tmp_path / "editor-opened").exists()
    memos = listed(memo_binary, environment, store)
    assert [(m["id"], m["insertDate"]) for m in memos] == [(1, "2024-03-01T08:00:00.000Z"), (2, "2024-03-04T21:30:00.000Z")]
    assert memos[0]["updateDate"] is not None
    history = json.loads(memo(memo_binary, environment, store, "--json", "history", "-n", "1").stdout.split("\n")[0])
    assert history["kind"] == "move"

    assert memo(memo_binary, environment, store, "undo").stdout == 'undid change 3 (move "today\'s note")\n'
    assert [m["content"] for m in listed(memo_binary, environment, store)] == ["last night", "today's note"]
    assert memo(memo_binary, environment, store, "redo").stdout == 'redid change 3 (move "today\'s note")\n'

    both = memo(memo_binary, environment, store, "edit", "2", "--date", "2024-02-01T09:00:00Z", "last night, rewritten")
    assert both.stdout == "edited #2 and moved it to 2024-02-01 09:00:00\n"
    assert [(m["content"], m["insertDate"]) for m in listed(memo_binary, environment, store)][0] == (
        "last night, rewritten", "2024-02-01T09:00:00.000Z")


def test_a_day_alone_takes_the_time_of_day_it_is_now(memo_binary, environment, tmp_path):
    store = tmp_path / "journal.sqlite"
    before = int(time.time() * 1000)
    memo(memo_binary, environment, store, "add", "--date", "yesterday", "written late")
    after = int(time.time() * 1000)
    [written] = listed(memo_binary, environment, store)
    day = 86_400_000
    assert before - day <= milliseconds(written["insertDate"]) <= after - day, written


def test_a_date_outside_the_years_memo_keeps_is_one_clear_line(memo_binary, environment, tmp_path):
    store = tmp_path / "journal.sqlite"
    memo(memo_binary, environment, store, "add", "one")
    result = memo(memo_binary, environment, store, "edit", "1", "--date", "0000-06-01", check=False)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        "error: invalid date '0000-06-01' for '--date': it falls outside the years 0001 to 9999,"
        " which memo counts in UTC\n"
    )
    assert listed(memo_binary, environment, store)[0]["updateDate"] is None, "nothing changed"


@pytest.mark.parametrize(
    ("zone", "typed", "quoted"),
    [("Asia/Tokyo", "0001-01-01 00:00", "0001-01-01 00:00"), ("America/New_York", "9999-12-31 8pm", "9999-12-31 20:00")],
)
def test_the_years_are_counted_in_utc_and_the_error_quotes_the_date(
    memo_binary, environment, tmp_path, zone, typed, quoted
):
    """A local time that is another year in UTC is refused, saying so and quoting the date."""
    store = tmp_path / "journal.sqlite"
    memo(memo_binary, environment, store, "add", "one")
    result = memo(memo_binary, {**environment, "TZ": zone}, store, "add", "--date", typed, "z", check=False)
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == (
        f"error: invalid date '{quoted}' for '--date': it falls outside the years 0001 to 9999,"
        " which memo counts in UTC\n"
    )
    assert len(listed(memo_binary, environment, store)) == 1, "nothing was added"


def test_a_scripts_clock_stops_at_the_last_year_and_the_store_still_syncs(memo_binary, environment, tmp_path):
    """The deterministic clock steps on with each change: past 9999 it refuses, nothing is written."""
    store, script = tmp_path / "y.sqlite", tmp_path / "y.memo"
    script.write_text("clock 9999-12-31T23:59:59Z\nadd a\nadd b\n")
    result = memo(memo_binary, environment, store, "run", str(script), check=False)
    assert result.returncode == 1
    assert f"{script}:3: error: the script's clock has run past 9999-12-31T23:59:59.999Z" in result.stderr
    assert [m["content"] for m in listed(memo_binary, environment, store)] == ["a"]
    synced = memo(memo_binary, environment, store, "sync", str(tmp_path / "copy.sqlite"), check=False)
    assert synced.returncode == 0, synced.stderr
