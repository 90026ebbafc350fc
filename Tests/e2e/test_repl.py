"""The REPL in a real pseudo-terminal: prompts, line editing, history, completion, signals."""
import fcntl
import io
import os
import shutil
import signal
import sqlite3
import stat
import struct
import subprocess
import termios

import pexpect
import pytest

from stores import create_store
from waiting import cpu_seconds, wait_for_cpu, wait_until

UP = "\x1b[A"
LEFT = "\x1b[D"
TAB = "\t"
CTRL_A = "\x01"
CTRL_C = "\x03"
CTRL_D = "\x04"

DISK_PROMPT = "memo> "
MEMORY_PROMPT = "memo(memory)> "
DISCARD = "quit and discard it? [y/N] "


class REPL:
    """One memo REPL session on a pseudo-terminal."""

    def __init__(self, binary, environment, *arguments):
        self.child = pexpect.spawn(binary, list(arguments), env=environment, encoding="utf-8",
                                   timeout=10, dimensions=(40, 120))
        self.prompt = MEMORY_PROMPT if "--in-memory" in arguments or "--fixture" in arguments else DISK_PROMPT

    def expect_prompt(self):
        self.child.expect_exact(self.prompt)

    def run(self, line):
        """Types `line` and Enter; returns what it printed before the next prompt."""
        self.child.send(line + "\r")
        self.expect_prompt()
        return self.output()

    def dialogue(self, *steps):
        """Each step is (keys, answer): types the keys and waits until memo shows the answer."""
        for keys, answer in steps:
            self.child.send(keys)
            self.child.expect_exact(answer)

    def heredoc(self, opener, *lines):
        """Types `opener` and then `lines`, each after the continuation prompt; returns what
        the whole printed before the next prompt."""
        self.child.send(opener + "\r")
        for line in lines:
            self.child.expect_exact("...> ")
            self.child.send(line + "\r")
        self.expect_prompt()
        return self.output()

    def output(self):
        lines = self.child.before.replace("\r\n", "\n").split("\n")
        return "\n".join(lines[1:]).strip("\n")

    def quit(self):
        self.child.send(CTRL_D)
        self.child.expect(pexpect.EOF)
        self.child.close()
        return self.child.exitstatus


@pytest.fixture
def repl(memo_binary, environment, home):
    sessions = []

    def start(*arguments):
        environment["MEMO_STORE"] = str(home / "store.sqlite")
        if not (home / "store.sqlite").exists():
            create_store(memo_binary, environment, home / "store.sqlite")
        session = REPL(memo_binary, environment, *arguments)
        session.expect_prompt()
        sessions.append(session)
        return session

    yield start
    for session in sessions:
        if session.child.isalive():
            session.child.terminate(force=True)


def test_prompts_show_where_you_are(repl):
    assert repl().run("count") == "0"
    assert repl("--in-memory").run("info").startswith("store:           in memory")


def test_arrow_keys_edit_what_runs(repl):
    session = repl("--in-memory")
    session.child.send("add wrld" + LEFT * 3 + "o" + "\r")
    session.expect_prompt()
    assert session.run("list").endswith("world")
    session.child.send("dd Edited" + CTRL_A + "a\r")
    session.expect_prompt()
    assert "Edited" in session.run("show 2")


def test_up_arrow_recalls_lines_across_sessions(repl):
    first = repl()
    first.run("add remembered line")
    first.child.send(UP + "\r")
    first.expect_prompt()
    assert first.run("count") == "2"
    assert first.quit() == 0

    second = repl()
    second.child.send(UP + UP + "\r")
    second.expect_prompt()
    assert second.output().startswith("added #3")


