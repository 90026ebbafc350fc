"""Waiting for a state, never for a fixed time: poll until it holds, fail after a bound.

A test that stops a process part-way (SIGKILL, Ctrl-C) waits for how far the process has got,
measured in the CPU time it has used, which a loaded machine does not stretch as it does the
wall clock; the CPU time of one whole run sets the moments."""
import asyncio
import os
import subprocess
import time

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def wait_until(condition, failure, seconds=10):
    """Polls `condition()` until it is true; after `seconds`, fails with `failure()`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure()
        time.sleep(0.02)  # not a wait: the poll interval of wait_until, which waits for a state


async def wait_until_async(condition, failure, seconds=10):
    """`wait_until` inside an event loop, which goes on running (and reading replies) meanwhile."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure()
        await asyncio.sleep(0.02)  # not a wait: the poll interval of wait_until_async


def status_of(pid):
    """The process's state letter (R, S, D, Z, …), or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return None


def has_ended(pid):
    """The process has exited or been killed (a zombie not yet reaped counts as ended)."""
    return status_of(pid) in (None, "Z", "X")


def cpu_seconds(pid):
    """The CPU time (user and system) the running process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_SECOND


def whole_run_cpu_seconds(command, **options):
    """Runs `command` to its end; the CPU time it used, and its exit status."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **options)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.returncode == 0, process.stderr.read()
    return usage.ru_utime + usage.ru_stime


def wait_for_cpu(process, seconds, bound=600):
    """Waits until `process` has used `seconds` of CPU time or has ended; True if it still runs."""
    def reached():
        return has_ended(process.pid) or cpu_seconds(process.pid) >= seconds
    wait_until(reached, lambda: f"the process used {cpu_seconds(process.pid)} s of CPU, not {seconds}", bound)
    return not has_ended(process.pid)
