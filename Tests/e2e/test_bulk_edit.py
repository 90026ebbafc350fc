"""`edit` with filters and no id (docs/REFERENCE.md, Editing several memos at once), through
the real binary on a pseudo-terminal, with a real $EDITOR: a small program that edits the
buffer file as a person would."""
import json
import os
import subprocess
import sys

import pexpect
import pytest

from waiting import wait_until

PROMPT = "memo> "

# The editor: reads its orders from $BULK_EDITOR_PLAN (a JSON file), keeps a copy of the buffer
# it was given, rewrites the texts named, removes the sections named, appends new ones, and,
# when told, says it is open and waits until the test lets it save (a FIFO, no clock).
EDITOR = r'''
import json, os, sys
plan = json.load(open(os.environ["BULK_EDITOR_PLAN"]))
path = sys.argv[1]
buffer = open(path, encoding="utf-8", newline="").read()
open(plan["seen"], "w", encoding="utf-8", newline="").write(buffer)
sections, current = [], None
for line in buffer.split("\n")[:-1]:
    if line.startswith("%% ") or current is None:
        current = [line]
        sections.append(current)
    else:
        current.append(line)
out = []
for section in sections:
    head = section[0]
    memo = head.split()[1][1:] if head.startswith("%% #") else None
    if memo in plan.get("delete", []):
        continue
    if memo in plan.get("texts", {}):
        section = [head] + plan["texts"][memo].split("\n")
    elif plan.get("upper"):
        section = [head] + [line.upper() for line in section[1:]] if memo else section
    out.extend(section)
for text in plan.get("new", []):
    out.extend(["%% new"] + text.split("\n"))
if "opened" in plan:
    open(plan["opened"], "w").close()
    open(plan["go"]).read()
open(path, "w", encoding="utf-8", newline="").write("\n".join(out) + "\n")
sys.exit(plan.get("status", 0))
'''



@pytest.fixture
def editor(tmp_path, store_environment):
    script = tmp_path / "bulk-editor"
    script.write_text(f"#!{sys.executable}\n" + EDITOR)
    script.chmod(0o755)
    plan_file = tmp_path / "plan.json"
    store_environment["EDITOR"] = str(script)
    store_environment["BULK_EDITOR_PLAN"] = str(plan_file)

    class Editor:
        seen = tmp_path / "seen"

        def plans(self, **plan):
            plan_file.write_text(json.dumps({"seen": str(self.seen), **plan}))

        def given(self):
            return self.seen.read_text(encoding="utf-8")

    return Editor()


def memo(binary, environment, *arguments):
    return subprocess.run([binary, *arguments], env=environment, capture_output=True, text=True, check=True).stdout


def texts(binary, environment):
    lines = memo(binary, environment, "--json", "list", "--asc").splitlines()
    return {json.loads(line)["id"]: json.loads(line)["content"] for line in lines}


def on_terminal(binary, environment, *arguments):
    child = pexpect.spawn(binary, list(arguments), env=environment, encoding="utf-8", timeout=20, dimensions=(40, 120))
    child.expect(pexpect.EOF)
    child.close()
    return child.before.replace("\r\n", "\n"), child.exitstatus


def add(binary, environment, *texts):
    for text in texts:
        memo(binary, environment, "add", "--", text)


def test_a_bulk_edit_edits_deletes_and_adds_as_one_change(memo_binary, store_environment, editor):
    add(memo_binary, store_environment, "first @work", "second @work\n%% #1 looks like a header", "other @home")
    before = texts(memo_binary, store_environment)
    editor.plans(texts={"2": "second, rewritten @work"}, delete=["1"], new=["added in the buffer", "and another"])
    assert on_terminal(memo_binary, store_environment, "edit", "--tag", "work") == (
        "edited #2; deleted #1; added #4 #5\n", 0)
    given = editor.given()
    assert given.startswith("%%% memo:")
    assert "\n%% #2 " in given and "\n%% #1 " in given and "\n%% #3 " not in given
    assert "\n\\%% #1 looks like a header\n" in given, "a text line like a header is quoted"
    assert texts(memo_binary, store_environment) == {
        2: "second, rewritten @work", 3: "other @home", 4: "added in the buffer", 5: "and another"}
    history = memo(memo_binary, store_environment, "history").splitlines()
    assert len(history) == 4 and "bulk-edit  4 memos" in history[0]
    assert memo(memo_binary, store_environment, "undo").startswith("undid change 4 (bulk-edit ")
    assert texts(memo_binary, store_environment) == before