def test_tab_completes_commands_options_tags_and_fixtures(repl):
    session = repl("--fixture", "sample")
    session.child.send("cou" + TAB + "\r")
    session.expect_prompt()
    assert session.output() == "20"

    session.child.send("list --as" + TAB + "-n 1\r")
    session.expect_prompt()
    assert session.output().startswith("#1  2024-03-04 08:15:00  Buy milk")

    session.child.send("count --tag wo" + TAB + "\r")
    session.expect_prompt()
    assert session.output() == "4"

    session.child.send("add Fix the build @wo" + TAB + "\r")
    session.expect_prompt()
    assert session.run("tags").count("@work") == 1
    assert session.run("count --tag work") == "5"

    session.child.send("fixture bo" + TAB + "\r")
    session.expect_prompt()
    assert session.output() == "loaded fixture books: 10 memos"


def test_tab_lists_ids_with_their_first_line(repl):
    session = repl("--fixture", "sample")
    session.child.send("show 1" + TAB)
    session.child.expect_exact("1   Buy milk, eggs and coffee beans @shopping")
    session.child.send(CTRL_C)
    session.expect_prompt()


def test_heredoc_uses_the_continuation_prompt(repl):
    session = repl("--in-memory")
    assert session.heredoc("add <<END", "first line", "END") == "added #1"
    assert session.run("show 1").endswith("first line")


def test_a_heredoc_body_never_runs_as_commands(repl):
    """An opener line that is not a valid command still takes its body as text."""
    session = repl("--in-memory")
    session.run("add important")
    assert session.heredoc("ad <<END", "delete 1", "END   ") == "error: unknown command 'ad' (try 'help')"
    session.child.send("add << 'EOF'\rkept\rEOF\r")
    session.expect_prompt()
    assert session.run("count") == "2"
    assert session.run("show 2").endswith("kept")


def test_ctrl_d_in_a_heredoc_says_the_text_was_dropped(repl):
    session = repl("--in-memory")
    session.child.send("add <<END\rhalf a memo\r")
    session.child.expect_exact("...> ")
    session.child.send(CTRL_D)
    session.child.expect_exact("error: text ended before the heredoc's closing 'END'")
    session.child.expect(pexpect.EOF)


def test_tag_completion_ignores_case(repl):
    session = repl("--fixture", "sample")
    session.child.send("count --tag TRA" + TAB + "\r")
    session.expect_prompt()
    assert session.output().endswith("2")
    session.child.send("add Pack the bags @TRA" + TAB + "\r")
    session.expect_prompt()
    assert session.run("count --tag travel") == "3"
    assert "@TRA" not in session.run("list -n 1")


def test_search_in_the_repl(repl):
    session = repl("--fixture", "sample")
    session.child.send("sea" + TAB + "旅行\r")
    session.expect_prompt()
    assert "京都旅行の宿を予約する" in session.output()
    assert session.run("search 주말").count("#") == 1


def test_a_long_import_shows_progress_on_a_terminal(memo_binary, environment, tmp_path):
    records = tmp_path / "many.jsonl"
    records.write_text("".join(f'{{"content":"imported memo {n}"}}\n' for n in range(40_000)))
    environment["MEMO_STORE"] = str(tmp_path / "store.sqlite")
    child = pexpect.spawn(memo_binary, ["import", str(records)], env=environment, encoding="utf-8", timeout=120)
    child.expect_exact("importing [")
    child.expect_exact("imported 40000 records: 40000 added, 0 updated, 0 skipped")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_ctrl_c_during_a_one_shot_import_says_nothing_was_imported(memo_binary, environment, tmp_path):
    """The progress line is ended, the message stands on a line of its own, and memo dies of
    SIGINT as it always did, so the shell sees an interrupted command."""
    records = tmp_path / "many.jsonl"
    records.write_text("".join(f'{{"content":"imported memo {n}"}}\n' for n in range(400_000)))
    environment["MEMO_STORE"] = str(tmp_path / "store.sqlite")
    child = pexpect.spawn(memo_binary, ["import", str(records)], env=environment, encoding="utf-8", timeout=120)
    child.logfile_read = io.StringIO()
    child.expect_exact("importing [")
    child.expect_exact(" records")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    output = child.logfile_read.getvalue()
    assert "\r\ninterrupted: nothing imported\r\n" in output, repr(output[-300:])
    assert output.endswith("interrupted: nothing imported\r\n"), repr(output[-300:])
    assert "importing [" in output.rsplit("\r\n", 2)[0].rsplit("\r", 1)[-1], "the progress line was kept and ended"
    assert child.signalstatus == signal.SIGINT
    # The import created the store file: interrupted, it leaves none, as it leaves no memo.
    assert not os.path.exists(environment["MEMO_STORE"])


