"""Listing, searching, exporting and importing stream: peak memory does not grow with the
number of memos."""
import os
import subprocess

from stores import fill


def peak_kib(memo_binary, environment, *arguments):
    """Runs memo with output to /dev/null; returns its peak resident memory in KiB."""
    with open(os.devnull, "wb") as sink:
        process = subprocess.Popen([memo_binary, *arguments], env=environment, stdout=sink)
        _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return usage.ru_maxrss


def test_listing_memory_does_not_grow_with_the_store(memo_binary, environment, tmp_path):
    small, large = tmp_path / "small.sqlite", tmp_path / "large.sqlite"
    fill(memo_binary, environment, small, 20_000)
    fill(memo_binary, environment, large, 200_000)
    for arguments in (["list"], ["--json", "list"], ["list", "--group", "day"], ["search", "memo number"],
                      ["export", "-"], ["export", "-", "--format", "json"], ["export", "-", "--format", "markdown"]):
        small_peak = peak_kib(memo_binary, environment, "--store", str(small), *arguments)
        large_peak = peak_kib(memo_binary, environment, "--store", str(large), *arguments)
        # 180,000 more memos of ~120 bytes would add over 20 MiB if they were collected.
        assert large_peak - small_peak < 8 * 1024, (arguments, small_peak, large_peak)


def test_import_memory_does_not_grow_with_the_file(memo_binary, environment, tmp_path):
    peaks = []
    for count in (10_000, 60_000):
        records = tmp_path / f"{count}.jsonl"
        # Written line by line: a test process that grew would grow the child's peak too,
        # as a forked child counts its parent's pages until it runs memo.
        with records.open("w") as file:
            for n in range(count):
                file.write(f'{{"uuid":"00000000-0000-4000-8000-{n:012d}","content":"imported memo {n} with a line of text",'
                           f'"insertDate":"2024-01-01T00:00:00.000Z","tags":["t{n % 7}"]}}\n')
        peaks.append(peak_kib(memo_binary, environment, "--store", str(tmp_path / f"{count}.sqlite"), "import", str(records)))
    # 50,000 more records of ~130 bytes would add over 6 MiB if they were collected.
    assert peaks[1] - peaks[0] < 4 * 1024, peaks
