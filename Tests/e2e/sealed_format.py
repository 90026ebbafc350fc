"""memo's sealed store file, format 1, read and written from docs/ENCRYPTION.md alone (PyNaCl's
bindings of libsodium): the tests check memo's files with the reader and give memo files the
writer made."""
import os
import struct

from nacl import bindings as sodium
from nacl import exceptions

MAGIC = b"memoSEAL"
# magic, version, algorithm, opslimit, memlimit, salt, chunk size, plaintext length: the 60 bytes
# that are the first chunk's additional data; then the secretstream header, 84 bytes in all.
FIELDS = struct.Struct("<8sIIQQ16sIQ")
HEADER_BYTES = FIELDS.size + sodium.crypto_secretstream_xchacha20poly1305_HEADERBYTES
ABYTES = sodium.crypto_secretstream_xchacha20poly1305_ABYTES
ARGON2ID = sodium.crypto_pwhash_ALG_ARGON2ID13
MESSAGE = sodium.crypto_secretstream_xchacha20poly1305_TAG_MESSAGE
FINAL = sodium.crypto_secretstream_xchacha20poly1305_TAG_FINAL


class Damaged(Exception):
    """Wrong passphrase, or the file is damaged: a reader cannot tell which."""


def header(data):
    """The header's fields by name (nothing checked)."""
    names = "magic version algorithm opslimit memlimit salt chunk_size length".split()
    return dict(zip(names, FIELDS.unpack_from(data)), stream=data[FIELDS.size:HEADER_BYTES])


def key(passphrase, salt, opslimit, memlimit, algorithm=ARGON2ID):
    encoded = passphrase.encode() if isinstance(passphrase, str) else passphrase
    return sodium.crypto_pwhash_alg(32, encoded, salt, opslimit, memlimit, algorithm)


def unseal(data, passphrase):
    """The SQLite database image a sealed file holds; raises Damaged for any failure."""
    if len(data) < HEADER_BYTES:
        raise Damaged(f"{len(data)} bytes: shorter than the header")
    magic, version, algorithm, opslimit, memlimit, salt, size, length = FIELDS.unpack_from(data)
    chunks = -(-length // size) if 4096 <= size <= 1 << 24 else 0
    if (magic, version, algorithm) != (MAGIC, 1, ARGON2ID) or not 1 <= opslimit <= 16 \
            or not 8 << 10 <= memlimit <= 4 << 30 or chunks == 0 \
            or len(data) != HEADER_BYTES + length + ABYTES * chunks:
        raise Damaged("the header is not that of a sealed file of this length")
    state = sodium.crypto_secretstream_xchacha20poly1305_state()
    sodium.crypto_secretstream_xchacha20poly1305_init_pull(
        state, data[FIELDS.size:HEADER_BYTES], key(passphrase, salt, opslimit, memlimit, algorithm))
    image, offset = bytearray(), HEADER_BYTES
    for index in range(chunks):
        end = offset + min(size, length - index * size) + ABYTES
        try:
            plain, tag = sodium.crypto_secretstream_xchacha20poly1305_pull(
                state, data[offset:end], data[:FIELDS.size] if index == 0 else None)
        except exceptions.CryptoError as error:
            raise Damaged(f"chunk {index} does not authenticate") from error
        if (tag == FINAL) != (index == chunks - 1):
            raise Damaged(f"chunk {index} has tag {tag}")
        image += plain
        offset = end
    return bytes(image)


def seal(image, passphrase, opslimit=2, memlimit=256 << 20, chunk_size=65536):
    """A sealed file of `image`, as memo writes one (memo's parameters unless others are given)."""
    fields = FIELDS.pack(MAGIC, 1, ARGON2ID, opslimit, memlimit, os.urandom(16), chunk_size, len(image))
    state = sodium.crypto_secretstream_xchacha20poly1305_state()
    stream = sodium.crypto_secretstream_xchacha20poly1305_init_push(
        state, key(passphrase, fields[32:48], opslimit, memlimit))
    starts = range(0, len(image), chunk_size)
    chunks = [sodium.crypto_secretstream_xchacha20poly1305_push(
        state, image[start:start + chunk_size], fields if start == 0 else None,
        FINAL if start == starts[-1] else MESSAGE) for start in starts]
    return fields + stream + b"".join(chunks)