def test_ctrl_c_abandons_the_line_and_keeps_the_session(repl):
    session = repl("--in-memory")
    session.child.send("add never added")
    session.child.send(CTRL_C)
    session.expect_prompt()
    session.child.send("add <<END\rhalf a heredoc\r")
    session.child.send(CTRL_C)
    session.expect_prompt()
    assert session.run("count") == "0"
    assert session.child.isalive()


def test_errors_never_end_the_session(repl):
    session = repl("--in-memory")
    assert session.run("frobnicate") == "error: unknown command 'frobnicate' (try 'help')"
    assert session.run("show 99") == "error: no memo #99"
    assert session.quit() == 0


def test_ctrl_c_cancels_a_long_command_and_keeps_the_store(repl, home, tmp_path):
    """Whenever Ctrl-C comes, the command's transaction is rolled back: the prompt has no
    `*` (no batch left open) and the store is as it was."""
    fixture = tmp_path / "big.memo"
    with fixture.open("w") as file:
        for number in range(200_000):
            file.write(f"add generated memo {number}\n")
    # Moments as the CPU time the command has used: a whole run takes many seconds.
    for moment in (0.5, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.45, 0.6, 0.7, 0.8, 1.0):
        session = repl()
        started = cpu_seconds(session.child.pid)
        session.child.send(f"fixture {fixture}\r")
        wait_for_cpu(session.child, started + moment)
        session.child.send(CTRL_C)
        session.child.expect_exact("error: interrupted")
        assert session.child.expect_exact([DISK_PROMPT, "memo*> "]) == 0, f"a transaction stayed open (at {moment} s)"
        assert session.run("count") == "0"
        session.child.terminate(force=True)


def test_ctrl_c_cancels_a_long_listing(repl, home):
    store = home / "store.sqlite"
    first = repl()
    first.quit()
    with sqlite3.connect(store) as connection:
        connection.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) "
            "INSERT INTO memo(uuid, content, insert_date, word_count) "
            "SELECT printf('00000000-0000-4000-8000-%012d', i), 'memo number ' || i, 946684800000 + i * 1000, 3 FROM n")
    session = repl()
    session.child.send("list\r")
    session.child.expect_exact("memo number 29")
    session.child.send(CTRL_C)
    session.child.expect_exact("error: interrupted")
    session.expect_prompt()
    assert session.run("count") == "300000"


def test_listings_are_coloured_on_a_terminal(repl, environment):
    del environment["NO_COLOR"]
    session = repl("--fixture", "sample")
    assert "\x1b[33m#20\x1b[0m" in session.run("list -n 1")
    assert "\x1b[" not in repl("--fixture", "sample", "--no-color").run("list -n 1")


def test_an_empty_no_color_leaves_colour_on(repl, environment):
    """no-color.org: only a NO_COLOR that is set and not empty turns colour off."""
    environment["NO_COLOR"] = ""
    assert "\x1b[33m#20\x1b[0m" in repl("--fixture", "sample").run("list -n1")


def test_dumb_terminals_get_no_colour(repl, environment):
    del environment["NO_COLOR"]
    environment["TERM"] = "dumb"
    assert "\x1b[" not in repl("--fixture", "sample").run("list -n 1")


def test_an_open_batch_shows_in_the_prompt_and_quitting_asks_first(repl, memo_binary, environment, home):
    session = repl()
    session.dialogue(("begin\r", "memo*> "), ("add kept only if saved\r", "memo*> "),
                     (CTRL_D, "the batch has 1 unsaved change: " + DISCARD), ("n\r", "memo*> "),
                     ("quit\r", DISCARD), ("\r", "memo*> "),
                     ("save\r", "saved 1 change"), ("", DISK_PROMPT),
                     ("begin\radd discarded\rquit\r", DISCARD), ("y\r", pexpect.EOF))
    session.child.close()
    assert session.child.exitstatus == 0
    assert repl().run("count") == "1"


