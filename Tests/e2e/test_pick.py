"""Ids for pipes and picking with the real fzf (docs/REFERENCE.md, Picking memos): `list --ids`
and `search --ids` through real pipes, and `pick` and `-i` on a terminal tmux draws, where fzf
shows the memos and the preview, narrows as a query is typed, selects with Tab and picks with
Enter; each step waits for what the screen shows."""
import json
import os
import shutil
import subprocess

import pytest

from waiting import wait_until

pytestmark = pytest.mark.skipif(shutil.which("fzf") is None or shutil.which("tmux") is None,
                                reason="fzf and tmux are not installed (scripts/test installs them)")

TEXTS = ["alpha plan @old", "beta plan", "gamma notes @old", "delta list @old"]


@pytest.fixture
def store_environment(memo_binary, store_environment):
    """$MEMO_STORE naming a store that holds TEXTS as memos #1 to #4."""
    environment = store_environment
    for text in TEXTS:
        subprocess.run([memo_binary, "add", text], env=environment, check=True, capture_output=True)
    return environment


def contents(binary, environment):
    listed = subprocess.run([binary, "--json", "list", "--asc"], env=environment, capture_output=True, text=True,
                            check=True)
    return [json.loads(line)["content"] for line in listed.stdout.splitlines()]


class Terminal:
    """A shell in a tmux window of 120 by 30, its environment that of the test."""

    def __init__(self, environment, folder):
        self.tmux = ["tmux", "-L", f"memo-pick-{os.getpid()}"]
        self.folder = folder
        variables = " ".join(f"{name}='{value}'" for name, value in environment.items())
        subprocess.run(self.tmux + ["kill-server"], capture_output=True)
        subprocess.run(self.tmux + ["new-session", "-d", "-x", "120", "-y", "30",
                                    f"env -i {variables} bash --norc --noprofile -i"], check=True)
        self.keys("PS1='$ '", "Enter")
        self.wait_for(lambda rows: rows and rows[-1] == "$", "no shell prompt")

    def keys(self, *keys):
        subprocess.run(self.tmux + ["send-keys"] + list(keys), check=True)

    def type(self, text):
        subprocess.run(self.tmux + ["send-keys", "-l", text], check=True)

    def rows(self):
        screen = subprocess.run(self.tmux + ["capture-pane", "-p"], capture_output=True, text=True, check=True).stdout
        return [row.rstrip() for row in screen.splitlines() if row.strip()]

    def wait_for(self, condition, what):
        wait_until(lambda: condition(self.rows()), lambda: f"{what}; the screen:\n" + "\n".join(self.rows()))

    def run(self, command):
        """Types `command` at the shell, followed by an echo of its exit status."""
        self.keys("clear", "Enter")
        self.wait_for(lambda rows: rows == ["$"], "the screen was not cleared")
        self.type(f"{command}; echo status=$?")
        self.keys("Enter")

    def wait_for_fzf(self, count):
        """fzf is up: its prompt, `count` memos listed, and the preview of the first."""
        self.wait_for(lambda rows: any(row.startswith("pick>") for row in rows)
                      and any(f"{count}/{count}" in row for row in rows)
                      and any("uuid:" in row for row in rows), f"fzf does not show {count} memos and a preview")

    def close(self):
        subprocess.run(self.tmux + ["kill-server"], capture_output=True)


@pytest.fixture
def terminal(store_environment, tmp_path):
    shell = Terminal(store_environment, tmp_path)
    yield shell
    shell.close()


def test_pick_shows_the_memos_and_the_preview_narrows_and_prints_the_two_picked(memo_binary, terminal, tmp_path):
    picked = tmp_path / "picked"
    terminal.run(f"{memo_binary} pick | tee {picked}")
    terminal.wait_for_fzf(4)
    rows = terminal.rows()
    for number, text in enumerate(TEXTS, start=1):
        shown = text.split(" @")[0]
        assert any(f"#{number}  " in row and shown in row for row in rows), f"#{number} is not listed:\n" + "\n".join(rows)
    # The preview is what `memo show` shows of the memo under the cursor, the newest.
    assert any("delta list @old" in row and "│" in row.split("delta")[0] for row in rows)
    assert any("tags:     @old" in row for row in rows)
    terminal.type("plan")
    terminal.wait_for(lambda rows: any("2/4" in row for row in rows), "typing a query does not narrow to two")
    terminal.keys("Tab")
    terminal.wait_for(lambda rows: any("(1)" in row for row in rows), "Tab does not select")
    terminal.keys("Tab")
    terminal.wait_for(lambda rows: any("(2)" in row for row in rows), "Tab does not select a second")
    terminal.keys("Enter")
    terminal.wait_for(lambda rows: "status=0" in rows, "pick did not end with status 0")
    assert sorted(picked.read_text().splitlines()) == ["1", "2"]


