"""LSP's base framing, for the tests that talk to `memo serve` in raw bytes."""
import json
import os
import select
import time


def frame_bytes(body):
    """`body` as one frame, whatever it holds."""
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def frame(message):
    return frame_bytes(json.dumps(message).encode())


def read_frames(data):
    """The JSON messages in a stream of frames, in order."""
    messages = []
    while data:
        header, _, rest = data.partition(b"\r\n\r\n")
        length = int(header.split(b":")[1])
        messages.append(json.loads(rest[:length]))
        data = rest[length:]
    return messages


class FrameReader:
    """Reads the frames a process writes to a pipe as they come, so that a test can wait for
    the replies it is owed instead of for a time."""

    def __init__(self, stream):
        self.descriptor = stream.fileno()
        self.unread = b""
        self.messages = []

    def read_until(self, condition, failure, seconds=30):
        """Reads frames until `condition(messages)` holds; fails with `failure()` at the end of
        the stream or after `seconds`."""
        deadline = time.monotonic() + seconds
        while not condition(self.messages):
            header, separator, rest = self.unread.partition(b"\r\n\r\n")
            if separator and len(rest) >= int(header.split(b":")[1]):
                length = int(header.split(b":")[1])
                self.messages.append(json.loads(rest[:length]))
                self.unread = rest[length:]
                continue
            ready, _, _ = select.select([self.descriptor], [], [], max(0, deadline - time.monotonic()))
            assert ready, failure()
            chunk = os.read(self.descriptor, 1 << 16)
            assert chunk, failure()
            self.unread += chunk
        return self.messages
