"""memo side by side with the sqlite3 shell doing the same work on the same data.

Run through scripts/bench, which installs what is missing and builds the release binary.
Each row times whole processes, alternating memo and sqlite3, and reports the median of
the per-pair ratios memo/sqlite3 (for the server row, the ratio of two rates). The
instruction rows (--count, and in every full run) run each start-up-bound command once
under valgrind's callgrind beside sqlite3 doing the same work: an instruction count is the
same on every run and every machine, where a time depends on what else the machine does.
"""
import argparse
import contextlib
import datetime
import itertools
import json
import os
import platform
import random
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

import bench_bulk_edit

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
RARE_WORD = "quixotrombe"

ENGLISH = ("buy milk eggs coffee call mother about the trip plan meeting notes review pull request ship "
           "release read chapter book garden water plants fix bike tire pay rent invoice draft email "
           "team lunch friday weekend hike mountain bread bake recipe doctor appointment renew passport "
           "library return movie tonight birthday gift idea project deadline budget report").split()
JAPANESE = ["京都旅行", "宿を予約する", "牛乳を買う", "会議の準備", "読書メモ", "週末の買い物", "映画を見る",
            "新しいアイデア", "電話する", "東京駅で待ち合わせ"]
KOREAN = ["여행을", "떠나기", "전에", "커피", "한 잔", "주말에", "등산", "가기", "회의", "준비", "김치찌개", "만들기"]
EMOJI = ["🎉", "☕", "📚", "🚲", "🌱", "✈️", "🍞", "💡"]
TAGS = ["work", "home", "travel", "idea", "errand", "reading", "health"]

SCHEMA = """
CREATE TABLE memo(id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL UNIQUE, content TEXT NOT NULL,
                  insert_date INTEGER NOT NULL, update_date INTEGER);
CREATE INDEX memo_by_insert_date ON memo(insert_date, id);
CREATE TABLE memo_tag(memo_id INTEGER NOT NULL REFERENCES memo(id) ON DELETE CASCADE, name TEXT NOT NULL,
                      inline INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (memo_id, name)) WITHOUT ROWID;
CREATE INDEX memo_tag_by_name ON memo_tag(name, memo_id);
CREATE VIRTUAL TABLE memo_search USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
"""

# The sqlite3 shell's side of the rows that read memos: the newest 20, and the memos holding
# a word, newest first (both a wall-clock and an instruction row).
LIST_SQL = "SELECT id, insert_date, content FROM memo ORDER BY insert_date DESC, id DESC LIMIT 20"
SEARCH_SQL = ("SELECT id, insert_date, content FROM memo WHERE id IN (SELECT rowid FROM memo_search "
              f"WHERE memo_search MATCH '\"{RARE_WORD}\"') ORDER BY insert_date DESC, id DESC")
# `memo show ID` as the shell would read it: the memo's row and its tags.
SHOW_SQL = ("SELECT id, uuid, insert_date, update_date, content FROM memo WHERE id = {id}; "
            "SELECT name FROM memo_tag WHERE memo_id = {id} ORDER BY name")
# The target for start-up: memo's whole run at most twice the instructions of
# `sqlite3 :memory: 'select 1'` (checked by --check, so CI's smoke step fails above it).
STARTUP_INSTRUCTIONS_TARGET = 2.0

# The encrypted store's rows (scripts/bench --sealed, and every full run), by N: the most seconds
# opening it may take (`count`, the passphrase's key derivation included) and, where given, a
# one-shot `add` (which seals and saves the whole store again). --check fails a row over its target.
SEALED_TARGETS = {10_000: {"open": 0.6, "add": 0.8}, 100_000: {"open": 2.0}}
SEALED_PASSPHRASE_COMMAND = "printf '%s\\n' 'a passphrase for the benchmark'"

# What `memo calendar --year 2020` and `memo stats` compute, as the sqlite3 shell would: memos a
# local day of the year (the year's bounds are its local midnights, TZ as memo reads it), and
# memos and words a month, a weekday and hour, days, and the top tags; words as runs between
# spaces, by the spaces' count.
CALENDAR_SQL = ("SELECT date(insert_date / 1000, 'unixepoch', 'localtime') AS day, count(*) FROM memo "
                "WHERE insert_date >= {start} AND insert_date < {end} GROUP BY day")
STATS_SQL = ("SELECT strftime('%Y-%m', insert_date / 1000, 'unixepoch', 'localtime') AS month, count(*), "
             "sum(length(content) - length(replace(content, ' ', '')) + 1) FROM memo GROUP BY month; "
             "SELECT strftime('%w %H', insert_date / 1000, 'unixepoch', 'localtime') AS hour, count(*) FROM memo GROUP BY hour; "
             "SELECT count(DISTINCT date(insert_date / 1000, 'unixepoch', 'localtime')) FROM memo; "
             "SELECT name, count(*) FROM memo_tag GROUP BY name ORDER BY count(*) DESC, name LIMIT 10")