def test_delete_interactive_deletes_exactly_the_picked(memo_binary, terminal, store_environment):
    terminal.run(f"{memo_binary} delete -i --tag old")
    terminal.wait_for_fzf(3)
    terminal.keys("Tab", "Tab")
    terminal.wait_for(lambda rows: any("(2)" in row for row in rows), "Tab does not select two")
    terminal.keys("Enter")
    terminal.wait_for(lambda rows: "status=0" in rows, "delete -i did not end with status 0")
    assert any(row.startswith("deleted #4 #3") for row in terminal.rows())
    assert contents(memo_binary, store_environment) == ["alpha plan @old", "beta plan"]


@pytest.mark.parametrize("key", ["Escape", "C-c"])
def test_escape_or_ctrl_c_picks_nothing_and_changes_nothing(memo_binary, terminal, store_environment, key):
    terminal.run(f"{memo_binary} delete -i")
    terminal.wait_for_fzf(4)
    terminal.keys("Tab")
    terminal.wait_for(lambda rows: any("(1)" in row for row in rows), "Tab does not select")
    terminal.keys(key)
    terminal.wait_for(lambda rows: "status=1" in rows, f"{key} did not end the pick with status 1")
    assert terminal.rows() == ["$ " + f"{memo_binary} delete -i; echo status=$?", "status=1", "$"]
    assert contents(memo_binary, store_environment) == TEXTS


def test_show_interactive_in_the_repl_gives_the_terminal_back(memo_binary, terminal, store_environment):
    terminal.run(memo_binary)
    terminal.wait_for(lambda rows: rows[-1] == "memo>", "no REPL prompt")
    terminal.type("show -i gamma OR delta")
    terminal.keys("Enter")
    terminal.wait_for_fzf(2)
    terminal.type("gam")
    terminal.wait_for(lambda rows: any("1/2" in row for row in rows), "the query does not narrow to gamma")
    terminal.keys("Enter")
    terminal.wait_for(lambda rows: rows[-1] == "memo>" and "tags:     @old" in rows and "gamma notes @old" in rows,
                      "show -i does not show the memo picked and come back to the prompt")
    # libedit has the terminal again, in its own mode: a line typed runs.
    terminal.type("count")
    terminal.keys("Enter")
    terminal.wait_for(lambda rows: rows[-2:] == ["4", "memo>"], "the REPL does not read lines after fzf")
    terminal.type("delete -i")
    terminal.keys("Enter")
    terminal.wait_for_fzf(4)
    terminal.keys("Escape")
    terminal.wait_for(lambda rows: rows[-2:] == ["memo> delete -i", "memo>"],
                      "Esc in the REPL is not silent, or does not come back to the prompt")
    assert contents(memo_binary, store_environment) == TEXTS


