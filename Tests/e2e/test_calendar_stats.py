"""`memo calendar` and `memo stats` as one-shot commands (text, --json, colour on a real
pseudo-terminal) and through the server's memo/execute, on memos imported at chosen instants
in a display time zone with daylight saving (docs/REFERENCE.md, Calendar and Stats)."""
import json
import os
import pty
import subprocess

from test_server import exit_status, initialize, serve

# Europe/Berlin: summer time from 2026-03-29 02:00 to 2026-10-25 03:00 (local).
MEMOS = [
    ("2026-03-29T00:30:00.000Z", "before the spring change @work"),   # 01:30 local, March 29
    ("2026-03-29T21:30:00.000Z", "late on the short day"),            # 23:30 local, March 29
    ("2026-07-01T22:30:00.000Z", "just after midnight in summer"),    # 00:30 local, July 2
    ("2026-10-25T22:30:00.000Z", "late on the long day @work"),       # 23:30 local, October 25
    ("2026-10-26T09:00:00.000Z", "the day after, two words @work"),   # 10:00 local, October 26
]


def berlin(environment):
    return dict(environment, TZ="Europe/Berlin")


def run(memo_binary, environment, store, *arguments):
    return subprocess.run([memo_binary, "--store", str(store), *arguments], env=environment,
                          capture_output=True, check=True, text=True).stdout


def make_store(memo_binary, environment, tmp_path):
    source = tmp_path / "memos.jsonl"
    source.write_text("".join(json.dumps({"content": text, "insertDate": date}) + "\n" for date, text in MEMOS))
    store = tmp_path / "store.sqlite"
    run(memo_binary, environment, store, "import", str(source))
    return store


def test_calendar_one_shot_text_and_json(memo_binary, environment, tmp_path):
    environment = berlin(environment)
    store = make_store(memo_binary, environment, tmp_path)
    text = run(memo_binary, environment, store, "calendar", "--year", "2026")
    lines = text.splitlines()
    assert len(lines) == 10 and all(len(line) <= 80 for line in lines)
    assert lines[0].startswith("    Jan Feb Mar") and lines[0].endswith("Dec")
    assert [line[:4] for line in lines[1:8]] == ["Mon ", "Tue ", "Wed ", "Thu ", "Fri ", "Sat ", "Sun "]
    assert lines[8] == "    · 0  ░ 1  █ 2"
    assert lines[9] == "    2026: 5 memos on 4 days"
    assert "\x1b" not in text
    # Each memo on its local day: two on Sunday March 29th, one on Thursday July 2nd, one
    # on Sunday October 25th, one on Monday October 26th.
    assert (lines[7].count("█"), lines[7].count("░"), lines[4].count("░"), lines[1].count("░")) == (1, 1, 1, 1)
    calendar = json.loads(run(memo_binary, environment, store, "--json", "calendar", "--year", "2026", "--tag", "work"))
    assert calendar == {"year": 2026, "total": 3, "daysWithMemos": 3, "levels": [{"level": 1, "from": 1, "to": 1}],
                        "days": [{"date": "2026-03-29", "count": 1}, {"date": "2026-10-25", "count": 1},
                                 {"date": "2026-10-26", "count": 1}]}


def test_calendar_is_coloured_on_a_terminal(memo_binary, environment, tmp_path):
    environment = berlin(environment)
    store = make_store(memo_binary, environment, tmp_path)
    coloured = dict(environment, MEMO_PAGER="cat")
    del coloured["NO_COLOR"]
    main, side = pty.openpty()
    process = subprocess.Popen([memo_binary, "--store", str(store), "calendar", "--year", "2026"], env=coloured,
                               stdin=subprocess.DEVNULL, stdout=side, stderr=subprocess.PIPE)
    os.close(side)
    output = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    os.close(main)
    assert process.wait() == 0
    text = output.decode()
    assert "\x1b[1;92m█\x1b[0m" in text and "\x1b[2;32m░\x1b[0m" in text and "\x1b[2m·\x1b[0m" in text


def test_stats_one_shot_text_and_json(memo_binary, environment, tmp_path):
    environment = berlin(environment)
    store = make_store(memo_binary, environment, tmp_path)
    text = run(memo_binary, environment, store, "stats", "--tag", "work")
    assert text.startswith("memos            3\nwords            17\ndays             3 (2026-03-29 to 2026-10-26)\n"
                           "longest streak   2 days (2026-10-25 to 2026-10-26)\n")
    assert "busiest weekday  Sunday (2 memos)\n" in text
    assert "\ntag    memos\n@work      3\n" in text
    stats = json.loads(run(memo_binary, environment, store, "--json", "stats"))
    assert (stats["memos"], stats["days"], stats["firstDay"], stats["lastDay"]) == (5, 4, "2026-03-29", "2026-10-26")
    assert stats["words"] == 5 + 5 + 5 + 6 + 6
    assert [(month["month"], month["memos"]) for month in stats["months"]] == [
        ("2026-03", 2), ("2026-07", 1), ("2026-10", 2)]
    assert stats["hours"][23] == 2 and stats["hours"][1] == 1 and stats["hours"][0] == 1 and stats["hours"][10] == 1
    assert stats["weekdays"] == [1, 0, 0, 1, 0, 0, 3]
    assert (stats["busiestWeekday"], stats["busiestHour"]) == ("sunday", 23)
    assert stats["tags"] == [{"name": "work", "count": 3}]
    assert stats["currentStreak"] is None
    assert list(stats) == ["memos", "words", "days", "firstDay", "lastDay", "months", "tags", "longestStreak",
                           "currentStreak", "busiestWeekday", "busiestHour", "weekdays", "hours"]