def test_ctrl_d_at_the_discard_question_answers_no_and_keeps_the_batch(repl):
    session = repl()
    session.dialogue(("begin\radd kept after ctrl-d\r", "added #1"), ("", "memo*> "),
                     (CTRL_D, DISCARD), (CTRL_D, "\r\nmemo*> "),
                     ("quit\r", DISCARD), (CTRL_D, "\r\nmemo*> "),
                     ("save\r", "saved 1 change"), ("", DISK_PROMPT))
    assert session.run("count") == "1"
    assert session.quit() == 0


def test_ctrl_d_exits_zero(repl):
    assert repl("--in-memory").quit() == 0


def test_history_file_is_private_capped_and_without_repeats(repl, home):
    history = home / ".local" / "state" / "memo" / "history"
    history.parent.mkdir(parents=True, mode=0o700)
    history.write_text("_HiStOrY_V2_\n" + "".join(f"count\\040--tag\\040t{number}\n" for number in range(1100)))
    session = repl("--in-memory")
    session.run("count")
    session.run("count")
    session.quit()
    entries = history.read_text().splitlines()[1:]
    assert len(entries) == 1000
    assert entries[-1] == "count"
    assert entries[-2] == "count\\040--tag\\040t1099"
    assert stat.S_IMODE(os.stat(history).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(history.parent).st_mode) == 0o700


def test_history_goes_to_xdg_state_home(repl, environment, home):
    environment["XDG_STATE_HOME"] = str(home / "state")
    repl("--in-memory").run("count")
    history = home / "state" / "memo" / "history"
    assert history.read_text().splitlines()[1:] == ["count"]
    assert stat.S_IMODE(os.stat(history).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(home / "state" / "memo").st_mode) == 0o700


def test_long_listings_fit_the_terminal_width(repl):
    session = repl("--in-memory")
    session.run("add " + "wide " * 60 + "@tagged")
    line = session.run("list")
    assert len(line) <= 120
    assert line.endswith("…  @tagged")


@pytest.mark.parametrize("language", ["C.UTF-8", None])
def test_typed_japanese_and_korean_are_kept(repl, environment, language):
    if language is None:
        del environment["LANG"]
    session = repl("--in-memory")
    session.child.send("add 日本語のメモ 한국어\r")
    session.expect_prompt()
    assert session.output() == "added #1"
    assert session.run("list").endswith("日本語のメモ 한국어")


class TmuxWindow:
    """memo's REPL in a tmux window, 40 columns by 20 rows unless told, with tmux's default
    options. tmux re-wraps the lines on the screen when the window is resized, as most
    terminals do, keeping the cursor's row: rows it cannot keep on the screen go into its
    history. (By default, tmux 3.3 also moves the whole screen into its history when a program
    clears it from its top left corner.)"""

    opened = 0

    def __init__(self, memo_binary, environment, width=40, height=20):
        TmuxWindow.opened += 1
        self.tmux = ["tmux", "-L", f"memo-resize-{os.getpid()}-{TmuxWindow.opened}"]
        self.height = height
        settings = " ".join(f"{name}='{value}'" for name, value in environment.items())
        subprocess.run(self.tmux + ["new-session", "-d", "-x", str(width), "-y", str(height),
                                    f"env -i {settings} {memo_binary} --in-memory"], check=True)

    def keys(self, *words):
        subprocess.run(self.tmux + ["send-keys"] + list(words), check=True)

    def resize(self, width):
        """Resizes the window and waits until memo's terminal has the new size: the kernel has then
        sent memo SIGWINCH, before any key typed next (tmux may set the size a little later)."""
        subprocess.run(self.tmux + ["resize-window", "-x", str(width), "-y", str(self.height)], check=True)
        tty = subprocess.run(self.tmux + ["display-message", "-p", "#{pane_tty}"], capture_output=True, text=True,
                             check=True).stdout.strip()
        wait_until(lambda: self.terminal_width(tty) == width, lambda: f"the terminal is not {width} columns wide")

    @staticmethod
    def terminal_width(tty):
        terminal = os.open(tty, os.O_RDONLY | os.O_NOCTTY)
        try:
            return struct.unpack("HHHH", fcntl.ioctl(terminal, termios.TIOCGWINSZ, bytes(8)))[1]
        finally:
            os.close(terminal)

    def rows(self, history=False):
        """The screen's rows (with `history`, after those in tmux's history), blank ones left out."""
        screen = subprocess.run(self.tmux + ["capture-pane", "-p"] + (["-S", "-"] if history else []),
                                capture_output=True, text=True, check=True).stdout
        return [row.rstrip() for row in screen.splitlines() if row.strip()]

    def wait_for(self, rows, last=None, history=False):
        """Until the rows (their `last` ones) are `rows`."""
        wait_until(lambda: self.rows(history)[-(last or 1000):] == rows,
                   lambda: "the terminal shows:\n" + "\n".join(self.rows(history)[-(last or 1000):]))

    def close(self):
        subprocess.run(self.tmux + ["kill-server"], capture_output=True)


