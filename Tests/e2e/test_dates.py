"""Natural dates from a shell (issue 38): the real binary reads `--since 2 days ago` as
several words, on the calendar of the time zone TZ names, and refuses an unreadable date with
one line that quotes it, and exit status 1."""
import datetime
import json
import shlex
import subprocess
import zoneinfo

from stores import memo
from test_completions import bash_completions, need, shell_environment  # noqa: F401 (a fixture)
from test_repl import repl  # noqa: F401 (a fixture)

ZONE = "Pacific/Kiritimati"  # UTC+14: its yesterday is not UTC's


def in_shell(binary, environment, store, command):
    """Runs `memo --store STORE COMMAND` through sh, as typed at a shell prompt."""
    line = f"{shlex.quote(binary)} --store {shlex.quote(str(store))} {command}"
    return subprocess.run(["sh", "-c", line], env=environment, capture_output=True, text=True)


def test_since_and_on_read_natural_dates_in_the_display_time_zone(memo_binary, environment, tmp_path):
    environment["TZ"] = ZONE
    now = datetime.datetime.now(datetime.timezone.utc)
    today = now.astimezone(zoneinfo.ZoneInfo(ZONE)).date()
    local = lambda day, hour, minute: datetime.datetime.combine(  # noqa: E731
        day, datetime.time(hour, minute), zoneinfo.ZoneInfo(ZONE))
    memos = {
        "before two days ago": now - datetime.timedelta(days=2, hours=3),
        "after two days ago": now - datetime.timedelta(days=2) + datetime.timedelta(hours=3),
        "yesterday noon": local(today - datetime.timedelta(days=1), 12, 0),
        "the day before, late": local(today - datetime.timedelta(days=2), 23, 59),
    }
    records = tmp_path / "dated.jsonl"
    records.write_text("".join(
        json.dumps({"content": text, "insertDate": date.astimezone(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"), "tags": []}) + "\n"
        for text, date in memos.items()))
    store = tmp_path / "s.sqlite"
    memo(memo_binary, environment, store, "import", records)

    since = in_shell(memo_binary, environment, store, "list --since 2 days ago")
    assert since.returncode == 0, since.stderr
    assert "after two days ago" in since.stdout and "before two days ago" not in since.stdout

    on = in_shell(memo_binary, environment, store, "list --on yesterday -n 5")
    assert on.returncode == 0, on.stderr
    assert "yesterday noon" in on.stdout and "the day before, late" not in on.stdout


def test_an_unreadable_date_is_one_line_quoting_it_and_exit_status_1(memo_binary, environment, tmp_path):
    store = tmp_path / "s.sqlite"
    memo(memo_binary, environment, store, "add", "kept")
    refused = in_shell(memo_binary, environment, store, "list --since 2 dayz ago")
    assert refused.returncode == 1
    assert refused.stdout == ""
    lines = refused.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: invalid date '2 dayz': use YYYY-MM-DD, ")
    assert "2 days ago" in lines[0] and "last/this/next WEEKDAY" in lines[0] and "9pm" in lines[0]


def test_bash_completes_date_words_after_a_date_option(shell_environment):
    need("bash")
    assert bash_completions(shell_environment, "memo list --since yes") == ["yesterday"]
    assert bash_completions(shell_environment, "memo count --until last w") == ["wednesday", "week"]


def test_the_repl_reads_a_date_of_several_words(repl):
    session = repl()
    session.run("add today's memo")
    assert session.run("count --since 2 days ago") == "1"
    assert session.run("count --until last week") == "0"
    assert session.run("list --since 2 dayz ago").startswith("error: invalid date '2 dayz': use YYYY-MM-DD")


def test_at_between_a_day_and_its_time_as_jrnl_writes_it(memo_binary, environment, tmp_path):
    """`memo add --date yesterday at 9pm Met Bob`: dated yesterday at 21:00, the text `Met Bob`."""
    environment["TZ"] = ZONE
    store = tmp_path / "s.sqlite"
    added = in_shell(memo_binary, environment, store, "add --date yesterday at 9pm Met Bob")
    assert added.returncode == 0, added.stderr
    [written] = [json.loads(line) for line in memo(memo_binary, environment, store, "--json", "list").stdout.splitlines()]
    yesterday = datetime.datetime.now(zoneinfo.ZoneInfo(ZONE)).date() - datetime.timedelta(days=1)
    nine_pm = datetime.datetime.combine(yesterday, datetime.time(21, 0), zoneinfo.ZoneInfo(ZONE))
    assert written["content"] == "Met Bob"
    assert written["insertDate"] == nine_pm.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def test_a_date_of_several_words_after_equals_says_to_drop_the_equals(memo_binary, environment, tmp_path):
    store = tmp_path / "s.sqlite"
    memo(memo_binary, environment, store, "add", "kept")
    refused = in_shell(memo_binary, environment, store, "list --since=2 days ago")
    assert (refused.returncode, refused.stdout) == (2, ""), "a usage error"
    assert refused.stderr == (
        "error: unexpected argument 'days' for 'list' (a date of several words goes without '=': --since 2 days ago)\n"
    )
