"""The memos' own files of `memo serve` (docs/REFERENCE.md, Memos' own files): one folder per store,
the version each file was written from kept on disk for any server on the store, saves after a
refusal, and cache paths given with a trailing slash or through a symlink."""
import asyncio
import contextlib
import os

from lsprotocol import types

from test_references import memo, open_document, position, store_folder
from test_server import MemoClient, exit_status, initialize, serve

NOTE = "file:///notes/today.md"


async def definition_of_1(client):
    """Opens a note that references #1 and asks for the definition: the path of #1's file."""
    open_document(client, "about #1\n", uri=NOTE)
    location = await client.text_document_definition_async(types.DefinitionParams(
        text_document=types.TextDocumentIdentifier(uri=NOTE), position=position(0, 7)))
    return location.uri


def noting_the_file_of_1(uris, name):
    """A server session that notes under `uris[name]` where #1's file is, then exits."""
    async def session(client):
        await initialize(client)
        uris[name] = await definition_of_1(client)
        return await exit_status(client)
    return session


async def refused_save(client, uri, text):
    """Saves `text` to `uri` as an editor would; the error the server shows on the file."""
    save(client, uri, text)
    await client.wait_for(lambda: errors(client, uri))
    return errors(client, uri)[0]


def save(client, uri, text):
    """What an editor does: writes the file, then tells the server."""
    with open(uri.removeprefix("file://"), "w") as file:
        file.write(text)
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri), text=text))


def errors(client, uri):
    return [d.message for d in client.diagnostics.get(uri, []) if d.severity == types.DiagnosticSeverity.Error]


def test_each_store_has_its_own_files_and_a_save_edits_only_its_store(memo_binary, environment, tmp_path):
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    work, home = tmp_path / "work.sqlite", tmp_path / "home.sqlite"
    memo(memo_binary, environment, work, "add", "work memo")
    memo(memo_binary, environment, home, "add", "home memo")
    uris = {}

    async def work_server(client):
        await initialize(client)
        uris["work"] = await definition_of_1(client)
        assert uris["work"] != uris["home"]
        # The editor saves home's file to the server of work: work's #1 is left alone, and says why.
        open_document(client, "home memo", uri=uris["home"])
        assert "another memo store" in await refused_save(client, uris["home"], "home memo, edited\n")
        return await exit_status(client)

    assert serve(memo_binary, environment, home, noting_the_file_of_1(uris, "home")) == 0
    assert serve(memo_binary, environment, work, work_server) == 0
    assert memo(memo_binary, environment, work, "show", "1").rstrip("\n").endswith("work memo")
    assert memo(memo_binary, environment, home, "show", "1").rstrip("\n").endswith("home memo")
    for name in ("work", "home"):
        path = uris[name].removeprefix("file://")
        assert os.path.dirname(path) == str(store_folder(tmp_path, name))
    assert open(uris["work"].removeprefix("file://")).read() == "work memo"


def test_a_second_server_refuses_a_stale_save_then_takes_one_based_on_the_current_version(memo_binary, environment, tmp_path):
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    store = tmp_path / "store.sqlite"
    memo(memo_binary, environment, store, "add", "first version")
    uris = {}

    async def second_server(client):
        await initialize(client)
        uri = uris["file"]
        open_document(client, "first version", uri=uri)
        message = await refused_save(client, uri, "my stale edit\n")
        assert "changed in the store since this file was written" in message
        assert "memo show 1" in message
        assert memo(memo_binary, environment, store, "show", "1").rstrip("\n").endswith("changed elsewhere")

        # The editor reloads the store's text: saving it is accepted, and so is the next edit.
        save(client, uri, "changed elsewhere\n")
        await client.wait_for(lambda: not errors(client, uri))
        save(client, uri, "changed elsewhere, then here\n")
        await client.wait_for(lambda: "then here" in memo(memo_binary, environment, store, "show", "1"))
        assert not errors(client, uri)
        return await exit_status(client)

    assert serve(memo_binary, environment, store, noting_the_file_of_1(uris, "file")) == 0
    memo(memo_binary, environment, store, "edit", "1", "changed elsewhere")
    assert serve(memo_binary, environment, store, second_server) == 0


@contextlib.asynccontextmanager
async def two_servers(memo_binary, store, environment):
    """Two LSP clients, each with a `memo serve` of its own on `store`, initialized (two
    editors on one store); killed if still running when the block ends."""
    first, second = MemoClient(), MemoClient()
    await first.start_io(memo_binary, "--store", str(store), "serve", env=environment)
    await second.start_io(memo_binary, "--store", str(store), "serve", env=environment)
    try:
        await initialize(first)
        await initialize(second)
        yield first, second
    finally:
        for client in (first, second):
            if client._server and client._server.returncode is None:
                client._server.kill()
            await client.stop()


