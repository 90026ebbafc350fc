"""Listing, searching, exporting and importing stream: peak memory does not grow with the
number of memos."""
import json
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


def minor_faults(memo_binary, environment, arguments, stdin_path):
    """Runs memo with `stdin_path` as its input and output to /dev/null; returns the page
    faults it took (minor: memory it touched for the first time, or again after giving it back)."""
    with open(stdin_path, "rb") as source, open(os.devnull, "wb") as sink:
        process = subprocess.Popen([memo_binary, *arguments], env=environment, stdin=source, stdout=sink)
        _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return usage.ru_minflt


def test_adding_memo_after_memo_reuses_the_memory_each_change_freed(memo_binary, environment, tmp_path):
    """Each change allocates SQLite's journal and page copies and frees them at its commit;
    a server or a script adding memo after memo must reuse that memory, not give it back to
    the system and fault it in again for the next add (2.5 faults an add did so)."""
    def frames(count):
        path = tmp_path / f"frames-{count}"
        with path.open("wb") as stream:
            messages = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"capabilities": {}}}]
            messages += [{"jsonrpc": "2.0", "id": n + 1, "method": "memo/add",
                          "params": {"content": f"served memo {n} with a little text"}} for n in range(count)]
            messages += [{"jsonrpc": "2.0", "id": count + 1, "method": "shutdown"}, {"jsonrpc": "2.0", "method": "exit"}]
            for message in messages:
                body = json.dumps(message).encode()
                stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        return path

    def script(count):
        path = tmp_path / f"adds-{count}.memo"
        path.write_text("".join(f"add replayed memo {n} with a little text\n" for n in range(count)))
        return path

    for face, arguments, made in (("server", lambda path: ["--in-memory", "serve"], frames),
                                  ("script", lambda path: ["run", str(path)], script)):
        few, many = made(200), made(2_000)
        more = (minor_faults(memo_binary, environment, arguments(many), many)
                - minor_faults(memo_binary, environment, arguments(few), few))
        assert more / 1_800 < 0.5, (face, more)
