"""`memo serve` on an encrypted store, driven by a real LSP client (pygls): the memos' own
files that go to definition opens are not written (the answer says why instead), the log
holds no memo text, and nothing the server does leaves a memo's text on disk, whether it
shuts down or is killed."""
import asyncio
import os
import pathlib
import signal
import subprocess

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

import editors
from editors import SCRIPTS, prepare
from plaintext import PASSPHRASE_COMMAND, SealedPlaces, sentinel
from stores import memo
from test_server import MemoClient, exit_status, initialize
from waiting import wait_until_async


def make_store(memo_binary, places, sealed=True):
    memo(memo_binary, places.environment, places.store, "add", "the first memo")
    if sealed:
        memo(memo_binary, places.environment, places.store, "encrypt")
        assert places.store.read_bytes().startswith(b"memoSEAL")


def serve(memo_binary, places, body):
    """Runs `body(client)` on a server of the places' store; its result and the server's stderr."""
    async def session():
        client = MemoClient()
        await client.start_io(memo_binary, "--store", str(places.store), "serve", env=places.environment)
        try:
            result = await body(client)
            if client._server.returncode is None:
                client._server.kill()
            await client._server.wait()
            return result, (await client._server.stderr.read()).decode()
        finally:
            if client._server and client._server.returncode is None:
                client._server.kill()
            await client.stop()
    return asyncio.run(session())


def note(places, text):
    """A note outside the store that references its memos; in the inputs, which are not searched."""
    path = places.inputs / "note.md"
    path.write_text(text)
    return types.TextDocumentIdentifier(uri=path.as_uri())


def open_note(client, document, text):
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=document.uri, language_id="markdown", version=1, text=text)))


async def definition(client, document, line=0, character=5):
    """Go to definition on the reference at `line`, `character`: the location, or the error."""
    try:
        return await client.text_document_definition_async(types.DefinitionParams(
            text_document=document, position=types.Position(line=line, character=character)))
    except JsonRpcException as error:
        return error


async def add_and_ask(client, places, word):
    """Adds a memo holding `word` through the server, opens a note that references it and
    asks what an editor asks about it; the definition answer and the memo's id."""
    await initialize(client)
    added = await client.call("memo/add", {"content": f"Launch plan {word}\n\nonly here"})
    text = f"See #{added.id} for the plan\n#\n"
    document = note(places, text)
    open_note(client, document, text)
    position = types.Position(line=0, character=5)
    hover = await client.text_document_hover_async(types.HoverParams(text_document=document, position=position))
    assert word in hover.contents.value  # the editor is told the text; only the disk is not
    completion = await client.text_document_completion_async(types.CompletionParams(
        text_document=document, position=types.Position(line=1, character=1)))
    assert any(word in (item.detail or "") + (item.insert_text or "") for item in completion.items)
    links = await client.text_document_document_link_async(types.DocumentLinkParams(text_document=document))
    found = await client.text_document_references_async(types.ReferenceParams(
        text_document=document, position=position, context=types.ReferenceContext(include_declaration=True)))
    answer = await definition(client, document)
    return answer, added.id, links, found


def assert_explains(answer, memo_id, places):
    """The definition answer on an encrypted store: LSP's RequestFailed, saying why there is no
    file (eglot shows the message in the echo area, Neovim as an error message)."""
    assert isinstance(answer, JsonRpcException), answer
    assert answer.code == -32803
    assert f"memo #{memo_id} has no file to open" in answer.message
    assert "encrypted" in answer.message and str(places.store) in answer.message


def test_the_server_on_an_encrypted_store_writes_no_memo_text_and_says_why_there_is_no_file(
        memo_binary, environment, tmp_path):
    places = SealedPlaces(environment, tmp_path)
    make_store(memo_binary, places)
    word = sentinel()

    async def body(client):
        answer, memo_id, links, found = await add_and_ask(client, places, word)
        assert_explains(answer, memo_id, places)
        assert list(links) == []
        assert [location.uri for location in found or []] == [(places.inputs / "note.md").as_uri()]
        with pytest.raises(JsonRpcException) as symbols:
            await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=word))
        assert "encrypted" in symbols.value.message
        with pytest.raises(JsonRpcException) as new_memo:
            await client.workspace_execute_command_async(types.ExecuteCommandParams(
                command="memo.new", arguments=[f"New {word}"]))
        assert "nothing was added" in new_memo.value.message
        searched = await client.call("memo/execute", {"line": f"search {word}"})
        assert searched.ok and searched.output.count(word) == 1  # memo.new added nothing
        return await exit_status(client)

    status, stderr = serve(memo_binary, places, body)
    assert status == 0
    assert word not in stderr
    assert places.files_holding(word) == []
    assert not (places.cache / "memo").exists()