def test_a_file_rewritten_by_another_server_does_not_make_an_older_editor_text_current(memo_binary, environment, tmp_path):
    # Editor 1 has #1's file open; #1 is edited from the shell; a second server (another editor
    # window) rewrites the file and its base to the new version. Editor 1 still holds the old
    # text: its save is refused, and the shell's edit is kept.
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    store = tmp_path / "store.sqlite"
    memo(memo_binary, environment, store, "add", "first version")

    async def session():
        async with two_servers(memo_binary, store, environment) as (first, second):
            uri = await definition_of_1(first)
            open_document(first, "first version", uri=uri)
            memo(memo_binary, environment, store, "edit", "1", "edited from the shell")
            assert await definition_of_1(second) == uri
            assert open(uri.removeprefix("file://")).read() == "edited from the shell"
            message = await refused_save(first, uri, "first version, edited in editor 1\n")
            assert "changed in the store since this file was written" in message
            assert memo(memo_binary, environment, store, "show", "1").rstrip("\n").endswith("edited from the shell")
            # Editor 1 reloads the file: its text is the current version's, and a save of an edit is taken.
            first.text_document_did_change(types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text="edited from the shell")]))
            save(first, uri, "edited from the shell, then in editor 1\n")
            await first.wait_for(lambda: "then in editor 1" in memo(memo_binary, environment, store, "show", "1"))
            return [await exit_status(first), await exit_status(second)]

    assert asyncio.run(session()) == [0, 0]


def test_a_file_left_after_a_refused_save_follows_the_store_once_a_new_server_starts(memo_binary, environment,
                                                                                   tmp_path):
    # Two editors (two servers) have #1's file open; the first saves, the second's older text is
    # refused; both quit without closing the file. A new server puts the store's text back in it.
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    store = tmp_path / "store.sqlite"
    memo(memo_binary, environment, store, "add", "Four")

    async def two_editors():
        async with two_servers(memo_binary, store, environment) as (first, second):
            uri = await definition_of_1(first)
            assert await definition_of_1(second) == uri
            open_document(first, "Four", uri=uri)
            open_document(second, "Four", uri=uri)
            save(first, uri, "Four\nIMPORTANT A CHANGE\n")
            await first.wait_for(lambda: "IMPORTANT" in memo(memo_binary, environment, store, "show", "1"))
            assert "changed in the store since this file was written" in await refused_save(second, uri, "Four\nB1\n")
            assert open(uri.removeprefix("file://")).read() == "Four\nB1\n", "the refused text stays while open"
            return uri, [await exit_status(first), await exit_status(second)]

    uri, statuses = asyncio.run(two_editors())
    assert statuses == [0, 0]

    async def new_server(client):
        await initialize(client)
        path = uri.removeprefix("file://")
        await client.wait_for(lambda: open(path).read() == "Four\nIMPORTANT A CHANGE")
        open_document(client, open(path).read(), uri=uri)
        save(client, uri, "Four\nIMPORTANT A CHANGE\nC appends\n")
        await client.wait_for(lambda: "C appends" in memo(memo_binary, environment, store, "show", "1"))
        assert not errors(client, uri)
        return await exit_status(client)

    assert serve(memo_binary, environment, store, new_server) == 0


def saves_through(memo_binary, environment, tmp_path, uri_of):
    """Serves a store whose #1 is saved through `uri_of(the URI the server gave)`; the memo's text."""
    store = tmp_path / "store.sqlite"
    memo(memo_binary, environment, store, "add", "before")

    async def body(client):
        await initialize(client)
        uri = uri_of(await definition_of_1(client))
        open_document(client, "before", uri=uri)
        save(client, uri, "after\n")
        await client.wait_for(lambda: "after" in memo(memo_binary, environment, store, "show", "1") or errors(client, uri))
        assert not errors(client, uri)
        return await exit_status(client)

    assert serve(memo_binary, environment, store, body) == 0
    return memo(memo_binary, environment, store, "show", "1").rstrip("\n").split("\n")[-1]


def test_a_cache_home_with_a_trailing_slash_still_saves(memo_binary, environment, tmp_path):
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache") + "/"
    assert saves_through(memo_binary, environment, tmp_path, lambda uri: uri).endswith("after")


def test_a_symlinked_cache_folder_saves_by_either_path(memo_binary, environment, tmp_path):
    (tmp_path / "real-cache").mkdir()
    (tmp_path / "cache").symlink_to(tmp_path / "real-cache")
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    resolved = lambda uri: "file://" + os.path.realpath(uri.removeprefix("file://"))
    assert saves_through(memo_binary, environment, tmp_path, resolved).endswith("after")