def test_a_buffer_saved_unchanged_changes_nothing(memo_binary, store_environment, editor):
    add(memo_binary, store_environment, "one @work\n%%% like a comment\n\\%% quoted", "two @work\n\nend\n")
    editor.plans()
    assert on_terminal(memo_binary, store_environment, "edit", "--tag", "work") == (
        "nothing changed: the 2 memos are as they were\n", 0)
    assert len(memo(memo_binary, store_environment, "history").splitlines()) == 2


def test_nothing_selected_opens_no_editor(memo_binary, store_environment, editor):
    add(memo_binary, store_environment, "one @work")
    editor.plans(upper=True)
    assert on_terminal(memo_binary, store_environment, "edit", "--tag", "home") == (
        "nothing to edit: no memo matches\n", 0)
    assert not editor.seen.exists()


def test_an_editor_that_fails_changes_nothing(memo_binary, store_environment, editor):
    add(memo_binary, store_environment, "one @work")
    editor.plans(upper=True, status=3)
    output, status = on_terminal(memo_binary, store_environment, "edit", "--tag", "work")
    assert (output, status) == (f"error: the editor '{store_environment['EDITOR']}' failed (exit status 3); nothing changed\n", 1)
    assert texts(memo_binary, store_environment) == {1: "one @work"}


def test_the_repl_edits_several_memos_in_one_buffer(memo_binary, store_environment, editor):
    add(memo_binary, store_environment, "one @work", "two @work", "three")
    editor.plans(upper=True)
    child = pexpect.spawn(memo_binary, [], env=store_environment, encoding="utf-8", timeout=20)
    child.expect_exact(PROMPT)
    child.send("edit --tag work --asc\r")
    child.expect_exact("edited #1 #2")
    child.expect_exact(PROMPT)
    assert texts(memo_binary, store_environment) == {1: "ONE @WORK", 2: "TWO @WORK", 3: "three"}
    child.send("undo\r")
    child.expect_exact("undid change 4 (bulk-edit ")
    child.expect_exact(PROMPT)
    child.send("\x04")
    child.expect(pexpect.EOF)
    assert texts(memo_binary, store_environment) == {1: "one @work", 2: "two @work", 3: "three"}


def test_a_memo_changed_by_another_process_meanwhile_refuses_the_save_and_keeps_the_text(
        memo_binary, store_environment, editor, tmp_path):
    add(memo_binary, store_environment, "one @work", "two @work")
    opened, go = tmp_path / "opened", tmp_path / "go"
    os.mkfifo(go)
    store_environment["TMPDIR"] = str(tmp_path)
    editor.plans(texts={"1": "typed while another changed #2"}, opened=str(opened), go=str(go))
    child = pexpect.spawn(memo_binary, ["edit", "--tag", "work"], env=store_environment, encoding="utf-8", timeout=20)
    wait_until(opened.exists, lambda: "the editor never opened")
    memo(memo_binary, store_environment, "edit", "2", "changed by another process")
    with open(go, "w") as release:
        release.write("save\n")
    child.expect(pexpect.EOF)
    child.close()
    output = child.before.replace("\r\n", "\n")
    assert child.exitstatus == 1
    prefix = ("error: #2 was changed by someone else while the editor was open; "
              "nothing changed: the edited text is kept in ")
    assert output.startswith(prefix), output
    kept = output[len(prefix):].strip()
    assert kept.startswith(str(tmp_path) + "/")
    assert oct(os.stat(kept).st_mode & 0o777) == "0o600"
    assert "\ntyped while another changed #2\n" in open(kept, encoding="utf-8").read()
    assert texts(memo_binary, store_environment) == {1: "one @work", 2: "changed by another process"}
    assert "bulk-edit" not in memo(memo_binary, store_environment, "history")


def shell_editor(tmp_path, environment, line):
    """$EDITOR as a shell line run on the buffer's file, FILE."""
    script = tmp_path / "shell-editor"
    script.write_text("#!/bin/sh\n" + line.replace("FILE", '"$1"') + "\n")
    script.chmod(0o755)
    environment["EDITOR"] = str(script)


def piped(binary, environment, text, *arguments):
    result = subprocess.run([binary, *arguments], input=text, env=environment, capture_output=True, text=True)
    return result.stdout, result.stderr, result.returncode