@pytest.fixture
def open_tmux_window(memo_binary, environment):
    """Opens `TmuxWindow`s (with its size arguments), closed after the test."""
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed (scripts/test installs it)")
    opened = []

    def open_window(**size):
        opened.append(TmuxWindow(memo_binary, environment, **size))
        return opened[-1]

    yield open_window
    for window in opened:
        window.close()


@pytest.fixture
def tmux_window(open_tmux_window):
    return open_tmux_window()


def wrapped(text, width):
    """`text` as a terminal `width` columns wide shows it."""
    return [text[start:start + width].rstrip() for start in range(0, len(text), width)]


LONG_LINE = "add the quick brown fox jumps over the lazy dog and keeps running far away 0123456789"


def test_resizing_the_window_redraws_a_wrapped_line_cleanly(tmux_window):
    """Shrinking and widening the terminal while the line wraps leaves the prompt and the line
    once, in the new width, and editing after each resize lands where the cursor shows. (Each
    resize is followed by typing: memo redraws the line before it reads what was typed after.)"""
    window = tmux_window
    window.wait_for([MEMORY_PROMPT.rstrip()])
    window.keys("count", "Enter")
    above = [MEMORY_PROMPT + "count", "0"]
    window.wait_for(above + [MEMORY_PROMPT.rstrip()])
    text = LONG_LINE
    window.keys(text)
    window.wait_for(above + wrapped(MEMORY_PROMPT + text, 40), history=True)
    window.resize(25)
    window.keys("C-a", "Right", "Right", "Right", "Right", "big ")
    text = text.replace("add ", "add big ", 1)
    window.wait_for(above + wrapped(MEMORY_PROMPT + text, 25), history=True)
    window.resize(60)
    window.keys("C-e", " END")
    text += " END"
    window.wait_for(above + wrapped(MEMORY_PROMPT + text, 60), history=True)
    window.resize(33)
    window.keys("C-a", "C-e")
    window.resize(70)
    window.keys("C-a", "Right", "Right", "Right", "Right", "very ")
    text = text.replace("add ", "add very ", 1)
    window.wait_for(above + wrapped(MEMORY_PROMPT + text, 70), history=True)
    window.keys("Enter", "show 1", "Enter")
    memo = wrapped(text.removeprefix("add "), 70)
    window.wait_for(memo + [MEMORY_PROMPT.rstrip()], last=len(memo) + 1)


