"""LSP's base framing, for the tests that talk to `memo serve` in raw bytes."""
import json


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
