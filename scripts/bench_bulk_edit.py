"""The bench row "bulk edit of 1,000 memos" (scripts/bench.py): `memo edit -n 1000` with an
editor program that changes every memo of the buffer, timed from the moment the editor
closes to the end of memo (the work memo does with what was saved: read, check and write
1,000 texts as one change), against the sqlite3 shell updating the same 1,000 texts and
their search rows in one transaction."""
import os
import pty
import shlex
import statistics
import subprocess
import sys
import time

COUNT = 1_000

# Adds a word to the first line of every memo's text, then notes when it closed (CLOCK_MONOTONIC,
# the clock of every process on the machine).
EDITOR = """
import sys, time
closed, path = sys.argv[1], sys.argv[2]
lines = open(path, encoding="utf-8", newline="").read().split("\\n")
for index in range(1, len(lines)):
    if lines[index - 1].startswith("%% #"):
        lines[index] += " (bulk edited)"
open(path, "w", encoding="utf-8", newline="").write("\\n".join(lines))
open(closed, "w").write(repr(time.clock_gettime(time.CLOCK_MONOTONIC)))
"""

SQL = f"""
BEGIN;
CREATE TEMP TABLE picked AS SELECT id FROM memo ORDER BY insert_date DESC, id DESC LIMIT {COUNT};
UPDATE memo SET content = content || ' (bulk edited)', update_date = 1 WHERE id IN (SELECT id FROM picked);
UPDATE memo_search SET text = text || ' (bulk edited)' WHERE rowid IN (SELECT id FROM picked);
COMMIT;
"""


def once(memo, store, editor, closed):
    """Seconds from the editor's close to memo's end, and memo's whole time. memo opens the
    editor only with a terminal on standard input: a pseudo-terminal stands in."""
    primary, secondary = pty.openpty()
    # memo runs the editor's command through the shell with the file after it.
    environment = dict(os.environ, EDITOR=" ".join(shlex.quote(word) for word in (sys.executable, editor, closed)))
    try:
        started = time.clock_gettime(time.CLOCK_MONOTONIC)
        result = subprocess.run([memo, "--store", store, "edit", "-n", str(COUNT)], stdin=secondary,
                                capture_output=True, text=True, env=environment)
        ended = time.clock_gettime(time.CLOCK_MONOTONIC)
    finally:
        os.close(primary)
        os.close(secondary)
    if result.returncode != 0 or not result.stdout.startswith("edited #"):
        sys.exit(f"bench: memo edit -n {COUNT} failed: {result.stdout}{result.stderr}")
    with open(closed) as stamp:
        return ended - float(stamp.read()), ended - started


def times(memo, sqlite, folder, memo_store, sqlite_store, runs):
    """Medians: memo after the editor closed, the sqlite3 shell's update, their per-pair
    ratio, and memo's whole time with the editor."""
    editor, closed = os.path.join(folder, "bulk-editor.py"), os.path.join(folder, "bulk-editor-closed")
    with open(editor, "w") as script:
        script.write(EDITOR)
    after, whole, updates, ratios = [], [], [], []
    for _ in range(runs):
        memo_after, memo_whole = once(memo, memo_store, editor, closed)
        started = time.perf_counter()
        subprocess.run([sqlite, sqlite_store], input=SQL, text=True, check=True, capture_output=True)
        update = time.perf_counter() - started
        after.append(memo_after)
        whole.append(memo_whole)
        updates.append(update)
        ratios.append(memo_after / update)
    return statistics.median(after), statistics.median(updates), statistics.median(ratios), statistics.median(whole)