def test_narrowing_and_widening_leave_one_copy_of_a_line_typed_mid_screen(tmux_window):
    """The usual case: the prompt is halfway down the screen. Narrowing re-wraps the line into
    more rows and widening into fewer, again and again; none of it leaves a copy of the line on
    the screen or in the terminal's history, and the rows above it stay. (At 12 columns rows end
    in spaces, and the line ends on the right margin: the terminal must still re-wrap it as one
    line on the next resize.)"""
    window = tmux_window
    window.wait_for([MEMORY_PROMPT.rstrip()])
    above = []
    for _ in range(4):
        window.keys("count", "Enter")
        above += [MEMORY_PROMPT + "count", "0"]
        window.wait_for(above + [MEMORY_PROMPT.rstrip()])
    text = LONG_LINE
    window.keys(text)
    window.wait_for(above + wrapped(MEMORY_PROMPT + text, 40), history=True)
    for width, typed in [(25, " END"), (12, "!!!!!"), (90, "?"), (20, "."), (60, "=")]:
        window.resize(width)
        window.keys(typed)
        text += typed
        window.wait_for([row for shown in above for row in wrapped(shown, width)] + wrapped(MEMORY_PROMPT + text, width),
                        history=True)
    window.keys("Enter", "show 1", "Enter")
    memo = wrapped(text.removeprefix("add "), 60)
    window.wait_for(memo + [MEMORY_PROMPT.rstrip()], last=len(memo) + 1)


def test_resizing_redraws_a_wrapped_line_whose_start_the_terminal_pushed_above_the_screen(tmux_window):
    """The line starts on the screen's top row: narrowing the window re-wraps it into more
    rows, and tmux, keeping the cursor's row, pushes its first row into the history, out of the
    redraw's reach; widening brings that row back. The line must show once, not below a
    left-over copy of its start."""
    window = tmux_window
    window.wait_for([MEMORY_PROMPT.rstrip()])
    text = LONG_LINE
    window.keys(text)
    window.wait_for(wrapped(MEMORY_PROMPT + text, 40))
    window.resize(25)
    window.wait_for(wrapped(MEMORY_PROMPT + text, 25))
    window.keys(" END")
    window.wait_for(wrapped(MEMORY_PROMPT + text + " END", 25))
    # Widening brings what tmux pushed into the history back onto the screen.
    window.resize(60)
    window.wait_for(wrapped(MEMORY_PROMPT + text + " END", 60))
    window.keys("Enter", "show 1", "Enter")
    memo = wrapped(text.removeprefix("add ") + " END", 60)
    window.wait_for(memo + [MEMORY_PROMPT.rstrip()], last=len(memo) + 1)


@pytest.mark.parametrize("narrow, wide", [(40, 90), (33, 70)])
def test_narrowing_then_widening_leaves_no_copy_of_a_line_that_starts_on_the_top_row(open_tmux_window, narrow, wide):
    """A line typed on the top row of a 60 by 15 window, with nothing typed between two
    resizes. The redraw after narrowing starts on the top row: clearing the screen from its top
    left corner would have tmux (scroll-on-clear, its default) move the old drawing into its
    history, which widening brings back above the line as a copy of its start."""
    window = open_tmux_window(width=60, height=15)
    window.wait_for([MEMORY_PROMPT.rstrip()])
    text = "add " + "abcdefghij" * 15 + "END"
    window.keys(text)
    window.wait_for(wrapped(MEMORY_PROMPT + text, 60), history=True)
    window.resize(narrow)
    # The rows tmux pushed into its history are out of reach until widening brings them back.
    window.wait_for(wrapped(MEMORY_PROMPT + text, narrow))
    window.resize(wide)
    window.wait_for(wrapped(MEMORY_PROMPT + text, wide), history=True)
    window.keys("Enter", "show 1", "Enter")
    memo = wrapped(text.removeprefix("add "), wide)
    window.wait_for(memo + [MEMORY_PROMPT.rstrip()], last=len(memo) + 1)


def test_a_search_on_a_colour_terminal_shows_the_matches_in_bold(repl, environment):
    """Like grep --color: the line that matched, its matches bold, on a real terminal."""
    del environment["NO_COLOR"]
    session = repl()
    session.run('add "The Mysterious Stranger\\nby Mark Twain"')
    assert "… by Mark \x1b[1mTwain\x1b[22m" in session.run("search twain")