def import_memos(memo_binary, environment, tmp_path, memos):
    source = tmp_path / "far.jsonl"
    source.write_text("".join(json.dumps({"content": text, "insertDate": date}) + "\n" for date, text in memos))
    store = tmp_path / "far.sqlite"
    run(memo_binary, environment, store, "import", str(source))
    return store


# The first and the last instant a memo can be dated.
ENDS_OF_TIME = [("0001-01-01T00:00:00.000Z", "the very first"), ("9999-12-31T23:59:59.000Z", "the very last")]


def test_stats_lists_the_months_with_memos_not_the_years_between(memo_binary, environment, tmp_path):
    """Two memos 9,999 years apart: a table of two months, not of 119,988."""
    store = import_memos(memo_binary, environment, tmp_path, ENDS_OF_TIME)
    text = run(memo_binary, environment, store, "stats")
    assert text.endswith("\nmonth    memos  words\n0001-01      1      3\n9999-12      1      3\n")
    assert len(text.splitlines()) == 11
    stats = json.loads(run(memo_binary, environment, store, "--json", "stats"))
    assert stats["months"] == [{"month": "0001-01", "memos": 1, "words": 3},
                               {"month": "9999-12", "memos": 1, "words": 3}]


def test_calendar_and_stats_agree_on_the_local_day_at_the_ends_of_time(memo_binary, environment, tmp_path):
    """In Berlin the last second of 9999 (UTC) is on 10000-01-01, in New York the first of
    year 1 on 0000-12-31: `calendar` draws those years, and `stats` names the same days."""
    store = import_memos(memo_binary, environment, tmp_path, ENDS_OF_TIME)
    in_berlin = berlin(environment)
    calendar = json.loads(run(memo_binary, in_berlin, store, "--json", "calendar", "--year", "10000"))
    assert (calendar["year"], calendar["days"]) == (10000, [{"date": "10000-01-01", "count": 1}])
    assert run(memo_binary, in_berlin, store, "calendar", "--year", "10000").endswith("    10000: 1 memo on 1 day\n")
    assert run(memo_binary, in_berlin, store, "calendar", "--year", "9999").endswith("    9999: 0 memos on 0 days\n")
    stats = json.loads(run(memo_binary, in_berlin, store, "--json", "stats"))
    assert (stats["firstDay"], stats["lastDay"]) == ("0001-01-01", "10000-01-01")
    assert [month["month"] for month in stats["months"]] == ["0001-01", "10000-01"]
    in_new_york = dict(environment, TZ="America/New_York")
    calendar = json.loads(run(memo_binary, in_new_york, store, "--json", "calendar", "--year", "0"))
    assert (calendar["year"], calendar["days"]) == (0, [{"date": "0000-12-31", "count": 1}])
    assert json.loads(run(memo_binary, in_new_york, store, "--json", "calendar", "--year", "1"))["days"] == []
    stats = json.loads(run(memo_binary, in_new_york, store, "--json", "stats"))
    assert (stats["firstDay"], stats["lastDay"]) == ("0000-12-31", "9999-12-31")
    assert [month["month"] for month in stats["months"]] == ["0000-12", "9999-12"]


def test_calendar_and_stats_through_memo_execute(memo_binary, environment, tmp_path):
    environment = berlin(environment)
    store = make_store(memo_binary, environment, tmp_path)

    async def body(client):
        await initialize(client)
        calendar = await client.call("memo/execute", {"line": "calendar --year 2026 --tag work"})
        assert calendar.ok and calendar.output.endswith("    · 0  ░ 1\n    2026: 3 memos on 3 days\n")
        stats = await client.call("memo/execute", {"line": "stats --since 2026-10-01"})
        assert stats.ok and stats.output.startswith("memos            2\nwords            12\n")
        refused = await client.call("memo/execute", {"line": "calendar --year 10001"})
        assert not refused.ok and "invalid year '10001'" in refused.output
        return await exit_status(client)

    assert serve(memo_binary, environment, store, body) == 0


def test_calendar_and_stats_in_the_repl(memo_binary, environment, tmp_path):
    """In the REPL on a terminal: the heatmap in colour unless NO_COLOR, the statistics, and
    Tab completing the commands' options."""
    from test_repl import REPL
    environment = berlin(environment)
    store = make_store(memo_binary, environment, tmp_path)
    coloured = dict(environment, MEMO_PAGER="cat")
    del coloured["NO_COLOR"]
    repl = REPL(memo_binary, coloured, "--store", str(store))
    repl.expect_prompt()
    drawn = repl.run("calendar --year 2026")
    assert "\x1b[1;92m█\x1b[0m" in drawn and "2026: 5 memos on 4 days" in drawn
    assert "memos            5\nwords            27\n" in repl.run("stats")
    # Tab makes `--ye` the option `--year`; run, it draws 2025, empty.
    repl.child.send("calendar --ye\t2025\r")
    repl.expect_prompt()
    assert repl.output().endswith("2025: 0 memos on 0 days")
