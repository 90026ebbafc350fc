"""Sealed (encrypted) stores, as docs/ENCRYPTION.md describes them: what memo writes is the
documented format (read back here with libsodium alone, sealed_format.py) and holds no memo text
in clear; a file written from the document alone opens in memo; every change keeps the store
sealed and does what it does on a plain store; a wrong passphrase and every kind of damage give
one line and exit status 3 and touch nothing; the passphrase comes from MEMO_PASSPHRASE_COMMAND
or the terminal (twice for a new one, once to open, never echoed), never from the command line."""
import json
import os
import re
import shlex
import shutil
import sqlite3
import stat
import subprocess

import pexpect
import pytest

import sealed_format
from sealed_format import MAGIC, Damaged, seal, unseal
from stores import fill

PASSPHRASE = "correct horse"
TEXTS = ["Buy oat milk before Saturday", "Grüße an Jörg: Zebraohrring", "日本語のメモを書きました",
         "the horse 🐎 battery staple\nsecond line of a memo"]
SQLITE_MAGIC = b"SQLite format 3\x00"


def passphrase_command(passphrase):
    """A MEMO_PASSPHRASE_COMMAND that prints `passphrase` and a newline."""
    return "printf '%s\\n' " + shlex.quote(passphrase)


def memo(binary, environment, store, *arguments):
    """One memo command with no terminal at all: standard input is not one, and a new session
    has no controlling terminal (/dev/tty cannot be opened), so memo can never ask."""
    return subprocess.run([binary, "--store", str(store)] + [str(argument) for argument in arguments],
                          env=environment, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          start_new_session=True, timeout=120)


def succeed(binary, environment, store, *arguments):
    result = memo(binary, environment, store, *arguments)
    assert result.returncode == 0, (arguments, result.returncode, result.stderr)
    return result


def with_passphrase(environment, passphrase=PASSPHRASE):
    return dict(environment, MEMO_PASSPHRASE_COMMAND=passphrase_command(passphrase))


def refusal(store):
    return f"error: cannot open store {store}: wrong passphrase, or the file is damaged\n"


def not_a_store(store):
    return f"error: {store} is not a memo store (not an SQLite database); it was left untouched\n"


def listing(folder):
    return sorted(path.name for path in folder.iterdir())


def contents(binary, environment, store):
    """Each memo as memo shows it: uuid, text, dates and tags, in insert order."""
    return [json.loads(line) for line in succeed(binary, environment, store, "--json", "list", "--asc").stdout.splitlines()]


def image_texts(image, tmp_path, name="image.sqlite"):
    """The memo texts of a database image, read by Python's sqlite3 from a file of the image."""
    assert image[:16] == SQLITE_MAGIC
    path = tmp_path / name
    path.write_bytes(image)
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return [row[0] for row in connection.execute("SELECT content FROM memo ORDER BY id")]
    finally:
        connection.close()
        path.unlink()


def leaked(folder, texts):
    """The (file, text) pairs where a file of `folder` holds a text, whole or one of its words."""
    found = []
    for path in sorted(folder.iterdir()):
        data = path.read_bytes()
        for text in texts:
            pieces = [text] + [word for word in text.split() if len(word.encode()) >= 5]
            found += [(path.name, piece) for piece in pieces if piece.encode() in data]
    return found


def plain_store(binary, environment, folder, texts=TEXTS):
    folder.mkdir()
    store = folder / "memo.sqlite"
    for text in texts:
        succeed(binary, environment, store, "add", text)
    return store


def test_memo_seals_a_store_into_the_documented_format_with_no_text_in_clear(memo_binary, environment, tmp_path):
    store = plain_store(memo_binary, environment, tmp_path / "notes")
    before = contents(memo_binary, environment, store)
    sealed = with_passphrase(environment)
    succeed(memo_binary, sealed, store, "encrypt")
    data = store.read_bytes()
    assert data.startswith(MAGIC)
    fields = sealed_format.header(data)
    assert (fields["version"], fields["algorithm"], fields["opslimit"], fields["memlimit"], fields["chunk_size"]) \
        == (1, 2, 2, 256 << 20, 65536), fields
    assert listing(store.parent) == ["memo.sqlite"]
    assert leaked(store.parent, TEXTS) == []
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
    image = unseal(data, PASSPHRASE)
    assert image[18:20] == b"\x01\x01", "the image is not in rollback-journal mode"
    assert image_texts(image, tmp_path) == TEXTS
    # And memo itself shows the same memos as before, to the uuid and the millisecond.
    assert contents(memo_binary, sealed, store) == before


