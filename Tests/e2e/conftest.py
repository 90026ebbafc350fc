"""Shared fixtures for the end-to-end tests that drive the built `memo` binary."""
import os
import pathlib
import sys

import pytest

from stores import create_store

# The editor tests' shared checks live in editors.py: let pytest explain their asserts too.
pytest.register_assert_rewrite("editors")

REPO = pathlib.Path(__file__).resolve().parents[2]
# The tests share scripts/ helpers: the throwaway sshd, and the benchmark's model of memo's search text.
sys.path.insert(0, str(REPO / "scripts"))


@pytest.fixture(scope="session")
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


@pytest.fixture(scope="session")
def sshd(tmp_path_factory):
    """A throwaway OpenSSH server on 127.0.0.1 (scripts/throwaway_sshd.py), for the whole run."""
    import shutil
    from throwaway_sshd import SSHD, ThrowawaySSHD
    if not os.path.exists(SSHD) or shutil.which("ssh") is None:
        pytest.skip("openssh-server and openssh-client are not installed (scripts/test installs them)")
    server = ThrowawaySSHD(tmp_path_factory.mktemp("sshd")).start()
    yield server
    server.stop()


@pytest.fixture
def ssh_environment(environment, sshd):
    """The environment with MEMO_SSH set to reach the throwaway server as host `memo-test`."""
    return dict(environment, MEMO_SSH=sshd.ssh_command)


@pytest.fixture
def store_environment(memo_binary, environment, home):
    """$MEMO_STORE naming an existing, empty store."""
    environment["MEMO_STORE"] = str(home / "store.sqlite")
    create_store(memo_binary, environment, home / "store.sqlite")
    return environment