def is_cjk(character):
    """Whether memo's search text indexes `character` in pairs (Tests/e2e/test_search_accuracy.py uses it too)."""
    value = ord(character)
    return (0x3040 <= value <= 0x30FF or 0x31F0 <= value <= 0x31FF or 0xFF66 <= value <= 0xFF9F
            or 0x3400 <= value <= 0x4DBF or 0x4E00 <= value <= 0x9FFF or 0xF900 <= value <= 0xFAFF
            or 0x20000 <= value <= 0x2FA1F or 0x1100 <= value <= 0x11FF or 0x3130 <= value <= 0x318F
            or 0xAC00 <= value <= 0xD7AF)


def search_text(content):
    """The indexed form memo gives a text (SearchText.indexed): CJK runs as pairs."""
    out, run = [], []

    def flush():
        if not run:
            return
        if len(run) == 1:
            out.append(" " + run[0] + " ")
        else:
            pairs = [run[i] + run[i + 1] for i in range(len(run) - 1)] + [run[-1]]
            out.append(" " + " ".join(pairs) + " ")
        run.clear()

    for character in content:
        if is_cjk(character):
            run.append(character)
        else:
            flush()
            out.append(character)
    flush()
    return "".join(out)


def generate(folder, count):
    """Deterministic memos as JSON Lines for memo and CSV for sqlite3, written as they are made."""
    os.makedirs(folder, exist_ok=True)
    jsonl, csv = os.path.join(folder, "memos.jsonl"), os.path.join(folder, "memos.csv")
    if os.path.exists(jsonl) and os.path.exists(csv):
        return jsonl, csv
    rng = random.Random(20261129)
    start = 1_577_836_800_000
    with open(jsonl + ".tmp", "w") as lines, open(csv + ".tmp", "w", newline="") as table:
        for n in range(count):
            words = []
            for _ in range(rng.randint(5, 25)):
                pick = rng.random()
                words.append(rng.choice(ENGLISH if pick < 0.7 else JAPANESE if pick < 0.82 else KOREAN if pick < 0.95 else EMOJI))
            if n % 1000 == 500:
                words.insert(rng.randint(0, len(words)), RARE_WORD)
            tag = rng.choice(TAGS) if rng.random() < 0.2 else ""
            content = " ".join(words) + (f" @{tag}" if tag else "")
            uuid = "%08x-%04x-4%03x-8%03x-%012x" % (n, rng.getrandbits(16), rng.getrandbits(12), rng.getrandbits(12), rng.getrandbits(48))
            date = start + n * 60_000
            iso = datetime.datetime.fromtimestamp(date / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
            lines.write(json.dumps({"uuid": uuid, "content": content, "insertDate": iso}, ensure_ascii=False) + "\n")
            fields = [uuid, content, str(date), search_text(content), tag]
            table.write(",".join('"' + field.replace('"', '""') + '"' for field in fields) + "\n")
    os.replace(jsonl + ".tmp", jsonl)
    os.replace(csv + ".tmp", csv)
    return jsonl, csv


def rare_word_memos(count):
    """How many of `generate`'s first `count` memos hold RARE_WORD: one in each thousand."""
    return len(range(500, count, 1000))


def import_script(folder, csv):
    """The sqlite3 shell's script that imports the CSV into its own store: the import row's
    comparator, and how the instruction rows make sqlite3's store."""
    path = os.path.join(folder, "import.sql")
    with open(path, "w") as script:
        script.write("PRAGMA journal_mode = WAL;\n" + SCHEMA + "CREATE TEMP TABLE staging(uuid, content, insert_date, search_text, tag);\n"
                     f".import --csv {csv} staging\n"
                     "BEGIN;\nINSERT INTO memo(uuid, content, insert_date) SELECT uuid, content, insert_date FROM staging;\n"
                     "INSERT INTO memo_search(rowid, text) SELECT memo.id, staging.search_text FROM staging JOIN memo USING (uuid);\n"
                     "INSERT INTO memo_tag(memo_id, name, inline) SELECT memo.id, staging.tag, 1 FROM staging JOIN memo USING (uuid) WHERE staging.tag != '';\n"
                     "COMMIT;\n")
    return path


def remove_store(path):
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(path + suffix):
            os.remove(path + suffix)


def timed(command, stdin=None, prepare=None, stdout=None, environment=None):
    """Seconds a whole process takes, and its peak resident memory in KiB; its output goes
    to the file `stdout`, else nowhere."""
    if prepare:
        prepare()
    with open(stdin, "rb") if stdin else open(os.devnull, "rb") as source, open(stdout or os.devnull, "wb") as sink:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdin=source, stdout=sink, stderr=subprocess.PIPE, env=environment)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {' '.join(command)} failed: {process.stderr.read().decode(errors='replace')}")
    process.stderr.close()
    return elapsed, usage.ru_maxrss


def pair(runs, memo, sqlite, memo_prepare=None, sqlite_prepare=None, memo_stdin=None, sqlite_stdin=None):
    """Alternating runs; the medians of each side, of the per-pair ratios, and memo's peak memory."""
    memo_times, sqlite_times, ratios, peak = [], [], [], 0
    for _ in range(runs):
        memo_time, memo_peak = timed(memo, memo_stdin, memo_prepare)
        sqlite_time, _ = timed(sqlite, sqlite_stdin, sqlite_prepare)
        memo_times.append(memo_time)
        sqlite_times.append(sqlite_time)
        ratios.append(memo_time / sqlite_time)
        peak = max(peak, memo_peak)
    return statistics.median(memo_times), statistics.median(sqlite_times), statistics.median(ratios), peak