def test_the_passphrase_is_the_first_line_of_the_command_byte_for_byte(memo_binary, environment, tmp_path):
    store = plain_store(memo_binary, environment, tmp_path / "notes", TEXTS[:1])
    passphrase = "  Grüße, 🐎 und ein Pferd  "
    command = dict(environment, MEMO_PASSPHRASE_COMMAND="printf '%s\\nsecond line\\n' " + shlex.quote(passphrase))
    succeed(memo_binary, command, store, "encrypt")
    data = store.read_bytes()
    assert image_texts(unseal(data, passphrase), tmp_path) == TEXTS[:1]
    with pytest.raises(Damaged):
        unseal(data, passphrase.strip())
    assert [memo["content"] for memo in contents(memo_binary, command, store)] == TEXTS[:1]


@pytest.mark.parametrize("chunk_size", [65536, 4096])
def test_memo_opens_and_changes_a_file_written_from_the_document_alone(memo_binary, environment, tmp_path, chunk_size):
    plain = plain_store(memo_binary, environment, tmp_path / "plain")
    image_file = tmp_path / "image.sqlite"
    source = sqlite3.connect(plain)
    source.execute("VACUUM INTO ?", (str(image_file),))
    source.close()
    image = image_file.read_bytes()
    assert image[18:20] == b"\x01\x01" and len(image) % 4096 == 0  # with 4096, the last chunk is a full one
    folder = tmp_path / "sealed"
    folder.mkdir()
    store = folder / "memo.sqlite"
    # Parameters of its own (memo writes opslimit 2 and 256 MiB): memo must take them from the header.
    store.write_bytes(seal(image, PASSPHRASE, opslimit=1, memlimit=8 << 20, chunk_size=chunk_size))
    store.chmod(0o600)
    sealed = with_passphrase(environment)
    assert [memo["content"] for memo in contents(memo_binary, sealed, store)] == TEXTS
    listed = succeed(memo_binary, sealed, store, "list").stdout
    assert all(text.splitlines()[0] in listed for text in TEXTS), listed
    succeed(memo_binary, sealed, store, "add", "written back by memo")
    data = store.read_bytes()
    assert data.startswith(MAGIC)
    assert image_texts(unseal(data, PASSPHRASE), tmp_path) == TEXTS + ["written back by memo"]
    assert listing(folder) == ["memo.sqlite"]


def undated(output):
    """A command's output without its dates and times, which differ between two stores."""
    return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?", "DATE", output)


def comparable(memos):
    """What two stores given the same commands share: not the uuids and dates of their memos."""
    return [(memo["id"], memo["content"], memo["tags"], memo["updateDate"] is None) for memo in memos]


def test_changes_keep_a_sealed_store_sealed_and_do_what_they_do_on_a_plain_one(memo_binary, environment, tmp_path):
    initial = ["first memo alpha", "second memo bravo", "third memo charlie"]
    plain = plain_store(memo_binary, environment, tmp_path / "plain", initial)
    store = plain_store(memo_binary, environment, tmp_path / "sealed", initial)
    sealed = with_passphrase(environment)
    succeed(memo_binary, sealed, store, "encrypt")
    commands = [
        ["add", "fourth memo delta 🐎 Pferdestärke"],
        ["add", "--tag", "errands", "fifth memo echoes"],
        ["edit", "1", "first memo rewritten foxtrot"],
        ["delete", "2"],
        ["undo"],
        ["delete", "3", "4"],
        ["undo"],
        ["redo"],
        ["tag", "1", "kept"],
        ["edit", "5", "fifth memo rewritten golfing"],
        ["undo"],
        ["search", "memo"],
        ["list", "--tag", "errands"],
        ["count"],
        ["list"],
    ]
    texts = initial + ["fourth memo delta 🐎 Pferdestärke", "fifth memo echoes", "first memo rewritten foxtrot",
                       "fifth memo rewritten golfing"]
    for command in commands:
        on_plain = memo(memo_binary, environment, plain, *command)
        on_sealed = memo(memo_binary, sealed, store, *command)
        assert (on_sealed.returncode, undated(on_sealed.stdout), on_sealed.stderr) \
            == (on_plain.returncode, undated(on_plain.stdout), on_plain.stderr), command
        assert store.read_bytes().startswith(MAGIC), command
        assert listing(store.parent) == ["memo.sqlite"], command
        assert leaked(store.parent, texts) == [], command
        assert stat.S_IMODE(store.stat().st_mode) == 0o600, command
    assert comparable(contents(memo_binary, sealed, store)) == comparable(contents(memo_binary, environment, plain))
    assert image_texts(unseal(store.read_bytes(), PASSPHRASE), tmp_path) \
        == [memo["content"] for memo in contents(memo_binary, environment, plain)]


