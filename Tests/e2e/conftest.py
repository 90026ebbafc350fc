"""Shared fixtures for the end-to-end tests that drive the built `memo` binary."""
import os
import pathlib

import pytest

# The editor tests' shared checks live in editors.py: let pytest explain their asserts too.
pytest.register_assert_rewrite("editors")

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def memo_binary():
    """The binary under test: $MEMO_BINARY, else the debug build."""
    return os.environ.get("MEMO_BINARY", str(REPO / ".build" / "debug" / "memo"))


@pytest.fixture
def home(tmp_path):
    """A private HOME, so history and the default store start empty."""
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def environment(home):
    return {
        "HOME": str(home),
        "PATH": "/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "TZ": "UTC",
        "TERM": "xterm",
        "NO_COLOR": "1",
    }