def test_on_a_plain_store_the_definition_is_the_memos_file_which_the_search_finds(
        memo_binary, environment, tmp_path):
    """The same steps on a plain store: the memo's file under the cache holds its text, so the
    search above would see a file written for an encrypted store."""
    places = SealedPlaces(environment, tmp_path)
    make_store(memo_binary, places, sealed=False)
    word = sentinel()

    async def body(client):
        answer, memo_id, links, _ = await add_and_ask(client, places, word)
        assert [link.target for link in links] == [answer.uri]
        return answer, await exit_status(client)

    (answer, status), _ = serve(memo_binary, places, body)
    assert status == 0
    path = pathlib.Path(answer.uri.removeprefix("file://"))
    assert path.is_relative_to(places.cache) and word in path.read_text()
    assert str(path) in places.files_holding(word)


def test_a_killed_server_on_an_encrypted_store_leaves_no_memo_text(memo_binary, environment, tmp_path):
    places = SealedPlaces(environment, tmp_path)
    make_store(memo_binary, places)
    word = sentinel()

    async def body(client):
        answer, memo_id, _, _ = await add_and_ask(client, places, word)
        assert_explains(answer, memo_id, places)
        os.kill(client._server.pid, signal.SIGKILL)
        assert await asyncio.wait_for(client._server.wait(), 10) == -signal.SIGKILL
        return memo_id

    memo_id, stderr = serve(memo_binary, places, body)
    assert word not in stderr
    assert places.files_holding(word) == []
    # The store opens after the kill, with the memo the server added.
    shown = memo(memo_binary, places.environment, places.store, "show", memo_id)
    assert word in shown.stdout
    assert places.files_holding(word) == []


def test_a_malformed_frame_is_logged_without_the_bytes_it_held_on_an_encrypted_store(
        memo_binary, environment, tmp_path):
    """After a frame whose Content-Length was wrong, the rest of a message (a memo's text) reads
    as a header; its log line quotes it for a plain store, not for an encrypted one."""
    for sealed in (False, True):
        (tmp_path / str(sealed)).mkdir()
        places = SealedPlaces(environment, tmp_path / str(sealed))
        make_store(memo_binary, places, sealed=sealed)
        word = sentinel()
        served = subprocess.run(
            [memo_binary, "--store", str(places.store), "serve"], env=places.environment,
            input=f"Content-Length: 2\r\n{word} is in this header\r\n\r\n{{}}".encode(),
            capture_output=True, timeout=30)
        assert b"malformed frame: a header line without a colon" in served.stderr
        assert (word.encode() in served.stderr) == (not sealed)
        if sealed:
            assert word.encode() not in served.stdout
            assert places.files_holding(word) == []


def test_the_server_takes_the_passphrase_only_from_its_command_and_says_so(memo_binary, environment, tmp_path):
    """Without MEMO_PASSPHRASE_COMMAND the server asks no one (an editor starts it with no
    terminal): it exits with status 3 before speaking, its reason on standard error, which
    editors show (Neovim's LSP log, eglot's stderr buffer)."""
    places = SealedPlaces(environment, tmp_path)
    make_store(memo_binary, places)
    without = {key: value for key, value in places.environment.items() if key != "MEMO_PASSPHRASE_COMMAND"}
    request = b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}'
    served = subprocess.run(
        [memo_binary, "--store", str(places.store), "serve"], env=without, start_new_session=True,
        input=b"Content-Length: %d\r\n\r\n%s" % (len(request), request), capture_output=True, timeout=30)
    assert served.returncode == 3
    assert served.stdout == b""
    assert b"MEMO_PASSPHRASE_COMMAND" in served.stderr and b"encrypted" in served.stderr


def sealed_editors(memo_binary, environment, tmp_path):
    """The editors' store (test_editor_lsp_features.py), encrypted."""
    editors_setup = prepare(memo_binary, environment, tmp_path)
    editors_setup.environment["MEMO_PASSPHRASE_COMMAND"] = PASSPHRASE_COMMAND
    editors.memo(memo_binary, editors_setup.environment, editors_setup.store, "encrypt")
    return editors_setup


def check_sealed_definition(editors_setup, result):
    assert "memo #1 has no file to open" in result["shown"] and "is encrypted" in result["shown"]
    assert result["still in the note"] is True
    assert not (editors_setup.tmp_path / "cache" / "memo").exists()


def test_neovim_shows_why_go_to_definition_opens_no_file_on_an_encrypted_store(memo_binary, environment, tmp_path):
    editors_setup = sealed_editors(memo_binary, environment, tmp_path)
    result = editors_setup.neovim("sealed_definition", MEMO_TEST_SCENARIOS="lsp_features")
    check_sealed_definition(editors_setup, result)


def test_eglot_shows_why_go_to_definition_opens_no_file_on_an_encrypted_store(memo_binary, environment, tmp_path):
    editors_setup = sealed_editors(memo_binary, environment, tmp_path)
    result = editors_setup.emacs("sealed_definition", MEMO_EXTRA_EL=str(SCRIPTS / "lsp_features.el"))
    check_sealed_definition(editors_setup, result)