def test_decrypt_gives_back_the_plain_store(memo_binary, environment, tmp_path):
    store = plain_store(memo_binary, environment, tmp_path / "notes")
    before = contents(memo_binary, environment, store)
    sealed = with_passphrase(environment)
    succeed(memo_binary, sealed, store, "encrypt")
    succeed(memo_binary, sealed, store, "decrypt")
    data = store.read_bytes()
    assert data.startswith(SQLITE_MAGIC)
    assert image_texts(data, tmp_path, "copy.sqlite") == TEXTS
    # No passphrase is needed any more, and nothing about the memos changed.
    assert contents(memo_binary, environment, store) == before
    assert listing(store.parent) == ["memo.sqlite"]
    assert stat.S_IMODE(store.stat().st_mode) == 0o600


def test_change_passphrase_refuses_the_old_one_afterwards(memo_binary, environment, tmp_path):
    store = plain_store(memo_binary, environment, tmp_path / "notes")
    before = contents(memo_binary, environment, store)
    old = with_passphrase(environment, "old horse")
    succeed(memo_binary, old, store, "encrypt")
    # A wrong old passphrase changes nothing.
    sealed_bytes = store.read_bytes()
    wrong = dict(with_passphrase(environment, "not the old one"), MEMO_NEW_PASSPHRASE_COMMAND=passphrase_command("x"))
    refused = memo(memo_binary, wrong, store, "encrypt", "--change-passphrase")
    assert (refused.returncode, refused.stderr) == (3, refusal(store))
    assert store.read_bytes() == sealed_bytes and listing(store.parent) == ["memo.sqlite"]

    changing = dict(old, MEMO_NEW_PASSPHRASE_COMMAND=passphrase_command("new battery"))
    succeed(memo_binary, changing, store, "encrypt", "--change-passphrase")
    assert listing(store.parent) == ["memo.sqlite"]
    refused = memo(memo_binary, old, store, "list")
    assert (refused.returncode, refused.stdout, refused.stderr) == (3, "", refusal(store))
    assert contents(memo_binary, with_passphrase(environment, "new battery"), store) == before
    data = store.read_bytes()
    assert image_texts(unseal(data, "new battery"), tmp_path) == TEXTS
    with pytest.raises(Damaged):
        unseal(data, "old horse")


def flipped(data, position, bit):
    damaged = bytearray(data)
    damaged[position] ^= 1 << bit
    return bytes(damaged)