def instructions(command):
    """The instructions a whole process runs, counted by valgrind's callgrind, and those of
    them the dynamic loader runs before the program's own start (_dl_start, inclusive)."""
    with tempfile.TemporaryDirectory() as scratch, open(os.devnull, "rb") as source:
        profile = os.path.join(scratch, "callgrind.out")
        result = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={profile}", *command],
                                stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            sys.exit(f"bench: {' '.join(command)} failed under valgrind: {result.stderr}")
        annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", profile], capture_output=True, text=True).stdout
    total = int(re.search(r"Collected : (\d+)", result.stderr).group(1))
    loader = re.search(r"^\s*([\d,]+) \([^)]*\)\s+\S*:_dl_start \[", annotated, re.MULTILINE)
    return total, int(loader.group(1).replace(",", "")) if loader else 0


class Instructions(int):
    """A count of instructions in a row's memo or sqlite3 column (a plain number is seconds)."""


def counted(memo, sqlite):
    """A row's columns from one callgrind run of each side: memo's instructions, sqlite3's,
    their ratio, and a note with the loader's share of each."""
    (memo_total, memo_loader), (sqlite_total, sqlite_loader) = instructions(memo), instructions(sqlite)
    note = f"(the loader: {memo_loader / 1e6:.2f} M and {sqlite_loader / 1e6:.2f} M)"
    return Instructions(memo_total), Instructions(sqlite_total), memo_total / sqlite_total, note


def sealed_rows(memo, sqlite, folder, jsonl, count, runs, row):
    """The encrypted store's rows at `count` memos (SEALED_TARGETS): memo's import of the memos
    made encrypted (`memo encrypt`), then opened (`count`) and added to, beside the sqlite3
    shell counting and inserting into the same store unencrypted. Each row's note says pass
    or FAIL against its target; returns the rows that failed."""
    targets = SEALED_TARGETS.get(count)
    if not targets:
        return []
    plain, sealed = os.path.join(folder, "sealed-plain.sqlite"), os.path.join(folder, "sealed.sqlite")
    for path in (plain, sealed):
        remove_store(path)
    timed([memo, "--store", plain, "import", jsonl])
    with contextlib.closing(sqlite3.connect(plain)) as source, contextlib.closing(sqlite3.connect(sealed)) as copy:
        source.backup(copy)
    environment = dict(os.environ, MEMO_PASSPHRASE_COMMAND=SEALED_PASSPHRASE_COMMAND)
    timed([memo, "--store", sealed, "encrypt"], environment=environment)
    failed = []
    added = itertools.count()
    for work, target, memo_command, sqlite_command in (
            (f"open an encrypted store of {count} (key derivation included)", targets.get("open"),
             lambda: [memo, "--store", sealed, "count"], lambda: [sqlite, plain, "SELECT count(*) FROM memo"]),
            (f"add to an encrypted store of {count}", targets.get("add"),
             lambda: [memo, "--store", sealed, "add", f"added to the encrypted store {next(added)}"],
             lambda: [sqlite, plain, "INSERT INTO memo(uuid, content, insert_date) VALUES "
                                     "(lower(hex(randomblob(16))), 'added to the plain store', 1893456000000)"])):
        if target is None:
            continue
        memo_times, sqlite_times = [], []
        for _ in range(runs):
            memo_times.append(timed(memo_command(), environment=environment)[0])
            sqlite_times.append(timed(sqlite_command())[0])
        seconds, sqlite_seconds = statistics.median(memo_times), statistics.median(sqlite_times)
        verdict = "pass" if seconds <= target else "FAIL"
        if verdict == "FAIL":
            failed.append(f"{work}: {seconds:.3f} s, over {target} s")
        row(work, seconds, sqlite_seconds, seconds / sqlite_seconds, f"≤ {target} s",
            f"({verdict}; the sqlite3 column: the same store unencrypted)")
    return failed


