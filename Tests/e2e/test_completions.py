"""Shell completion scripts run by the real shells, the manual page through groff, and
scripts/install into a temporary prefix."""
import json
import os
import pathlib
import re
import shutil
import subprocess

import pexpect
import pytest

from waiting import wait_until

REPO = pathlib.Path(__file__).resolve().parents[2]
BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"


@pytest.fixture
def shell_environment(memo_binary, environment, home, tmp_path):
    """`memo` on the PATH, and a store with two memos: #1 tagged errand, #2 tagged family."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "memo").symlink_to(memo_binary)
    environment["PATH"] = f"{folder}:/usr/bin:/bin"
    environment["MEMO_STORE"] = str(home / "store.sqlite")
    for arguments in (["add", "Buy milk @errand"], ["add", "--tag", "family", "Call grandmother"]):
        subprocess.run([memo_binary] + arguments, env=environment, check=True, capture_output=True)
    return environment


def need(program):
    if shutil.which(program) is None:
        pytest.skip(f"{program} is not installed (scripts/test installs it)")


def bash_completions(environment, line):
    script = ('source <(memo completions bash); complete -p memo; '
              f'COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}; read -ra COMP_WORDS <<< "$COMP_LINE"; '
              '[[ $COMP_LINE == *" " ]] && COMP_WORDS+=(""); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); '
              '_memo; printf "%s\\n" "${COMPREPLY[@]}"')
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], env=environment,
                            capture_output=True, text=True, check=True)
    registration, *candidates = result.stdout.splitlines()
    assert registration == "complete -o default -o nosort -F _memo memo"
    return candidates


def test_bash_completes_commands_options_tags_and_ids(shell_environment):
    need("bash")
    assert bash_completions(shell_environment, "memo li") == ["links", "list"]
    assert bash_completions(shell_environment, "memo lis") == ["list"]
    assert bash_completions(shell_environment, "memo --in") == ["--in-memory"]
    assert bash_completions(shell_environment, "memo list --as") == ["--asc"]
    assert bash_completions(shell_environment, "memo list --tag er") == ["errand"]
    assert bash_completions(shell_environment, "memo add @fam") == ["@family"]
    assert bash_completions(shell_environment, "memo show ") == ["1", "2"]
    assert bash_completions(shell_environment, "memo --fixture sa") == ["sample"]
    assert bash_completions(shell_environment, "memo completions z") == ["zsh"]


def test_fish_completes_with_the_first_line_beside_an_id(shell_environment):
    need("fish")

    def complete(line):
        result = subprocess.run(["fish", "--no-config", "-c", f"memo completions fish | source; complete -C {line!r}"],
                                env=shell_environment, capture_output=True, text=True, check=True)
        return result.stdout.splitlines()

    assert complete("memo li") == ["links", "list"]
    assert complete("memo lis") == ["list"]
    assert "--asc" in complete("memo list --")
    assert complete("memo list --tag fa") == ["family"]
    assert complete("memo show ") == ["1\tBuy milk @errand", "2\tCall grandmother"]


def test_fish_offers_files_where_memo_reads_them_and_store_only_before_the_command(shell_environment, tmp_path):
    need("fish")
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "laptop.sqlite").write_text("")

    def complete(line):
        result = subprocess.run(["fish", "--no-config", "-c", f"memo completions fish | source; complete -C {line!r}"],
                                env=shell_environment, cwd=folder, capture_output=True, text=True, check=True)
        return result.stdout.splitlines()

    for command in ["sync", "import", "export", "run", "test"]:
        assert complete(f"memo {command} lap") == ["laptop.sqlite"], command
    assert complete("memo --store lap") == ["laptop.sqlite"]
    assert complete("memo --st") == ["--store"]
    # memo refuses --store after the command (global options come first).
    assert complete("memo list --st") == []
    assert complete("memo --store laptop.sqlite list --st") == []
    assert "--store" not in complete("memo sync laptop.sqlite --")
    assert complete("memo show lap") == []


def test_zsh_completes_and_lists_ids_with_their_first_line(shell_environment, tmp_path):
    need("zsh")
    buffer = tmp_path / "buffer"
    shell_environment["PS1"] = "zsh> "
    child = pexpect.spawn("zsh", ["-f", "-i"], env=shell_environment, encoding="utf-8", timeout=10, dimensions=(30, 100))
    child.expect_exact("zsh> ")
    # Ctrl-X writes the line being edited to a file: what completion made of it.
    child.send("autoload -Uz compinit && compinit -u -D && source <(memo completions zsh); "
               f"show-buffer() {{ print -r -- \"$BUFFER\" > '{buffer}'; BUFFER=; zle accept-line }}; "
               "zle -N show-buffer; bindkey '^X' show-buffer\r")
    child.expect_exact("zsh> ")

    def complete(typed):
        # zsh reads keys in order: the Tab's completion (which runs memo) is done before Ctrl-X.
        child.send(typed + "\t\x18")
        child.expect_exact("zsh> ")
        return buffer.read_text().rstrip("\n")

    assert complete("memo lis") == "memo list "
    assert complete("memo list --as") == "memo list --asc "
    assert complete("memo list --tag er") == "memo list --tag errand "
    assert complete("memo show 2") == "memo show 2 "
    child.send("memo show \t")
    child.expect_exact("1 -- Buy milk @errand")
    child.expect_exact("2 -- Call grandmother")
    child.sendcontrol("c")
    child.expect_exact("zsh> ")


@pytest.fixture
def many_memos(shell_environment, memo_binary, tmp_path):
    """The store holds 7,150 memos: ids 7, 70…79, 700…799 and 7000…7150 all start with 7, and
    the 50 newest of them (7101…7150) with 71."""
    records = tmp_path / "many.jsonl"
    records.write_text("".join(
        json.dumps({"uuid": f"00000000-0000-4000-8000-{number:012d}", "content": f"memo {number}",
                    "insertDate": "2024-01-01T00:00:00Z"}) + "\n" for number in range(1, 7151)))
    subprocess.run([memo_binary, "import", str(records)], env=shell_environment, check=True, capture_output=True)
    return shell_environment


class InteractiveShell:
    """A real shell on a terminal where Ctrl-X writes the line being edited to a file and
    empties it: `typed(keys)` is what the shell made of the keys (Tab included)."""

    def __init__(self, program, arguments, environment, setup, buffer):
        self.buffer = buffer
        self.child = pexpect.spawn(program, arguments, env=environment, encoding="utf-8", timeout=10,
                                   dimensions=(40, 200))
        self.child.expect_exact("ready> ")
        self.child.send(setup + "\r")
        self.child.expect_exact("ready> ")

    def typed(self, keys):
        self.buffer.unlink(missing_ok=True)
        self.child.send(keys + "\x18")
        wait_until(lambda: self.buffer.exists() and self.buffer.read_text().endswith("\n"),
                   lambda: f"no line after {keys!r}: {self.child.before!r}")
        return self.buffer.read_text().removesuffix("\n")

    def close(self):
        self.child.close(force=True)


@pytest.fixture(params=["bash", "zsh", "fish"])
def interactive_shell(request, tmp_path):
    """Starts the parametrized shell with memo's completion loaded, in `environment`."""
    need(request.param)
    buffer = tmp_path / "buffer"
    shells = {
        "bash": (["--norc", "--noprofile", "-i"],
                 f"source <(memo completions bash); bind -x '\"\\C-x\": printf \"%s\\n\" \"$READLINE_LINE\" > {buffer}; READLINE_LINE='"),
        "zsh": (["-f", "-i"],
                "autoload -Uz compinit && compinit -u -D && source <(memo completions zsh); "
                f"show-buffer() {{ print -r -- \"$BUFFER\" > '{buffer}'; BUFFER= }}; "
                "zle -N show-buffer; bindkey '^X' show-buffer"),
        "fish": (["--no-config", "-i", "-C", "function fish_prompt; echo -n 'ready> '; end; set -g fish_greeting"],
                 f"memo completions fish | source; bind \\cx 'commandline > {buffer}; commandline \"\"'"),
    }
    arguments, setup = shells[request.param]
    started = []

    def start(environment):
        shell = InteractiveShell(request.param, arguments, dict(environment, PS1="ready> "), setup, buffer)
        started.append(shell)
        return shell

    yield start
    for shell in started:
        shell.close()


