"""Waiting for a state, never for a fixed time: poll until it holds, fail after a bound."""
import time


def wait_until(condition, failure, seconds=10):
    """Polls `condition()` until it is true; after `seconds`, fails with `failure()`."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, failure()
        time.sleep(0.02)
