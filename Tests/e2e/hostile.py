"""Running memo on hostile input with a time limit, and measuring its peak memory."""
import os
import random
import subprocess
import time

#: Far above what any of these inputs needs, far below what unbounded growth reaches.
MEMORY_BOUND_KIB = 256 * 1024


class Bounded:
    """What a bounded run printed, how it ended, and its peak resident memory."""

    def __init__(self, status, stdout, stderr, peak_kib):
        self.status, self.stdout, self.stderr, self.peak_kib = status, stdout, stderr, peak_kib


def high_water_mark_kib(pid):
    """The process's peak resident memory so far (0 once it has exited). Not wait4's
    ru_maxrss: Linux carries the parent's peak at fork across exec into it, and pytest grows."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return next((int(line.split()[1]) for line in status if line.startswith("VmHWM:")), 0)
    except OSError:
        return 0


def run_bounded(arguments, environment, folder, stdin_bytes=b"", seconds=60):
    """Runs `arguments` in `folder` with `stdin_bytes` as its input; fails the test on a hang
    or a crash, or when memory grew past the bound (read from /proc every 10 ms)."""
    paths = [os.path.join(folder, f"hostile-{os.getpid()}-{name}") for name in ("in", "out", "err")]
    with open(paths[0], "wb") as handle:
        handle.write(stdin_bytes)
    with open(paths[0], "rb") as stdin, open(paths[1], "wb") as stdout, open(paths[2], "wb") as stderr:
        process = subprocess.Popen(arguments, env=environment, stdin=stdin, stdout=stdout, stderr=stderr, cwd=folder)
        deadline = time.monotonic() + seconds
        peak_kib = 0
        while True:
            peak_kib = max(peak_kib, high_water_mark_kib(process.pid))
            pid, status, _ = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                process.kill()
                process.wait()
                raise AssertionError(f"{arguments[1:]} still ran after {seconds} s")
            time.sleep(0.01)  # not a wait: the interval between two samples of its memory
    process.returncode = 0  # reaped by wait4 above
    output = [open(path, "rb").read() for path in paths[1:]]
    for path in paths:
        os.unlink(path)
    assert os.WIFEXITED(status), f"{arguments[1:]} died of signal {os.WTERMSIG(status)}: {output[1][-2000:]!r}"
    result = Bounded(os.WEXITSTATUS(status), output[0], output[1], peak_kib)
    assert result.peak_kib < MEMORY_BOUND_KIB, f"{arguments[1:]} peaked at {result.peak_kib} KiB"
    return result


def assert_only_messages(stderr):
    """Every line memo wrote to standard error is an error message, nothing else (no trace)."""
    for line in stderr.decode("utf-8", "replace").splitlines():
        assert "error:" in line or line.startswith("memo"), line[:300]


#: Pieces of the command language and of what surrounds it, for token soup. Only relative
#: file names: the soup runs in a private folder, and may export and sync there.
TOKENS = ["add", "list", "search", "show", "edit", "delete", "tag", "untag", "tags", "count", "begin", "save",
          "rollback", "undo", "redo", "history", "import", "export", "fixture", "clock", "info", "help", "sync",
          "-n", "--tag", "--since", "--until", "--on", "--format", "--json", "--asc", "--all", "-", "--",
          "1", "0", "-1", "99999999999999999999999", "1e309", "#1", "#", "@", "@tag", "@@", "\"", "'", "\\",
          "<<", "<<EOF", "<<'X'", "EOF", "X", "\t", "  ", "\u00e9", "\u0301", "\U0001F600", "\u202e", "\ufeff",
          "\x00", "\x1b[31m", "\r", "now", "yesterday", "2026-13-45", "monday", "-5d", "NEAR(", "AND", "OR",
          "NOT", "*", "(", ")", "{", "}", "[", "]", "json", "jsonl", "markdown", "coredata", "out.json",
          "notes.md", "`id`", "$(id)", ";", "|", "&&", "%s%n", "\\n"]


def token_soup(seed, lines=400):
    generator = random.Random(seed)
    return "\n".join(" ".join(generator.choice(TOKENS) for _ in range(generator.randint(0, 12)))
                     for _ in range(lines)).encode("utf-8", "surrogatepass")