def test_without_fzf_one_line_names_the_package(memo_binary, store_environment, tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    for command in (["pick"], ["delete", "-i", "--tag", "old"], ["show", "-i", "plan"]):
        result = subprocess.run([memo_binary] + command, env=dict(store_environment, PATH=str(empty)),
                                capture_output=True, text=True)
        assert (result.returncode, result.stdout) == (1, "")
        assert result.stderr == "error: picking memos needs fzf, which is not installed: install the Debian package 'fzf'\n"
    assert contents(memo_binary, store_environment) == TEXTS


def test_no_terminal_is_a_clear_refusal(memo_binary, store_environment, tmp_path):
    script = tmp_path / "script.memo"
    script.write_text("pick\n")
    for command in ([memo_binary, "run", "--store", store_environment["MEMO_STORE"], str(script)],
                    ["setsid", "-w", memo_binary, "delete", "-i"]):
        result = subprocess.run(command, env=store_environment, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert result.returncode == 1 and result.stdout == ""
        assert len(result.stderr.splitlines()) == 1 and "terminal" in result.stderr, result.stderr
    assert contents(memo_binary, store_environment) == TEXTS


def test_list_ids_go_through_pipes(memo_binary, store_environment, tmp_path):
    deleted = subprocess.run(f"'{memo_binary}' list --ids --tag old | xargs '{memo_binary}' delete", shell=True,
                             env=store_environment, capture_output=True, text=True)
    assert (deleted.returncode, deleted.stdout, deleted.stderr) == (0, "deleted #4 #3 #1\n", "")
    assert contents(memo_binary, store_environment) == ["beta plan"]
    assert subprocess.run([memo_binary, "--json", "search", "--ids", "beta"], env=store_environment,
                          capture_output=True, text=True).stdout == "2\n"


def test_a_closed_pipe_ends_list_ids_quietly_as_list(memo_binary, environment, tmp_path):
    records = tmp_path / "many.jsonl"
    records.write_text("".join(json.dumps({"content": f"memo {n}"}) + "\n" for n in range(15000)))
    environment["MEMO_STORE"] = str(tmp_path / "many.sqlite")
    subprocess.run([memo_binary, "import", str(records)], env=environment, check=True, capture_output=True)
    ends = {}
    for options in ("list", "list --ids"):
        piped = subprocess.run(["bash", "-c", f"'{memo_binary}' {options} | head -1; echo status=${{PIPESTATUS[0]}}"],
                               env=environment, capture_output=True, text=True)
        assert piped.stderr == ""
        ends[options] = piped.stdout.splitlines()
    assert ends["list --ids"][0] == "15000"
    assert ends["list --ids"][1] == ends["list"][1]


def test_the_server_refuses_to_pick(memo_binary, store_environment):
    from test_server import exit_status, initialize, serve

    async def body(client):
        await initialize(client)
        for line in ("pick", "delete -i --tag old", "list --ids --tag old"):
            executed = await client.call("memo/execute", {"line": line})
            if line.startswith("list"):
                assert (executed.ok, executed.output) == (True, "4\n3\n1\n")
            else:
                assert executed.ok is False
                assert executed.output == ("error: picking memos needs a person at a terminal (fzf), which scripts and "
                                           "the server have not: name the memos by id (memo list --ids gives them)\n")
        return await exit_status(client)

    assert serve(memo_binary, store_environment, store_environment["MEMO_STORE"], body) == 0
    assert contents(memo_binary, store_environment) == TEXTS


@pytest.mark.parametrize("has_fzf", [True, False])
def test_install_recommends_fzf_where_it_is_missing(memo_binary, home, tmp_path, has_fzf):
    """scripts/install names the package to install for `pick` when fzf is not on PATH, and
    says nothing of it when it is."""
    tools = tmp_path / "tools"
    tools.mkdir()
    for name in os.listdir("/usr/bin"):
        if has_fzf or name != "fzf":
            (tools / name).symlink_to(os.path.join("/usr/bin", name))
    environment = {"HOME": str(home), "PATH": str(tools), "LANG": "C.UTF-8", "MEMO_BINARY": memo_binary}
    script = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "install")
    installed = subprocess.run([script, str(tmp_path / "prefix")], env=environment, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    note = "note: 'memo pick' and '-i' need fzf; install the Debian package: sudo apt install fzf"
    assert (note in installed.stdout.splitlines()) is not has_fzf


def test_a_store_in_memory_previews_too(memo_binary, terminal, tmp_path):
    """No other process can open a store in memory: the preview reads the texts `show` gives,
    written to a private folder in $TMPDIR for the pick's time."""
    terminal.run(f"TMPDIR={tmp_path} {memo_binary} --in-memory --fixture sample pick")
    terminal.wait_for_fzf(20)
    folders = list(tmp_path.glob("memo-pick-*"))
    assert len(folders) == 1 and oct(folders[0].stat().st_mode & 0o777) == "0o700"
    terminal.keys("Enter")
    terminal.wait_for(lambda rows: "status=0" in rows and "20" in rows, "pick in memory did not print #20")
    assert list(tmp_path.glob("memo-pick-*")) == []


def preview_rows(rows):
    """What the preview pane shows: each row's part right of fzf's border."""
    return [row.split("│", 1)[1].strip(" │") for row in rows if "│" in row]


@pytest.mark.parametrize("options", ["--print-query", "--expect=1"])
def test_a_query_or_key_fzf_settings_print_acts_on_nothing_else(memo_binary, terminal, store_environment, options):
    """With FZF_DEFAULT_OPTS that make fzf print the query or a key name first, the `1` typed
    is neither read as memo #1 nor ends the pick: exactly the memo under the cursor goes."""
    subprocess.run([memo_binary, "add", "item 1 of five"], env=store_environment, check=True, capture_output=True)
    terminal.run(f"FZF_DEFAULT_OPTS='{options}' {memo_binary} delete -i item")
    terminal.wait_for_fzf(1)
    terminal.type("1")
    terminal.wait_for(lambda rows: any(row.startswith("pick> 1") for row in rows) and any("1/1" in row for row in rows),
                      "typing 1 does not keep #5 listed")
    terminal.keys("Enter")
    terminal.wait_for(lambda rows: "status=0" in rows, "delete -i did not end with status 0")
    assert "deleted #5" in terminal.rows()
    assert contents(memo_binary, store_environment) == TEXTS


@pytest.mark.parametrize("options", ["--read0", "--print0", "--expect=ctrl-x", "--select-1", "--delimiter=:"])
def test_fzf_settings_that_change_its_output_do_not_change_what_is_picked(memo_binary, terminal, store_environment,
                                                                         options):
    """Each memo is its own line to pick, previewed, whatever FZF_DEFAULT_OPTS says; only Enter
    picks (a key `--expect` names does not), and a single memo listed is still asked about."""
    terminal.run(f"FZF_DEFAULT_OPTS='{options}' {memo_binary} delete -i --tag old")
    terminal.wait_for_fzf(3)
    terminal.keys("C-x", "Tab")
    terminal.wait_for(lambda rows: any("(1)" in row for row in rows), "fzf ended at Ctrl-X, or Tab does not select")
    terminal.keys("Tab")
    terminal.wait_for(lambda rows: any("(2)" in row for row in rows), "Tab does not select two")
    terminal.keys("Enter")
    terminal.wait_for(lambda rows: "status=0" in rows, "delete -i did not end with status 0")
    assert any(row.startswith("deleted #4 #3") for row in terminal.rows())
    assert contents(memo_binary, store_environment) == ["alpha plan @old", "beta plan"]
    terminal.run(f"FZF_DEFAULT_OPTS='{options}' {memo_binary} delete -i alpha")
    terminal.wait_for_fzf(1)
    terminal.keys("Escape")
    terminal.wait_for(lambda rows: "status=1" in rows, "Esc did not end the pick with status 1")
    assert contents(memo_binary, store_environment) == ["alpha plan @old", "beta plan"]


def test_a_batch_previews_its_own_texts(memo_binary, terminal, store_environment):
    """Inside a REPL batch on a store file the preview shows the batch's memos as the list
    does: the new memo, and the edited one's new text, not the saved file's."""
    terminal.run(memo_binary)
    terminal.wait_for(lambda rows: rows[-1] == "memo>", "no REPL prompt")
    for line in ["begin", "add batch only", "edit 1 changed text"]:
        terminal.type(line)
        terminal.keys("Enter")
        terminal.wait_for(lambda rows: any(row.endswith("> " + line) for row in rows) and rows[-1] == "memo*>",
                          f"{line} did not end in the batch")
    terminal.type("pick")
    terminal.keys("Enter")
    terminal.wait_for_fzf(5)
    terminal.wait_for(lambda rows: "#5" in preview_rows(rows) and "batch only" in preview_rows(rows),
                      "the preview does not show the batch's new memo")
    terminal.type("changed")
    terminal.wait_for(lambda rows: "#1" in preview_rows(rows) and "changed text" in preview_rows(rows),
                      "the preview does not show the batch's edit of #1")
    assert not any("error" in row for row in preview_rows(terminal.rows()))
    terminal.keys("Escape")
    terminal.wait_for(lambda rows: rows[-2:] == ["memo*> pick", "memo*>"], "Esc did not end the pick")


def test_edit_interactive_opens_the_two_picked_in_one_buffer(memo_binary, terminal, store_environment, tmp_path):
    """Two memos picked for `edit -i` open together, one header each, in one bulk-edit buffer."""
    opened = tmp_path / "opened"
    editor = tmp_path / "editor"
    editor.write_text(f"#!/bin/sh\ncat \"$1\" > '{opened}'\n")
    editor.chmod(0o755)
    terminal.run(f"EDITOR={editor} VISUAL= {memo_binary} edit -i --tag old")
    terminal.wait_for_fzf(3)
    terminal.keys("Tab", "Tab")
    terminal.wait_for(lambda rows: any("(2)" in row for row in rows), "Tab does not select two")
    terminal.keys("Enter")
    terminal.wait_for(lambda rows: any(row.startswith("status=") for row in rows), "edit -i did not end")
    headers = [line for line in opened.read_text().splitlines() if line.startswith("%% #")]
    assert [header.split()[1] for header in headers] == ["#4", "#3"], opened.read_text()
    assert contents(memo_binary, store_environment) == TEXTS
