"""Templates and the daily memo (docs/REFERENCE.md, Templates; The daily memo) through the real
binary on pseudo-terminals, with a real $EDITOR script and HOME and XDG_CONFIG_HOME in a
temporary folder."""
import datetime
import os
import json
import subprocess
import zoneinfo

import pexpect
import pytest

from conftest import REPO
from stores import create_store

PROMPT = "memo> "
TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")


class Editor:
    """A script standing in for $EDITOR: it keeps a copy of each file it is given, then runs
    the shell line of `does` on it (`:` saves it unchanged), as a person saving would."""

    def __init__(self, folder):
        self.folder = folder
        self.script = folder / "editor"
        self.action = folder / "action"
        self.script.write_text(
            "#!/bin/sh\n"
            f"n=$(ls '{folder}' | grep -c '^given-')\n"
            f"cp \"$1\" '{folder}/given-'$n\n"
            f". '{self.action}'\n")
        self.script.chmod(0o755)
        self.does(":")

    def does(self, line):
        self.action.write_text(line.replace("FILE", '"$1"') + "\n")

    def given(self):
        """The texts the editor was started on, in order."""
        count = len(list(self.folder.glob("given-*")))
        return [(self.folder / f"given-{n}").read_text() for n in range(count)]


@pytest.fixture
def editor(tmp_path):
    folder = tmp_path / "editor"
    folder.mkdir()
    return Editor(folder)


@pytest.fixture
def config(tmp_path):
    """$XDG_CONFIG_HOME, holding the templates folder."""
    folder = tmp_path / "config"
    (folder / "memo" / "templates").mkdir(parents=True)
    return folder


@pytest.fixture
def memo_environment(memo_binary, environment, home, config, editor):
    environment.update(MEMO_STORE=str(home / "store.sqlite"), XDG_CONFIG_HOME=str(config),
                       EDITOR=str(editor.script), TZ="Asia/Tokyo")
    create_store(memo_binary, environment, home / "store.sqlite")
    return environment


def template(config, name, text):
    (config / "memo" / "templates" / name).write_text(text)


def on_terminal(binary, environment, *arguments):
    """Runs memo on a pseudo-terminal (so the editor opens); its whole output and exit status."""
    child = pexpect.spawn(binary, list(arguments), env=environment, encoding="utf-8", timeout=20)
    child.expect(pexpect.EOF)
    child.close()
    return child.before.replace("\r\n", "\n"), child.exitstatus


def memos(binary, environment):
    listing = subprocess.run([binary, "--json", "list", "--asc"], env=environment, capture_output=True, text=True,
                             check=True)
    return [json.loads(line) for line in listing.stdout.splitlines()]


def tokyo_now():
    return datetime.datetime.now(TOKYO)


def filled(text, moment):
    return (text.replace("{{date}}", moment.strftime("%Y-%m-%d")).replace("{{time}}", moment.strftime("%H:%M"))
            .replace("{{weekday}}", moment.strftime("%A")))


def test_add_template_opens_the_editor_on_the_filled_template(memo_binary, memo_environment, config, editor):
    template(config, "meeting", "# {{title}}\n{{weekday}} {{date}} {{time}} {{unknown}}\n\n")
    editor.does("printf 'decided: ship it @done\\n' >> FILE")
    before = tokyo_now()
    output = on_terminal(memo_binary, memo_environment, "add", "--template", "meeting", "Weekly", "sync",
                         "--tag", "work")
    after = tokyo_now()
    assert output == ("added #1\n", 0)
    [given] = editor.given()
    body = "# Weekly sync\n{{weekday}} {{date}} {{time}} {{unknown}}\n\n"
    assert given in {filled(body, before), filled(body, after)}, "in the display time zone (TZ), to the minute"
    [memo] = memos(memo_binary, memo_environment)
    assert memo["content"] == given + "decided: ship it @done"
    assert memo["tags"] == ["done", "work"]


def test_an_unchanged_template_adds_nothing(memo_binary, memo_environment, config, editor):
    template(config, "meeting", "# {{title}}\n")
    assert on_terminal(memo_binary, memo_environment, "add", "--template", "meeting") == (
        "error: nothing added: the template 'meeting' was saved unchanged\n", 1)
    assert editor.given() == ["# \n"]
    assert memos(memo_binary, memo_environment) == []


def test_an_unknown_template_names_the_folder_and_its_templates(memo_binary, memo_environment, config, editor):
    template(config, "meeting", "x")
    template(config, "daily", "y")
    folder = config / "memo" / "templates"
    assert on_terminal(memo_binary, memo_environment, "add", "--template", "standup") == (
        f"error: no template 'standup' in {folder} (templates there: daily, meeting)\n", 1)
    for name in ["../x", "/etc/passwd"]:
        assert on_terminal(memo_binary, memo_environment, "add", "--template", name) == (
            f"error: invalid template name '{name}': the name of a file in the templates folder "
            "(no '/', not starting with '.')\n", 1)
    assert editor.given() == [], "no editor opens"