def test_tab_on_a_cut_id_list_inserts_only_what_all_matching_ids_share(many_memos, interactive_shell):
    """More ids match than are offered: the shell must not fill in digits that only the
    offered (newest) ones share."""
    shell = interactive_shell(many_memos)
    assert shell.typed("memo show 7\t") == "memo show 7"
    assert shell.typed("memo show \t") == "memo show "
    assert shell.typed("memo delete #7\t") == "memo delete #7"
    assert shell.typed("memo show 715\t") == "memo show 715"
    assert shell.typed("memo show 7149\t") == "memo show 7149 "


def test_ids_are_offered_in_number_order(shell_environment, memo_binary, tmp_path):
    """1 2 … 10 11 12, not the text order 1 10 11 12 2 that the shells sort words into."""
    for number in range(3, 13):
        subprocess.run([memo_binary, "add", f"memo {number}"], env=shell_environment, check=True, capture_output=True)
    numbers = [str(number) for number in range(1, 13)]
    need("bash")
    assert bash_completions(shell_environment, "memo show ") == numbers
    need("fish")
    fish = subprocess.run(["fish", "--no-config", "-c", "memo completions fish | source; complete -C 'memo show '"],
                          env=shell_environment, capture_output=True, text=True, check=True)
    assert [line.split("\t")[0] for line in fish.stdout.splitlines()] == numbers
    need("zsh")
    shell_environment["PS1"] = "zsh> "
    child = pexpect.spawn("zsh", ["-f", "-i"], env=shell_environment, encoding="utf-8", timeout=10, dimensions=(40, 60))
    child.expect_exact("zsh> ")
    child.send("autoload -Uz compinit && compinit -u -D && source <(memo completions zsh)\r")
    child.expect_exact("zsh> ")
    child.send("memo show \t")
    child.expect_exact("12 -- memo 12")
    listing = re.findall(r"(\d+) -- ", child.before) + ["12"]
    child.close(force=True)
    assert listing == numbers