def test_a_kept_buffer_given_again_on_standard_input_refuses_what_changed_since(
        memo_binary, store_environment, tmp_path):
    add(memo_binary, store_environment, "one @x", "two @x")
    copy = tmp_path / "buffer"
    # The editor keeps a copy and quits with an error: the buffer, as written, changes nothing.
    shell_editor(tmp_path, store_environment, f"cp FILE '{copy}'; exit 1")
    assert on_terminal(memo_binary, store_environment, "edit", "--tag", "x")[1] == 1
    memo(memo_binary, store_environment, "edit", "2", "changed elsewhere @x")
    buffer = copy.read_text().replace("\none @x\n", "\none, typed @x\n")
    store_environment["TMPDIR"] = str(tmp_path)
    stdout, stderr, status = piped(memo_binary, store_environment, buffer, "edit", "--tag", "x")
    assert (stdout, status) == ("", 1)
    assert stderr.startswith("error: #2 was changed since the buffer was written (its header names an older version)"
                             "; nothing changed: the edited text is kept in "), stderr
    assert texts(memo_binary, store_environment) == {1: "one @x", 2: "changed elsewhere @x"}


def test_a_partial_buffer_on_standard_input_deletes_nothing_it_leaves_out(memo_binary, store_environment):
    add(memo_binary, store_environment, "one @x", "two @x", "three @x")
    assert piped(memo_binary, store_environment, "%% #1\nchanged @x\n", "edit", "--tag", "x") == (
        "edited #1\n", "", 0)
    assert texts(memo_binary, store_environment) == {1: "changed @x", 2: "two @x", 3: "three @x"}


@pytest.mark.parametrize("text", ["abc\r", "line\r\n\r", "a\r\n\r\n", "\r%% x"])
def test_a_buffer_saved_unchanged_leaves_texts_with_cr_as_they_were(memo_binary, store_environment, tmp_path, text):
    memo(memo_binary, store_environment, "add", "--tag", "x", "--", text)
    shell_editor(tmp_path, store_environment, "true")
    assert on_terminal(memo_binary, store_environment, "edit", "--tag", "x") == (
        "nothing changed: the memo is as it was\n", 0)
    assert texts(memo_binary, store_environment) == {1: text}
    assert len(memo(memo_binary, store_environment, "history").splitlines()) == 1


@pytest.mark.parametrize("how", ["indent", "bom"])
def test_an_indented_header_or_a_byte_order_mark_changes_nothing(memo_binary, store_environment, tmp_path, how):
    """An editor's autoindent before a header, or the byte-order mark some editors write."""
    add(memo_binary, store_environment, "one @x", "two @x")
    change = "sed -i 's/^%% #1 /   %% #1 /' FILE" if how == "indent" else "sed -i '1s/^/\\xef\\xbb\\xbf/' FILE"
    shell_editor(tmp_path, store_environment, change)
    assert on_terminal(memo_binary, store_environment, "edit", "--tag", "x") == (
        "nothing changed: the 2 memos are as they were\n", 0)
    assert texts(memo_binary, store_environment) == {1: "one @x", 2: "two @x"}


def test_nothing_changed_in_json_is_the_documented_object(memo_binary, store_environment, tmp_path):
    add(memo_binary, store_environment, "one @x")
    shell_editor(tmp_path, store_environment, "true")
    assert on_terminal(memo_binary, store_environment, "--json", "edit", "--tag", "x") == (
        '{"edited":[],"deleted":[],"added":[]}\n', 0)


def test_options_of_edit_without_an_id_are_explained(memo_binary, store_environment):
    add(memo_binary, store_environment, "one @x")
    result = subprocess.run([memo_binary, "edit", "1", "--date", "2024-01-01", "--tag", "x"], env=store_environment,
                            capture_output=True, text=True)
    assert (result.stderr, result.returncode) == (
        "error: 'edit ID' takes no '--tag': filters select the memos of 'edit' without an id\n", 2)
    script = subprocess.run([memo_binary, "run", "-"], input="add one @x\nedit --tag x\n", env=store_environment,
                            capture_output=True, text=True)
    assert script.stderr == ("<stdin>:2: error: 'edit' needs an editor, which scripts and the server do not have: "
                             "edit ID TEXT, one memo at a time\n")