def damaged_files(data, other):
    """(what was done, the file's bytes): a bit flipped in each field of the header and in
    chunks, truncations, chunks swapped, and the header of another sealed file."""
    size = 65536 + 17
    last = 84 + (len(data) - 84) // size * size
    if last == len(data):
        last -= size
    flips = {
        "magic": [(0, 0), (7, 7)], "version": [(8, 0), (11, 7)], "algorithm": [(12, 0), (12, 1), (15, 7)],
        # opslimit 3 and memlimit 256 MiB + 1 are in bounds: the first chunk's additional data finds them.
        "opslimit": [(16, 0), (23, 7)], "memlimit": [(24, 0), (27, 4), (31, 7)], "salt": [(32, 0), (47, 7)],
        "chunk size": [(48, 0), (50, 0), (51, 7)], "plaintext length": [(52, 0), (53, 4), (59, 7)],
        "stream header": [(60, 0), (71, 3), (83, 7)],
        "first chunk": [(84, 0), (84 + 1000, 5), (84 + size - 1, 2)],
        "middle chunk": [(84 + size, 1), (84 + size + 30000, 6)],
        "last chunk": [(last, 0), (last + (len(data) - last) // 2, 4)],
        "last byte": [(len(data) - 1, 7)],
    }
    for field, places in flips.items():
        for position, bit in places:
            yield f"{field}: bit {bit} of byte {position} flipped", flipped(data, position, bit)
    for length in list(range(4096, len(data), 4096)) + [len(data) - 1]:
        yield f"truncated to {length} bytes", data[:length]
    yield "a byte appended", data + b"\x00"
    yield "the first two chunks swapped", data[:84] + data[84 + size:84 + 2 * size] + data[84:84 + size] + data[84 + 2 * size:]
    yield "the header of another sealed file", other[:84] + data[84:]


def test_a_wrong_passphrase_and_every_damage_give_one_line_and_touch_nothing(memo_binary, environment, tmp_path):
    # A store of three chunks and more, and another sealed with the same passphrase from a copy
    # of it: the same length, another salt and stream header.
    folder = tmp_path / "notes"
    folder.mkdir()
    store = folder / "memo.sqlite"
    fill(memo_binary, environment, store, 500)
    (tmp_path / "other").mkdir()
    other_store = tmp_path / "other" / "memo.sqlite"
    shutil.copy(store, other_store)
    sealed = with_passphrase(environment)
    succeed(memo_binary, sealed, store, "encrypt")
    succeed(memo_binary, sealed, other_store, "encrypt")
    data, other = store.read_bytes(), other_store.read_bytes()
    assert len(data) > 84 + 2 * (65536 + 17), "the store fills fewer than three chunks"
    assert len(other) == len(data) and other[:84] != data[:84]
    cases = list(damaged_files(data, other))
    cases.append(("a wrong passphrase", data))
    wrong = with_passphrase(environment, "correct horse battery")
    commands = [["add", "written into a damaged store"], ["list"], ["count"]]
    failures = []
    for index, (case, damaged) in enumerate(cases):
        store.write_bytes(damaged)
        before = listing(folder)
        command = commands[index % len(commands)]
        result = memo(memo_binary, wrong if case == "a wrong passphrase" else sealed, store, *command)
        # Without its magic the file is no sealed store to memo, but a file of another program.
        expected = not_a_store(store) if case.startswith("magic:") else refusal(store)
        problems = []
        if result.returncode != 3:
            problems.append(f"exit status {result.returncode}")
        if result.stderr != expected:
            problems.append(f"stderr {result.stderr!r}")
        if result.stdout != "":
            problems.append(f"stdout {result.stdout!r}")
        if store.read_bytes() != damaged:
            problems.append("the file changed")
        if listing(folder) != before:
            problems.append(f"the folder holds {listing(folder)}, not {before}")
        if problems:
            failures.append(f"{case} ({' '.join(command)}): {'; '.join(problems)}")
    assert failures == [], f"{len(failures)} of {len(cases)} cases:\n" + "\n".join(failures)
    # The cases above were refused for what was done to the file: the file itself opens.
    store.write_bytes(data)
    assert succeed(memo_binary, sealed, store, "count").stdout == "500\n"


def test_without_a_command_or_a_terminal_memo_says_what_to_set(memo_binary, environment, tmp_path):
    store = plain_store(memo_binary, environment, tmp_path / "notes")
    plain_bytes = store.read_bytes()
    refused = memo(memo_binary, environment, store, "encrypt")
    assert refused.returncode == 3, refused.stderr
    assert "MEMO_PASSPHRASE_COMMAND" in refused.stderr and len(refused.stderr.splitlines()) == 1, refused.stderr
    assert "is encrypted" not in refused.stderr, f"the store is plain: {refused.stderr}"
    assert store.read_bytes() == plain_bytes and listing(store.parent) == ["memo.sqlite"]

    succeed(memo_binary, with_passphrase(environment), store, "encrypt")
    sealed_bytes = store.read_bytes()
    for command in (["list"], ["add", "no passphrase to seal this"]):
        refused = memo(memo_binary, environment, store, *command)
        assert refused.returncode == 3, (command, refused.stderr)
        assert "MEMO_PASSPHRASE_COMMAND" in refused.stderr and len(refused.stderr.splitlines()) == 1, refused.stderr
        assert store.read_bytes() == sealed_bytes and listing(store.parent) == ["memo.sqlite"], command


@pytest.mark.parametrize("option", [["--passphrase", "x"], ["--passphrase=x"]])
def test_no_passphrase_on_the_command_line(memo_binary, environment, tmp_path, option):
    store = plain_store(memo_binary, environment, tmp_path / "notes")
    plain_bytes = store.read_bytes()
    # With a passphrase command set, the option is the only thing wrong.
    refused = memo(memo_binary, with_passphrase(environment), store, "encrypt", *option)
    assert refused.returncode != 0, refused.stdout
    assert store.read_bytes() == plain_bytes and listing(store.parent) == ["memo.sqlite"]


@pytest.mark.parametrize("command", ["exit 1", "printf '%s\\n' 'correct horse'; exit 1", "true", "echo"])
def test_a_passphrase_command_that_fails_or_prints_nothing_writes_nothing(memo_binary, environment, tmp_path, command):
    failing = dict(environment, MEMO_PASSPHRASE_COMMAND=command)
    store = plain_store(memo_binary, environment, tmp_path / "plain")
    plain_bytes = store.read_bytes()
    refused = memo(memo_binary, failing, store, "encrypt")
    assert refused.returncode == 3, refused.stderr
    assert "MEMO_PASSPHRASE_COMMAND" in refused.stderr and len(refused.stderr.splitlines()) == 1, refused.stderr
    assert store.read_bytes() == plain_bytes and listing(store.parent) == ["memo.sqlite"]

    sealed_store = plain_store(memo_binary, environment, tmp_path / "sealed")
    succeed(memo_binary, with_passphrase(environment), sealed_store, "encrypt")
    sealed_bytes = sealed_store.read_bytes()
    for arguments in (["add", "never written"], ["list"], ["decrypt"]):
        refused = memo(memo_binary, failing, sealed_store, *arguments)
        assert refused.returncode == 3, (arguments, refused.stderr)
        assert "MEMO_PASSPHRASE_COMMAND" in refused.stderr and len(refused.stderr.splitlines()) == 1, refused.stderr
        assert sealed_store.read_bytes() == sealed_bytes and listing(sealed_store.parent) == ["memo.sqlite"], arguments


def test_on_a_terminal_memo_asks_twice_for_a_new_passphrase_and_once_to_open(memo_binary, environment, tmp_path):
    store = plain_store(memo_binary, environment, tmp_path / "notes", TEXTS[:1])
    passphrase = "typed on the terminal"

    def answer(arguments, answers):
        """Runs memo on a terminal, answering each prompt (a line ending in `: `) in turn; then
        memo must end without asking again. What the terminal showed."""
        session = pexpect.spawn(memo_binary, ["--store", str(store)] + arguments, env=environment,
                                timeout=20, encoding="utf-8")
        shown = ""
        for reply in answers:
            session.expect(": ")
            shown += session.before + session.after
            # Answering once memo has turned echo off: no typing ahead of memo, and nothing echoed.
            assert session.waitnoecho(10), f"{arguments}: echo stays on at {shown!r}"
            session.send(reply + "\r")
        asked = session.expect([pexpect.EOF, ": "])
        shown += session.before + (session.after if asked else "")
        assert asked == 0, f"{arguments}: asked again after {len(answers)} answers: {shown!r}"
        session.close()
        assert session.exitstatus == 0, (arguments, shown)
        assert passphrase not in shown, f"the passphrase was echoed: {shown!r}"
        return shown

    assert f"encrypted {store}" in answer(["encrypt"], [passphrase, passphrase])
    assert image_texts(unseal(store.read_bytes(), passphrase), tmp_path) == TEXTS[:1]
    assert answer(["count"], [passphrase]).endswith("1\r\n")


def test_a_store_reached_through_a_symbolic_link_is_sealed_and_saved_where_it_is(memo_binary, environment, tmp_path):
    """`encrypt` and every save replace the file the link names, never the link: else the
    real store stays plain beside a link-sized sealed copy, and later memos go to the copy."""
    sealed_environment = with_passphrase(environment)
    real = plain_store(memo_binary, sealed_environment, tmp_path / "synced")
    link = tmp_path / "memo.sqlite"
    link.symlink_to(real)
    succeed(memo_binary, sealed_environment, link, "encrypt")
    assert link.is_symlink()
    assert real.read_bytes().startswith(MAGIC)
    succeed(memo_binary, sealed_environment, link, "add", "written through the link")
    assert link.is_symlink()
    shown = succeed(memo_binary, sealed_environment, real, "search", "through").stdout
    assert "written through the link" in shown