def test_without_xdg_config_home_the_templates_are_in_home(memo_binary, memo_environment, home, config, editor):
    """An unset, empty or relative XDG_CONFIG_HOME: ~/.config/memo/templates."""
    (home / ".config" / "memo" / "templates").mkdir(parents=True)
    (home / ".config" / "memo" / "templates" / "note").write_text("from home\n")
    template(config, "note", "from XDG_CONFIG_HOME\n")
    editor.does("printf ' edited' >> FILE")
    assert on_terminal(memo_binary, memo_environment, "add", "--template", "note") == ("added #1\n", 0)
    for value in [None, "", "relative/config"]:
        if value is None:
            memo_environment.pop("XDG_CONFIG_HOME")
        else:
            memo_environment["XDG_CONFIG_HOME"] = value
        on_terminal(memo_binary, memo_environment, "add", "--template", "note")
    assert editor.given() == ["from XDG_CONFIG_HOME\n"] + ["from home\n"] * 3


def test_today_makes_the_daily_memo_then_edits_it(memo_binary, memo_environment, config, editor):
    template(config, "daily", "{{weekday}} {{date}}\n")
    editor.does("printf 'slept well\\n' >> FILE")
    before = tokyo_now()
    assert on_terminal(memo_binary, memo_environment, "today") == ("added #1\n", 0)
    subprocess.run([memo_binary, "add", "another memo"], env=memo_environment, check=True)
    editor.does("printf 'read a book\\n' >> FILE")
    assert on_terminal(memo_binary, memo_environment, "today") == ("edited #1\n", 0)
    editor.does(":")
    assert on_terminal(memo_binary, memo_environment, "today") == ("#1 unchanged: the text is the same\n", 0)
    heading = filled("{{weekday}} {{date}}", before)
    assert editor.given() == [heading + "\n", heading + "\nslept well\n", heading + "\nslept well\nread a book\n"]
    daily = memos(memo_binary, memo_environment)[0]
    assert daily["tags"] == ["daily"]
    assert daily["content"] == heading + "\nslept well\nread a book"
    history = subprocess.run([memo_binary, "history"], env=memo_environment, capture_output=True, text=True,
                             check=True).stdout
    assert len(history.splitlines()) == 3, "add, the other add, one edit: the unchanged save recorded nothing"


def test_the_repl_writes_templates_and_the_daily_memo(memo_binary, memo_environment, config, editor):
    template(config, "meeting", "# {{title}}\n")
    editor.does("printf 'notes\\n' >> FILE")
    child = pexpect.spawn(memo_binary, [], env=memo_environment, encoding="utf-8", timeout=20)
    child.expect_exact(PROMPT)
    child.send("add --template meeting Planning --tag work\r")
    child.expect_exact("added #1")
    child.expect_exact(PROMPT)
    child.send("today\r")
    child.expect_exact("added #2")
    child.expect_exact(PROMPT)
    child.send("today\r")
    child.expect_exact("edited #2")
    child.expect_exact(PROMPT)
    child.send("add --template nothing\r")
    child.expect_exact("error: no template 'nothing' in ")
    child.expect_exact(PROMPT)
    child.send("\x04")
    child.expect(pexpect.EOF)
    assert editor.given() == ["# Planning\n", "", "notes\n"]
    assert [(memo["content"], memo["tags"]) for memo in memos(memo_binary, memo_environment)] == [
        ("# Planning\nnotes", ["work"]), ("notes\nnotes", ["daily"])]


def test_completion_offers_template_names_and_today(memo_binary, memo_environment, config):
    template(config, "meeting", "x")
    template(config, "daily", "y")
    template(config, ".meeting.swp", "z")

    def complete(line):
        return subprocess.run([memo_binary, "__complete", line], env=memo_environment, capture_output=True,
                              text=True, check=True).stdout.splitlines()

    assert complete("memo add --template ") == ["daily", "meeting"]
    assert complete("memo add --template me") == ["meeting"]
    assert complete("memo tod") == ["today"]


def test_the_example_templates_fill_in(memo_binary, memo_environment, config, editor):
    """examples/templates/, copied into the templates folder as the README says, work as they
    are: the daily one makes today's @daily memo, the meeting one takes the title."""
    examples = REPO / "examples" / "templates"
    for example in examples.iterdir():
        template(config, example.name, example.read_text())
    editor.does("printf 'went well\\n' >> FILE")
    moment = tokyo_now()
    assert on_terminal(memo_binary, memo_environment, "today") == ("added #1\n", 0)
    assert on_terminal(memo_binary, memo_environment, "add", "--template", "meeting", "Standup") == ("added #2\n", 0)
    daily, meeting = memos(memo_binary, memo_environment)
    assert daily["content"].startswith(f"{moment.strftime('%A')} {moment.strftime('%Y-%m-%d')} @daily\n")
    assert daily["tags"] == ["daily"] and daily["content"].endswith("went well")
    assert meeting["content"].startswith(f"Meeting: Standup ({moment.strftime('%Y-%m-%d')} ")
    assert meeting["tags"] == ["meeting"]