def test_completion_never_creates_a_store(memo_binary, environment, home):
    environment["MEMO_STORE"] = str(home / "absent.sqlite")
    result = subprocess.run([memo_binary, "__complete", "memo show "], env=environment, capture_output=True, text=True)
    assert (result.stdout, result.returncode) == ("", 0)
    assert not (home / "absent.sqlite").exists()


def test_the_manual_page_covers_every_command_and_renders_without_warnings(memo_binary, environment, tmp_path):
    need("groff")
    page = tmp_path / "memo.1"
    page.write_text(subprocess.run([memo_binary, "__manual"], env=environment, capture_output=True, text=True,
                                   check=True).stdout)
    rendered = subprocess.run(["groff", "-man", "-ww", "-Tutf8", "-P", "-c", "-P", "-b", "-P", "-u", str(page)],
                              capture_output=True, text=True)
    assert rendered.returncode == 0
    assert rendered.stderr == ""
    text = rendered.stdout
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "DATES", "ENVIRONMENT", "FILES",
                    "EXIT STATUS"]:
        assert f"\n{section}\n" in text, section
    dates = " ".join(text.split("\nDATES\n")[1].split("\nENVIRONMENT\n")[0].split())
    for form in ["2 days ago", "last/this/next WEEKDAY", "last friday", "yesterday 21:30", "noon", "--date=WORD"]:
        assert form in dates, form
    help_text = subprocess.run([memo_binary, "--help"], env=environment, capture_output=True, text=True).stdout
    commands = [line.split()[0] for line in help_text.split("commands:\n")[1].splitlines() if line.startswith("  ")]
    assert len(commands) > 20
    for command in commands:
        assert f"\n       {command} " in text or f"\n       {command}\n" in text, command
    for name in ["MEMO_STORE", "VISUAL, EDITOR", "MEMO_PAGER, PAGER", "--no-pager", "--in-memory"]:
        assert name in text, name
    for status in ["0", "1", "2", "3"]:
        assert f"\n       {status}      " in text or f"\n       {status}\n" in text, status