class SyncPair:
    """Two stores that differ by 1,000 edits each way (or fewer in a smaller store) before each
    timed sync: the second store is made by a first sync, then before each timed run each side
    makes its edits (a change each, as a script run does) and the files are flushed. The runs
    are on the same two files: a copied store file is a store of its own to sync (docs/REFERENCE.md,
    Sync), and its first sync compares everything."""

    def __init__(self, memo, folder, store, count):
        self.memo, self.folder, self.count = memo, folder, count
        self.a, self.b = (os.path.join(folder, f"sync-{name}.sqlite") for name in ("a", "b"))
        for path in (self.a, self.b):
            remove_store(path)
        shutil.copy(store, self.a)
        subprocess.run([memo, "--store", self.a, "sync", self.b], check=True, capture_output=True)
        self.changes, self.rounds = min(1_000, count // 2), 0

    def edit_both_sides(self):
        self.rounds += 1
        for path, name, first in ((self.a, "a", 1), (self.b, "b", self.count - self.changes + 1)):
            script = os.path.join(self.folder, f"sync-edits-{name}.memo")
            with open(script, "w") as edits:
                for n in range(self.changes):
                    edits.write(f"edit {first + n} changed on {name} in round {self.rounds}, edit {n}\n")
            subprocess.run([self.memo, "run", "--store", path, script], check=True, capture_output=True)
            # Flushed here, so the timed sync does not pay the edits' write-back.
            with contextlib.closing(sqlite3.connect(path)) as connection:
                connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            with open(path, "rb+") as file:
                os.fsync(file.fileno())

    def time(self, runs, sshd=None):
        """The median seconds of `runs` syncs of the two files, or through `sshd` (the second
        store served by `memo sync --serve` over ssh); through ssh, also the bytes that crossed
        in the last run."""
        if sshd is None:
            return statistics.median(timed([self.memo, "--store", self.a, "sync", self.b], prepare=self.edit_both_sides)[0]
                                     for _ in range(runs)), None
        summary = os.path.join(self.folder, "sync-summary.json")
        # The remote memo reads a relative path from the login's home folder.
        command = [self.memo, "--json", "--store", self.a, "sync", f"memo-test:{os.path.abspath(self.b)}", "--remote-memo",
                   os.path.abspath(self.memo)]
        environment = dict(os.environ, MEMO_SSH=sshd.ssh_command)
        seconds = statistics.median(timed(command, prepare=self.edit_both_sides, stdout=summary, environment=environment)[0]
                                    for _ in range(runs))
        with open(summary) as result:
            crossed = json.load(result)
        return seconds, crossed["bytesSent"] + crossed["bytesReceived"]


def throwaway_sshd(folder):
    """A private sshd on 127.0.0.1 for the sync-over-ssh row (scripts/throwaway_sshd.py), or
    None when OpenSSH is not installed."""
    sys.path.insert(0, SCRIPTS)
    from throwaway_sshd import SSHD, ThrowawaySSHD
    if not os.path.exists(SSHD) or shutil.which("ssh") is None:
        print("bench: no sshd (Debian's openssh-server): the sync-over-ssh row is left out", file=sys.stderr)
        return None
    return ThrowawaySSHD(os.path.join(folder, "sshd")).start()


def link_times(memo, folder, store, count, runs):
    """Seconds `show` takes for a memo that 10,000 others reference, and `list --links-to -n 20`
    for it, against `list -n 20` on the same store: the referrers are imported into the store
    (after the rows that read it) with insert dates spread over its memos', so neither is the
    newest. Each record says by uuid what its `#1` names (memo's own `links` member): an
    imported bare `#1` names no memo, as another program's text would not."""
    referrers = os.path.join(folder, "referrers.jsonl")
    rng = random.Random(20261202)
    start = 1_577_836_800_000
    first = json.loads(subprocess.run([memo, "--store", store, "--json", "show", "1"], check=True, capture_output=True,
                                      text=True).stdout)["uuid"]
    with open(referrers, "w") as lines:
        for n in range(10_000):
            date = start + rng.randrange(count) * 60_000 + 1
            iso = datetime.datetime.fromtimestamp(date / 1000, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")[:-4] + "Z"
            content = f"referrer {n} of #1 and some words"
            link = {"start": content.index("#1"), "length": 2, "uuid": first}
            lines.write(json.dumps({"content": content, "insertDate": iso, "links": [link]}) + "\n")
    subprocess.run([memo, "--store", store, "import", referrers], check=True, capture_output=True)
    median = lambda command: statistics.median(timed(command)[0] for _ in range(runs))
    newest = median([memo, "--store", store, "list", "-n", "20"])
    return median([memo, "--store", store, "show", "1"]), median([memo, "--store", store, "list", "--links-to", "1", "-n", "20"]), newest


def serve_frames(path, count):
    with open(path, "wb") as stream:
        def frame(message):
            body = json.dumps(message).encode()
            stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        frame({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}})
        for n in range(count):
            frame({"jsonrpc": "2.0", "id": n + 1, "method": "memo/add", "params": {"content": f"served memo {n} with a little text"}})
        frame({"jsonrpc": "2.0", "id": count + 1, "method": "shutdown"})
        frame({"jsonrpc": "2.0", "method": "exit"})


def note_line(n, width=0, missing=False):
    """Line `n` of a benchmark note: three memo references (with `missing`, the third names
    no memo), padded to `width` bytes."""
    text = f"line {n} mentions #1 and #{n % 7 + 1} and #{100_000 + n if missing else n % 20 + 1}"
    return text + " " * max(0, width - len(text) - 1) + "\n"


def keystroke_time(memo, lines, keystrokes=200, line=note_line):
    """The median time from a one-character change to a document of `lines` lines (`line`
    makes each) to the answer of the request sent after it, in one `memo serve`: what
    typing costs, diagnostics and all."""
    server = subprocess.Popen([memo, "--fixture", "sample", "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)

    def send(message):
        body = json.dumps(message).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()

    def answer(request_id):
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                header += server.stdout.read(1)
            body = json.loads(server.stdout.read(int(header.split(b":")[1].split(b"\r\n")[0])))
            if body.get("id") == request_id:
                return body

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}})
    answer(0)
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    uri = "file:///bench/note.md"
    text = "".join(line(n) for n in range(lines))
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
          "params": {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}})
    send({"jsonrpc": "2.0", "id": 1, "method": "memo/tags", "params": {}})
    answer(1)
    times = []
    for n in range(keystrokes):
        start = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": n + 2},
            "contentChanges": [{"range": {"start": {"line": lines // 2, "character": 0}, "end": {"line": lines // 2, "character": 0}},
                                "text": "x"}]}})
        send({"jsonrpc": "2.0", "id": n + 2, "method": "memo/tags", "params": {}})
        answer(n + 2)
        times.append(time.perf_counter() - start)
    send({"jsonrpc": "2.0", "id": keystrokes + 2, "method": "shutdown"})
    send({"jsonrpc": "2.0", "method": "exit"})
    server.stdin.close()
    server.wait()
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("counts", nargs="*", type=int,
                        help="memos in each store (default 10000 100000 1000000; with --count, none: start-up alone)")
    parser.add_argument("--memo", required=True, help="the memo binary")
    parser.add_argument("--runs", type=int, default=5, help="pairs of runs per row (default 5)")
    parser.add_argument("--data", default="bench-data", help="where generated data and stores go")
    parser.add_argument("--floor", help="a static Swift hello world linked as the release memo is "
                                        "(scripts/lib.sh's build_floor_program), for the floor's rows")
    parser.add_argument("--output", help="the report to write (default: BENCHMARKS.md; with --count, none)")
    parser.add_argument("--before", metavar="REPORT",
                        help="an earlier report (of an older memo, on this machine): its memo times become a 'before' column")
    parser.add_argument("--count", action="store_true", help="only the instruction rows (valgrind callgrind)")
    parser.add_argument("--sealed", action="store_true",
                        help=f"only the encrypted store's rows (default N: {' '.join(str(count) for count in SEALED_TARGETS)})")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when start-up runs more instructions than --startup-target times sqlite3's, "
                             "or an encrypted store's row misses its target")
    parser.add_argument("--startup-target", type=float, default=STARTUP_INSTRUCTIONS_TARGET, metavar="RATIO",
                        help=f"start-up's target: memo's instructions over sqlite3's (default {STARTUP_INSTRUCTIONS_TARGET})")
    options = parser.parse_args()
    memo, sqlite, runs = options.memo, shutil.which("sqlite3"), options.runs
    counts = sorted(options.counts or ([] if options.count else list(SEALED_TARGETS) if options.sealed
                                       else [10_000, 100_000, 1_000_000]))
    output = options.output or (None if options.count or options.sealed else "BENCHMARKS.md")
    rows = []
    # The encrypted store's rows that missed their targets (--check fails the run on any).
    sealed_failed = []

    def row(work, memo_value, sqlite_value, ratio, target, note=""):
        rows.append((work, memo_value, sqlite_value, ratio, target, note))
        print(f"{work:<44} {quantity(memo_value):>13} {quantity(sqlite_value):>13}  {ratio:6.2f}  {target} {note}", flush=True)

    def count_row(work, memo_command, sqlite_command, target):
        memo_instructions, sqlite_instructions, ratio, note = counted(memo_command, sqlite_command)
        row(f"instructions: {work}", memo_instructions, sqlite_instructions, ratio, target, note)
        return memo_instructions, ratio

    # memo's instructions for list newest 20 and for the search, by N: the search's growth per result.
    list_instructions, search_instructions = {}, {}

    def count_rows(count, memo_store, sqlite_store):
        """The instruction rows on a store of `count` memos: commands whose time is mostly
        start-up, each beside the sqlite3 shell's query for the same rows."""
        middle = str(count // 2)
        for work, arguments, sql, target, kept in (
                (f"list newest 20 of {count}", ["list", "-n", "20"], LIST_SQL, "≤ 2.0", list_instructions),
                (f"search one rare word in {count}", ["search", RARE_WORD], SEARCH_SQL, "(no target)", search_instructions),
                (f"show one memo of {count}", ["show", middle], SHOW_SQL.format(id=middle), "(no target)", {})):
            kept[count] = count_row(work, [memo, "--store", memo_store, *arguments], [sqlite, sqlite_store, sql], target)[0]

    def count_growth():
        """Search's instructions per result beyond list newest 20's, at the largest N over the
        smallest: the growth row's measure (below) without the clock's noise, which at
        10,000 memos (10 results, ~0.1 ms) is as large as what it measures."""
        if len(counts) > 1:
            small, large = counts[0], counts[-1]
            per_result = {count: Instructions((search_instructions[count] - list_instructions[count]) // max(rare_word_memos(count), 1))
                          for count in (small, large)}
            row(f"instructions: growth {small} → {large}: search per result", per_result[large], per_result[small],
                per_result[large] / max(per_result[small], 1), "≤ 1.3", "(memo: (search − list newest 20) / results, at the largest N / at the smallest)")

    def count_startup():
        """Start-up's instruction ratio, after the floor's row: a static Swift hello world beside
        sqlite3, which no Swift program starts below."""
        os.makedirs(options.data, exist_ok=True)
        hello = options.floor
        if hello:
            count_row("the floor: a static Swift hello world", [hello], [sqlite, ":memory:", "select 1"], "(the floor)")
        return count_row("start-up (--in-memory count)", [memo, "--in-memory", "count"], [sqlite, ":memory:", "select 1"],
                         f"≤ {options.startup_target}")[1]

    if options.sealed:
        for count in counts:
            folder = os.path.join(options.data, str(count))
            jsonl, _ = generate(folder, count)
            sealed_failed += sealed_rows(memo, sqlite, folder, jsonl, count, runs, row)
        if output:
            write_report(output, memo, sqlite, counts, runs, rows)
        check(None, 0, sealed_failed if options.check else [])
        return

    if options.count:
        for count in counts:
            folder = os.path.join(options.data, str(count))
            jsonl, csv = generate(folder, count)
            # Stores of their own, made once: a full run's stores get 10,000 more memos (the links rows).
            memo_store, sqlite_store = os.path.join(folder, "count-memo.sqlite"), os.path.join(folder, "count-sqlite.sqlite")
            if not os.path.exists(memo_store):
                timed([memo, "--store", memo_store, "import", jsonl])
            if not os.path.exists(sqlite_store):
                timed([sqlite, sqlite_store, f".read {import_script(folder, csv)}"])
            timed([memo, "--store", memo_store, "count"])  # an older memo's store is migrated here, not counted
            count_rows(count, memo_store, sqlite_store)
        count_growth()
        startup_ratio = count_startup()
        if output:
            write_report(output, memo, sqlite, counts, runs, rows)
        check(options.startup_target if options.check else None, startup_ratio)
        return

    list_times, search_times, sync_times = {}, {}, {}
    for count in counts:
        folder = os.path.join(options.data, str(count))
        print(f"generating {count} memos…", flush=True)
        jsonl, csv = generate(folder, count)
        memo_store, sqlite_store = os.path.join(folder, "memo.sqlite"), os.path.join(folder, "sqlite.sqlite")
        import_sql = import_script(folder, csv)
        row(f"import of {count} memos", *pair(runs, [memo, "--store", memo_store, "import", jsonl],
                                             [sqlite, sqlite_store, f".read {import_sql}"],
                                             memo_prepare=lambda: remove_store(memo_store),
                                             sqlite_prepare=lambda: remove_store(sqlite_store))[:3], "≤ 2.0")
        newest = pair(runs, [memo, "--store", memo_store, "list", "-n", "20"], [sqlite, sqlite_store, LIST_SQL])
        list_times[count] = newest[0]
        row(f"list newest 20 of {count}", *newest[:3], "≤ 1.5")
        rare = pair(runs, [memo, "--store", memo_store, "search", RARE_WORD], [sqlite, sqlite_store, SEARCH_SQL])
        search_times[count] = rare[0]
        row(f"search one rare word in {count}", *rare[:3], "≤ 1.5")
        sealed_failed += sealed_rows(memo, sqlite, folder, jsonl, count, runs, row)
        count_rows(count, memo_store, sqlite_store)
        export = pair(runs, [memo, "--store", memo_store, "--json", "export", "-"],
                      [sqlite, "-json", sqlite_store, "SELECT id, uuid, content, insert_date, update_date FROM memo ORDER BY insert_date, id"])
        row(f"export {count} as JSON", *export[:3], "≤ 1.3, ≤ 32 MiB", f"(peak {export[3] / 1024:.1f} MiB)")
        row(f"text listing of {count}", *pair(runs, [memo, "--store", memo_store, "list", "--asc"],
                                              [sqlite, sqlite_store, "SELECT id, insert_date, content FROM memo ORDER BY insert_date, id"])[:3],
            "≤ 2.5")
        year_start, year_end = (int(datetime.datetime(year, 1, 1).timestamp() * 1000) for year in (2020, 2021))
        row(f"calendar of a year of {count}", *pair(runs, [memo, "--store", memo_store, "calendar", "--year", "2020"],
                                                    [sqlite, sqlite_store, CALENDAR_SQL.format(start=year_start, end=year_end)])[:3],
            "≤ 0.5 s")
        row(f"stats of {count}", *pair(runs, [memo, "--store", memo_store, "stats"], [sqlite, sqlite_store, STATS_SQL])[:3],
            "≤ 0.5 s")
        if count == 100_000 and os.path.realpath(memo) == os.path.realpath(os.path.join(SCRIPTS, "..", ".build", "release", "memo")):
            # The README's first command against the binary scripts/install ships: the same
            # release build, started through bash and a check that no source changed.
            newcomer = pair(runs, [os.path.join(SCRIPTS, "memo"), "--store", memo_store, "list"],
                            [memo, "--store", memo_store, "list"])
            rows.append((f"scripts/memo list of {count}", *newcomer[:3], "≤ 1.3", "(the sqlite3 column: the installed binary)"))
            print(f"scripts/memo list of {count}: {newcomer[0]:.4f} s, {newcomer[2]:.2f} of the installed binary", flush=True)
        stores = SyncPair(memo, folder, memo_store, count)
        sync_times[count] = stores.time(runs)[0]
        rows.append((f"sync of two {count}-memo stores, 1,000 edits each way", sync_times[count], sync_times[counts[0]],
                     sync_times[count] / sync_times[counts[0]], "about as long at every N", "(memo; the sqlite3 column: memo at the smallest N)"))
        print(f"sync of two {count}-memo stores, 1,000 edits each way: {sync_times[count]:.3f} s", flush=True)
        sshd = throwaway_sshd(options.data) if count == counts[-1] else None
        if sshd:
            try:
                seconds, crossed = stores.time(runs, sshd)
            finally:
                sshd.stop()
            work = f"sync over ssh of two {count}-memo stores, 1,000 edits each way"
            rows.append((work, seconds, sync_times[count], seconds / sync_times[count], "seconds and bytes (no target)",
                         f"(memo; the sqlite3 column: the same sync of the two files; {crossed:,} bytes crossed)"))
            print(f"{work}: {seconds:.3f} s, {crossed:,} bytes", flush=True)
        if count == counts[-1]:
            backlinks, links_to, newest = link_times(memo, folder, memo_store, count, runs)
            for work, seconds in ((f"show a memo with 10,000 backlinks in {count}", backlinks),
                                  (f"list --links-to -n 20 (10,000 referrers) in {count}", links_to)):
                rows.append((work, seconds, newest, seconds / newest, "about list -n 20", "(memo; the sqlite3 column: memo's list -n 20)"))
                print(f"{work}: {seconds:.4f} s, {seconds / newest:.2f} of list -n 20", flush=True)
            after, update, ratio, whole = bench_bulk_edit.times(memo, sqlite, folder, memo_store, sqlite_store, runs)
            row(f"bulk edit of 1,000 memos in {count}", after, update, ratio, "≤ 1 s after the editor closes",
                f"(memo from the editor's close; {whole:.3f} s with the editor)")

    hello = options.floor
    if hello:
        row("the floor: a static Swift hello world", *pair(runs * 4, [hello], [sqlite, ":memory:", "select 1"])[:3], "(the floor)")
    row("start-up (--in-memory count)", *pair(runs * 4, [memo, "--in-memory", "count"], [sqlite, ":memory:", "select 1"])[:3], "≤ 1.5")
    startup_ratio = count_startup()
    folder = os.path.join(options.data, "replay")
    os.makedirs(folder, exist_ok=True)
    adds, inserts, frames = (os.path.join(folder, name) for name in ("adds.memo", "inserts.sql", "frames.bin"))
    with open(adds, "w") as script, open(inserts, "w") as sql:
        sql.write(SCHEMA)
        for n in range(20_000):
            script.write(f"add replayed memo {n} with a little text\n")
            sql.write(f"INSERT INTO memo(uuid, content, insert_date) VALUES ('00000000-0000-4000-8000-{n:012x}', "
                      f"'replayed memo {n} with a little text', {946684800000 + n * 1000});\n"
                      f"INSERT INTO memo_search(rowid, text) VALUES (last_insert_rowid(), 'replayed memo {n} with a little text');\n")
    # Three times the pairs: a run takes about a second, in which this shared machine's speed
    # drifts by a third (single runs 0.8-1.5 s), and the median of 5 ratios moved by 0.3.
    replay = pair(runs * 3, [memo, "run", adds], [sqlite, ":memory:"], sqlite_stdin=inserts)
    row("replay 20,000 adds", *replay[:3], "≤ 1.4")
    serve_frames(frames, 20_000)
    served = statistics.median(timed([memo, "--in-memory", "serve"], frames)[0] for _ in range(runs))
    rows.append(("server: 20,000 pipelined memo/add", served, replay[0], replay[0] / served, "≥ 0.7 of the replay rate",
                 "(rate ratio: server / replay)"))
    print(f"server: 20,000 pipelined adds {served:.3f} s, {replay[0] / served:.2f} of the replay rate", flush=True)
    # The notes the server keeps: 5 MiB of 100,000 lines; the most one message brings (64 MiB
    # with its JSON, 62 MiB of 1,300,000 lines); the most lines (2,000,000, a reference
    # each), each beside a 10-line note. And one naming 100,000 missing memos beside one
    # naming 1,000: each keystroke sends the 1,000 warnings nearest it, whatever the size.
    small_note = keystroke_time(memo, 10)
    few_missing = keystroke_time(memo, 1_000, line=lambda n: note_line(n, missing=True))
    for name, lines, line, short, short_name in (
            ("a 5 MiB, 100,000-line note", 100_000, lambda n: note_line(n, width=53), small_note, "a 10-line note"),
            ("a 62 MiB, 1,300,000-line note", 1_300_000, lambda n: note_line(n, width=50), small_note,
             "a 10-line note"),
            ("a 2,000,000-line note", 1_999_999, lambda n: f"#{n % 20 + 1}\n", small_note, "a 10-line note"),
            ("a 100,000-line note naming 100,000 missing memos", 100_000, lambda n: note_line(n, missing=True),
             few_missing, "a 1,000-line note naming 1,000")):
        large_note = keystroke_time(memo, lines, line=line)
        rows.append((f"keystroke in {name}", large_note, short, large_note / short, "≤ 2.0",
                     f"(memo; the sqlite3 column: {short_name})"))
        print(f"keystroke: {large_note * 1000:.2f} ms in {name}, {short * 1000:.2f} ms in {short_name}", flush=True)
    if len(counts) > 1:
        small, large = counts[0], counts[-1]
        rows.append((f"growth {small} → {large}: list newest 20", list_times[large], list_times[small],
                     list_times[large] / list_times[small], "≤ 1.3", "(memo at the largest N / at the smallest)"))
        # A search's time is a start like list newest 20's (the process, the store's opening, a
        # page of rows) plus a cost for each result, and its results grow with N (10, 100 and
        # 1,000 at 10k, 100k and 1M): the whole time's growth would mostly count the results.
        # What must not grow is the cost of one result, so the row compares the time beyond
        # list newest 20's at the same N, divided by the results.
        per_result = {count: (search_times[count] - list_times[count]) / max(rare_word_memos(count), 1) for count in (small, large)}
        rows.append((f"growth {small} → {large}: search time per result", per_result[large], per_result[small],
                     per_result[large] / per_result[small] if per_result[small] > 0 else float("inf"), "≤ 1.3",
                     "(memo: (search − list newest 20) / results, at the largest N / at the smallest)"))
        count_growth()
        rows.append((f"growth {small} → {large}: sync of 1,000 edits each way", sync_times[large], sync_times[small],
                     sync_times[large] / sync_times[small], "≤ 2.0", "(memo at the largest N / at the smallest)"))
    write_report(output, memo, sqlite, counts, runs, rows, read_report(options.before) if options.before else None)
    check(options.startup_target if options.check else None, startup_ratio, sealed_failed if options.check else [])


def check(limit, startup_ratio, sealed_failed=()):
    """With --check, fails the run when start-up's instruction ratio is over `limit`, or an
    encrypted store's row (`sealed_failed`, what each missed) missed its target."""
    failures = list(sealed_failed)
    if limit is not None and startup_ratio > limit:
        failures.insert(0, f"start-up runs {startup_ratio:.2f} times sqlite3's instructions, over {limit:.2f}")
    if failures:
        sys.exit("bench: FAIL: " + "; ".join(failures))


def quantity(value):
    """A row's memo or sqlite3 cell: instructions in millions, or seconds (µs when tiny)."""
    if isinstance(value, Instructions):
        return f"{value / 1e6:.2f} M instr" if value >= 10_000 else f"{value:,} instr"
    return f"{value:.4f} s" if abs(value) >= 0.001 else f"{value * 1e6:.1f} µs"


def read_report(path):
    """An earlier report's memo times (with their ratios) by row, and the lines that say what
    was measured (its own `before` line left out). Columns are found by their headings, so
    a report that had a `before` column reads as well as one that had none."""
    times, facts, columns = {}, [], None
    with open(path) as report:
        for line in report:
            if line.startswith("- ") and ("memo" in line or "date" in line) and not line.startswith("- before:"):
                facts.append(line[2:].strip())
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if line.startswith("| work |"):
                columns = {name: index for index, name in enumerate(cells)}
            elif columns and line.startswith("| ") and len(cells) > columns["ratio"] and cells[columns["memo"]].endswith((" s", " µs", " instr")):
                times[cells[0]] = f"{cells[columns['memo']]} ({cells[columns['ratio']]})"
    return {"times": times, "facts": facts, "path": path}


def write_report(path, memo, sqlite, counts, runs, rows, before=None):
    def output(command):
        try:
            return subprocess.run(command, capture_output=True, text=True).stdout.strip().splitlines()[0]
        except (OSError, IndexError):
            return "unknown"

    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.processor())
    memory = next((line.split()[1] for line in open("/proc/meminfo") if line.startswith("MemTotal")), "0")
    lines = [
        "# Benchmarks",
        "",
        "Written by `scripts/bench` (do not edit by hand). Whole processes, memo and the sqlite3 shell",
        f"alternated, {runs} pairs a row ({runs * 4} for start-up and the floor, {runs * 3} for replay); times are medians, ratios the median of per-pair ratios",
        "memo/sqlite3 (lower is better) unless the row says otherwise. An `instructions:` row counts the",
        "instructions of one run of each side under valgrind's callgrind (the same on every run).",
        "",
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- machine: {os.cpu_count()} cores, {cpu}, {int(memory) // 1024} MiB, {platform.system()} {platform.release()}",
        f"- {output([memo, '--version'])}; sqlite3 {output([sqlite, '--version']).split(' ')[0]}; {output(['swift', '--version'])}",
        f"- memos: {', '.join(str(count) for count in counts)}",
    ]
    if before:
        lines.append(f"- before: memo's times and ratios in {os.path.basename(before['path'])} "
                     f"({'; '.join(before['facts'])}), as that run measured them")
    lines += [
        "",
        "| work | memo | " + ("before | " if before else "") + "sqlite3 | ratio | target | |",
        "|---|---|---|---|---|---|" + ("---|" if before else ""),
    ]
    for work, memo_value, sqlite_value, ratio, target, note in rows:
        earlier = f"{before['times'].get(work, '–')} | " if before else ""
        lines.append(f"| {work} | {quantity(memo_value)} | {earlier}{quantity(sqlite_value)} | {ratio:.2f} | {target} | {note} |")
    # Where the time goes: profiles read by hand (perf, strace, LD_DEBUG), kept beside this
    # script and written under the table, so the report says why a row stands where it does.
    notes = os.path.join(SCRIPTS, "bench-profiles.md")
    if os.path.exists(notes):
        with open(notes) as profiles:
            lines += ["", profiles.read().rstrip()]
    with open(path, "w") as report:
        report.write("\n".join(lines) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