KEPT = "; nothing changed: the edited text is kept in "


@pytest.mark.parametrize("command", [["add"], ["edit", "1"], ["edit", "--tag", "work"],
                                     ["add", "--template", "meeting"], ["today"]])
def test_a_saved_text_that_is_not_utf8_is_kept_byte_for_byte(memo_binary, memo_environment, config, editor,
                                                              tmp_path, command):
    """A Latin-1 editor saves `café` as one byte é: nothing changes, and the file the error
    names holds exactly what was saved (the editor's own file, which is no longer removed)."""
    template(config, "meeting", "# {{title}}\n")
    subprocess.run([memo_binary, "add", "--tag", "work", "one"], env=memo_environment, check=True)
    if command == ["today"]:
        subprocess.run([memo_binary, "add", "--tag", "daily", "the day"], env=memo_environment, check=True)
    before = memos(memo_binary, memo_environment)
    memo_environment["TMPDIR"] = str(tmp_path)
    editor.does("printf 'caf\\351\\n' >> FILE; cp FILE '%s'" % (tmp_path / "saved"))
    output, status = on_terminal(memo_binary, memo_environment, *command)
    prefix = "error: the saved text is not valid UTF-8" + KEPT
    assert (output.startswith(prefix), status) == (True, 1), output
    kept = output[len(prefix):].strip()
    assert kept.startswith(str(tmp_path) + "/memo-")
    with open(kept, "rb") as file:
        assert file.read() == (tmp_path / "saved").read_bytes()
    assert oct(os.stat(kept).st_mode & 0o777) == "0o600"
    assert memos(memo_binary, memo_environment) == before


def test_a_text_the_store_refuses_is_kept(memo_binary, memo_environment, editor, tmp_path):
    memo_environment["TMPDIR"] = str(tmp_path)
    editor.does("head -c 1100000 /dev/zero | tr '\\0' x >> FILE")
    output, status = on_terminal(memo_binary, memo_environment, "add")
    assert status == 1 and "limit" in output and KEPT in output, output
    kept = output.split(KEPT)[1].strip()
    assert os.path.getsize(kept) == 1100000
    assert memos(memo_binary, memo_environment) == []


def test_what_has_nothing_to_lose_is_not_kept(memo_binary, memo_environment, config, editor, tmp_path):
    """An empty text, or a template saved unchanged, leaves no file behind."""
    memo_environment["TMPDIR"] = str(tmp_path)
    template(config, "meeting", "# {{title}}\n")
    assert on_terminal(memo_binary, memo_environment, "add", "--template", "meeting")[1] == 1
    editor.does(": > FILE")
    assert on_terminal(memo_binary, memo_environment, "add") == ("error: nothing added: the text is empty\n", 1)
    assert list(tmp_path.glob("memo-*")) == []


def test_text_piped_to_today_is_added_to_the_daily_memo(memo_binary, memo_environment, config, editor):
    """As jrnl and nb users log a line: what is piped goes after what the daily memo holds
    (the daily template's text for the first of the day), on a line of its own; nothing is lost."""
    template(config, "daily", "# {{date}}\n")
    heading = filled("# {{date}}", tokyo_now())

    def today(text):
        result = subprocess.run([memo_binary, "today"], input=text, env=memo_environment, capture_output=True,
                                text=True)
        return result.stdout, result.stderr, result.returncode

    assert today("woke up early\n") == ("added #1\n", "", 0)
    assert today("met Bob\n") == ("edited #1\n", "", 0)
    [daily] = memos(memo_binary, memo_environment)
    assert daily["content"] in {heading + "\nwoke up early\nmet Bob", filled("# {{date}}", tokyo_now()) + "\nwoke up early\nmet Bob"}
    assert daily["tags"] == ["daily"]
    assert editor.given() == [], "no editor opens"


def test_nothing_piped_to_today_changes_nothing(memo_binary, memo_environment, config, editor):
    subprocess.run([memo_binary, "add", "--tag", "daily", "the day"], env=memo_environment, check=True)
    result = subprocess.run([memo_binary, "today"], stdin=subprocess.DEVNULL, env=memo_environment,
                            capture_output=True, text=True)
    assert (result.stderr, result.returncode) == ("error: #1 unchanged: the new text is empty\n", 1)
    assert [memo["content"] for memo in memos(memo_binary, memo_environment)] == ["the day"]