def test_install_then_uninstall_leaves_the_prefix_as_it_was(memo_binary, environment, tmp_path):
    prefix = tmp_path / "prefix"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "someone-else").write_text("kept\n")
    before = sorted(str(path.relative_to(prefix)) for path in prefix.rglob("*"))
    environment["MEMO_BINARY"] = memo_binary
    installed = subprocess.run([str(REPO / "scripts" / "install"), str(prefix)], env=environment,
                               capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    version = subprocess.run([str(prefix / "bin" / "memo"), "--version"], capture_output=True, text=True)
    assert version.stdout.startswith("memo ")
    assert (prefix / "share/man/man1/memo.1").read_text().startswith(".TH MEMO 1")
    assert "complete -o default -F _memo memo" in (prefix / "share/bash-completion/completions/memo").read_text()
    assert (prefix / "share/zsh/site-functions/_memo").read_text().startswith("#compdef memo")
    assert "__memo_complete" in (prefix / "share/fish/vendor_completions.d/memo.fish").read_text()
    removed = subprocess.run([str(REPO / "scripts" / "install"), "--uninstall", str(prefix)], env=environment,
                             capture_output=True, text=True)
    assert removed.returncode == 0, removed.stderr
    assert sorted(str(path.relative_to(prefix)) for path in prefix.rglob("*")) == before


@pytest.mark.parametrize("data_home", [None, "elsewhere"])
def test_each_shell_finds_the_completion_a_user_install_puts_in_place(memo_binary, home, tmp_path, data_home):
    """scripts/install with no PREFIX, then each real shell as that user: bash with
    bash-completion and fish find their files (also when XDG_DATA_HOME is not ~/.local/share);
    zsh, which has no folder of the user's in its default fpath, after the one line the
    install says to add."""
    environment = {"HOME": str(home), "PATH": f"{home}/.local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "TERM": "xterm",
                   "MEMO_BINARY": memo_binary, "MEMO_STORE": str(tmp_path / "store.sqlite")}
    if data_home:
        environment["XDG_DATA_HOME"] = str(tmp_path / data_home)
    installed = subprocess.run([str(REPO / "scripts" / "install")], env=environment, capture_output=True, text=True)
    assert installed.returncode == 0, installed.stderr
    data = pathlib.Path(environment.get("XDG_DATA_HOME", home / ".local/share"))
    written = [home / ".local/bin/memo", home / ".local/share/man/man1/memo.1", home / ".local/share/memo/installed",
               data / "bash-completion/completions/memo", data / "zsh/site-functions/_memo",
               data / "fish/vendor_completions.d/memo.fish"]
    assert [path for path in written if not path.is_file()] == []
    zsh_folder = data / "zsh/site-functions"
    assert installed.stdout.splitlines()[1:] == [
        f"note: zsh does not look in {zsh_folder}; for zsh completion add this line to {home}/.zshrc, before compinit:",
        f"  fpath=({zsh_folder} $fpath)"]
    buffer = tmp_path / "buffer"

    if os.path.exists(BASH_COMPLETION):
        shell = InteractiveShell("bash", ["--norc", "--noprofile", "-i"], dict(environment, PS1="ready> "),
                                 f"source {BASH_COMPLETION}; bind -x '\"\\C-x\": printf \"%s\\n\" \"$READLINE_LINE\" > {buffer}; READLINE_LINE='",
                                 buffer)
        assert shell.typed("memo lis\t") == "memo list "
        shell.close()
    need("fish")
    shell = InteractiveShell("fish", ["-i", "-C", "function fish_prompt; echo -n 'ready> '; end; set -g fish_greeting"],
                             environment, f"bind \\cx 'commandline > {buffer}; commandline \"\"'", buffer)
    assert shell.typed("memo lis\t") == "memo list "
    shell.close()
    need("zsh")
    (home / ".zshrc").write_text(installed.stdout.splitlines()[-1].strip() + "\nautoload -Uz compinit && compinit -u\n"
                                 f"show-buffer() {{ print -r -- \"$BUFFER\" > '{buffer}'; BUFFER= }}\n"
                                 "zle -N show-buffer; bindkey '^X' show-buffer\nPS1='ready> '\n")
    shell = InteractiveShell("zsh", ["-i"], environment, "", buffer)
    assert shell.typed("memo lis\t") == "memo list "
    shell.close()
    # Told where zsh looks now, a second install says nothing more.
    again = subprocess.run([str(REPO / "scripts" / "install")], env=environment, capture_output=True, text=True)
    assert again.stdout.splitlines()[1:] == []
    removed = subprocess.run([str(REPO / "scripts" / "install"), "--uninstall"], env=environment, capture_output=True, text=True)
    assert removed.returncode == 0, removed.stderr
    assert [path for path in written if path.exists()] == []
    assert not (home / ".local/bin").exists() and not (data / "bash-completion").exists()


@pytest.mark.parametrize("arguments, message", [
    (["--bogus"], "scripts/install: unknown option '--bogus' (see scripts/install --help)\n"),
    (["--uninstall", "-x"], "scripts/install: unknown option '-x' (see scripts/install --help)\n"),
    (["one", "two"], "scripts/install: give at most one PREFIX (see scripts/install --help)\n"),
])
def test_install_checks_its_arguments_before_anything_else(environment, tmp_path, arguments, message):
    """A wrong argument is refused at once (status 2), before any build: MEMO_BINARY names no
    file, so anything the script did first would fail differently."""
    folder = tmp_path / "work"
    folder.mkdir()
    environment["MEMO_BINARY"] = str(folder / "missing")
    result = subprocess.run([str(REPO / "scripts" / "install"), *arguments], env=environment, cwd=folder,
                            capture_output=True, text=True, timeout=20)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", message)
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("arguments", [["--help"], ["-h"], ["--uninstall", "--help"], ["prefix", "-h"]])
def test_install_help_is_its_usage(environment, tmp_path, arguments):
    folder = tmp_path / "work"
    folder.mkdir()
    environment["MEMO_BINARY"] = str(folder / "missing")
    result = subprocess.run([str(REPO / "scripts" / "install"), *arguments], env=environment, cwd=folder,
                            capture_output=True, text=True, timeout=20)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Installs memo for the current user, or under PREFIX:\n")
    assert list(folder.iterdir()) == []
