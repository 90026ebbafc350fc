"""scripts/bench --count --check, the start-up check of CI's smoke step: it passes when
memo's start runs within the target times sqlite3's instructions, and fails the run,
saying by how much, when it does not. (The target itself is scripts/bench.py's.)"""
import subprocess
import sys

from conftest import REPO


def count_check(memo_binary, tmp_path, target):
    return subprocess.run([sys.executable, str(REPO / "scripts" / "bench.py"), "--memo", memo_binary, "--count", "--check",
                           "--startup-target", str(target), "--data", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)


def test_the_check_passes_within_the_target_and_fails_over_it(memo_binary, tmp_path):
    within = count_check(memo_binary, tmp_path, 1000)
    assert within.returncode == 0, within.stderr
    startup = next(line for line in within.stdout.splitlines() if line.startswith("instructions: start-up"))
    assert "M instr" in startup and "≤ 1000.0" in startup

    over = count_check(memo_binary, tmp_path, 0.01)
    assert over.returncode == 1
    assert "FAIL: start-up runs" in over.stderr and "over 0.01" in over.stderr
