"""Memo references (`#12`, `memo:UUID`) in any document through `memo serve`, driven by a
real LSP client (pygls): every feature of docs/REFERENCE.md, References in documents."""
import ast
import os
import pathlib
import urllib.parse
import stat
import subprocess
from types import SimpleNamespace

from lsprotocol import types

from editors import handles
from test_server import exit_status, initialize, serve

DOC = "file:///notes/today.md"


def memo(memo_binary, environment, store, *arguments):
    return subprocess.run([memo_binary, "--store", str(store)] + list(arguments), env=environment,
                          capture_output=True, text=True, check=True).stdout


def open_document(client, text, uri=DOC, language="markdown", version=1):
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=version, text=text)))


def position(line, character):
    return types.Position(line=line, character=character)


def spans(items):
    return [(item.range.start.line, item.range.start.character, item.range.end.character) for item in items]


def command_of(action):
    """The command a code action runs. The server sends CodeAction objects (title, kind,
    command); lsprotocol reads any object with a `command` key as a Command and keeps the
    nested command as its text, so it is read back from there."""
    nested = ast.literal_eval(action.command)
    return types.Command(title=nested["title"], command=nested["command"], arguments=nested["arguments"])


def prepare(memo_binary, environment, tmp_path):
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    store = tmp_path / "store.sqlite"
    memo(memo_binary, environment, store, "add", "Buy milk and bread @errand")
    memo(memo_binary, environment, store, "add", "Call the dentist about the appointment on Tuesday morning, early")
    memo(memo_binary, environment, store, "add", "Milestone review notes\nsecond line")
    return store


def served(memo_binary, environment, store, body, **options):
    """Serves `store` to a client initialized with `options`, runs `body(client)`, and checks that
    the server then shuts down and exits with status 0."""
    async def session(client):
        await initialize(client, **options)
        await body(client)
        return await exit_status(client)
    assert serve(memo_binary, environment, store, session) == 0


def store_folder(tmp_path, name="store"):
    """The folder of the store's own memo files (one per store, named after the store file)."""
    folders = [path for path in (tmp_path / "cache" / "memo" / "open").iterdir() if path.name.startswith(name + "-")]
    assert len(folders) == 1, folders
    return folders[0]


LINE = "日本語のメモ 🎉 #1 and memo:{uuid}, not a#2 or #2b, missing #99."


def test_references_are_found_after_japanese_and_emoji_in_utf16_and_utf8(memo_binary, environment, tmp_path):
    store = prepare(memo_binary, environment, tmp_path)
    uuid = memo(memo_binary, environment, store, "--json", "show", "2").split('"uuid":"')[1][:36]
    text = LINE.format(uuid=uuid) + "\n"
    prefix = text[:text.index("#1")]
    for encodings, unit in ((None, lambda s: len(s.encode("utf-16-le")) // 2), ([types.PositionEncodingKind.Utf8], lambda s: len(s.encode()))):
        async def body(client):
            open_document(client, text)
            await client.wait_for(lambda: DOC in client.diagnostics)
            [warning] = client.diagnostics[DOC]
            assert warning.message == "no memo #99"
            assert warning.severity == types.DiagnosticSeverity.Warning
            start = unit(text[:text.index("#99")])
            assert spans([warning]) == [(0, start, start + 3)]
            links = await client.text_document_document_link_async(
                types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=DOC)))
            first = unit(prefix)
            uuid_start = unit(text[:text.index("memo:")])
            assert spans(links) == [(0, first, first + 2), (0, uuid_start, uuid_start + 41)]
            hover = await client.text_document_hover_async(types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=DOC), position=position(0, first + 1)))
            assert "Buy milk and bread @errand" in hover.contents.value
        served(memo_binary, environment, store, body, encodings=encodings)


def test_links_hints_and_symbols_point_at_the_memos_own_files(memo_binary, environment, tmp_path):
    store = prepare(memo_binary, environment, tmp_path)

    async def body(client):
        result = await initialize(client)
        capabilities = result.capabilities
        assert capabilities.definition_provider and capabilities.inlay_hint_provider and capabilities.workspace_symbol_provider
        assert capabilities.document_link_provider is not None and capabilities.code_action_provider
        assert sorted(capabilities.execute_command_provider.commands) == ["memo.moveSelection", "memo.new", "memo.saveSelection"]
        open_document(client, "See #2 and #3.\n\nplain line #1\n")
        document = types.TextDocumentIdentifier(uri=DOC)
        links = await client.text_document_document_link_async(types.DocumentLinkParams(text_document=document))
        folder = store_folder(tmp_path)
        assert [link.target for link in links] == [(folder / f"{n}.md").as_uri() for n in (2, 3, 1)]
        assert (folder / "3.md").read_bytes() == b"Milestone review notes\nsecond line"
        assert stat.S_IMODE(os.stat(folder / "3.md").st_mode) == 0o600
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
        hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
            text_document=document, range=types.Range(start=position(0, 0), end=position(2, 0))))
        assert [(h.position.line, h.position.character, h.label) for h in hints] == [
            (0, 6, "Call the dentist about the appointment …"), (0, 13, "Milestone review notes"), (2, 13, "Buy milk and bread @errand")]
        assert all(len(h.label) <= 40 for h in hints)
        symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="mil"))
        assert [(s.name, s.location.uri) for s in symbols] == [
            ("Milestone review notes", (folder / "3.md").as_uri()), ("Buy milk and bread @errand", (folder / "1.md").as_uri())]
        assert len(await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))) == 3
        return await exit_status(client)

    assert serve(memo_binary, environment, store, body) == 0


def test_completion_after_a_hash_is_narrowed_by_full_text_search(memo_binary, environment, tmp_path):
    store = prepare(memo_binary, environment, tmp_path)

    async def body(client):
        open_document(client, "see #\nsee #mil\nsee #dentist tues\nmail a#\n")
        document = types.TextDocumentIdentifier(uri=DOC)

        async def complete(line, character):
            result = await client.text_document_completion_async(
                types.CompletionParams(text_document=document, position=position(line, character)))
            return result

        # A note outside the store gets each memo's stable form, memo:HANDLE.
        named = handles(SimpleNamespace(binary=memo_binary, environment=environment, store=store))
        everything = await complete(0, 5)
        assert [item.label for item in everything.items] == [named[3], named[2], named[1]]
        assert everything.items[2].detail == "#1 Buy milk and bread @errand"
        narrowed = await complete(1, 8)
        assert [item.label for item in narrowed.items] == [named[3], named[1]]
        assert narrowed.items[0].text_edit.new_text == named[3]
        assert spans([narrowed.items[0].text_edit]) == [(1, 4, 8)]
        assert [item.label for item in (await complete(2, 12)).items] == [named[2]]
        assert not (await complete(3, 7)).items

    served(memo_binary, environment, store, body)


def test_diagnostics_follow_changes_made_by_another_process(memo_binary, environment, tmp_path):
    store = prepare(memo_binary, environment, tmp_path)

    async def body(client):
        open_document(client, "waiting for #4\n")
        await client.wait_for(lambda: [d.message for d in client.diagnostics.get(DOC, [])] == ["no memo #4"])
        memo(memo_binary, environment, store, "add", "the fourth memo")
        await client.wait_for(lambda: not client.diagnostics[DOC], seconds=1.5)
        memo(memo_binary, environment, store, "delete", "4")
        await client.wait_for(lambda: [d.message for d in client.diagnostics[DOC]] == ["no memo #4"], seconds=1.5)

    served(memo_binary, environment, store, body)


def test_definition_then_save_edits_the_memo_and_a_conflicting_save_is_refused(memo_binary, environment, tmp_path):
    store = prepare(memo_binary, environment, tmp_path)

    async def body(client):
        open_document(client, "about #1\n")
        location = await client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=DOC), position=position(0, 7)))
        file = store_folder(tmp_path) / "1.md"
        assert location.uri == file.as_uri()
        assert file.read_text() == "Buy milk and bread @errand"

        # The editor opens the file, edits it and saves it (with the line break editors add).
        uri = location.uri
        open_document(client, file.read_text(), uri=uri)
        file.write_text("Buy oat milk @errand\n")
        client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri), text="Buy oat milk @errand\n"))
        await client.wait_for(lambda: "Buy oat milk" in memo(memo_binary, environment, store, "show", "1"))
        assert memo(memo_binary, environment, store, "--json", "show", "1").count('"content":"Buy oat milk @errand"') == 1

        # Another process edits the memo; a save of the stale file is refused.
        memo(memo_binary, environment, store, "edit", "1", "Changed elsewhere")
        client.text_document_did_save(types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=uri), text="My stale version\n"))
        await client.wait_for(lambda: [d.severity for d in client.diagnostics.get(uri, [])] == [types.DiagnosticSeverity.Error])
        assert "changed in the store" in client.diagnostics[uri][0].message
        assert "Changed elsewhere" in memo(memo_binary, environment, store, "show", "1")

        # Closed in the editor, the file follows the store.
        client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
        memo(memo_binary, environment, store, "edit", "1", "Third version")
        await client.wait_for(lambda: file.read_text() == "Third version", seconds=1.5)

    served(memo_binary, environment, store, body)


def test_code_actions_save_and_move_the_selection(memo_binary, environment, tmp_path):
    store = prepare(memo_binary, environment, tmp_path)

    async def body(client):
        open_document(client, "keep this\nmove me, please\nsave me too\n")
        document = types.TextDocumentIdentifier(uri=DOC)
        selection = types.Range(start=position(1, 0), end=position(1, 15))
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=document, range=selection, context=types.CodeActionContext(diagnostics=[])))
        assert [action.title for action in actions] == ["Save selection as memo", "Move selection to a memo"]
        empty = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=document, range=types.Range(start=position(0, 2), end=position(0, 2)),
            context=types.CodeActionContext(diagnostics=[])))
        assert not empty

        moved = command_of(actions[1])
        assert moved.command == "memo.moveSelection"
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command=moved.command, arguments=moved.arguments))
        await client.wait_for(lambda: client.applied_edits)
        [edit] = client.applied_edits[0].changes[DOC]
        named = handles(SimpleNamespace(binary=memo_binary, environment=environment, store=store))
        assert (spans([edit]), edit.new_text) == ([(1, 0, 15)], named[4])

        save = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=document, range=types.Range(start=position(2, 0), end=position(2, 11)),
            context=types.CodeActionContext(diagnostics=[])))
        saved = command_of(save[0])
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command=saved.command, arguments=saved.arguments))
        assert len(client.applied_edits) == 1, "saving leaves the document alone"
        listing = memo(memo_binary, environment, store, "list")
        assert listing.splitlines()[0].endswith("save me too")
        assert listing.splitlines()[1].endswith("move me, please")

    served(memo_binary, environment, store, body, applies_edits=True)


def test_a_move_is_offered_only_to_clients_that_apply_edits_and_never_becomes_a_copy(memo_binary, environment, tmp_path):
    store = prepare(memo_binary, environment, tmp_path)
    before = memo(memo_binary, environment, store, "count")

    async def actions_on_a_line(client):
        open_document(client, "move me\n")
        return await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=DOC), range=types.Range(start=position(0, 0), end=position(0, 7)),
            context=types.CodeActionContext(diagnostics=[])))

    async def without_edits(client):
        assert [action.title for action in await actions_on_a_line(client)] == ["Save selection as memo"]

    async def refusing_edits(client):
        client.applies_edits = False
        await initialize(client, applies_edits=True)
        moved = command_of((await actions_on_a_line(client))[1])
        await client.workspace_execute_command_async(types.ExecuteCommandParams(command=moved.command, arguments=moved.arguments))
        await client.wait_for(lambda: client.messages)
        assert "did not apply the edit" in client.messages[0] and "the buffer is read-only" in client.messages[0]
        assert "was not kept" in client.messages[0]
        return await exit_status(client)

    served(memo_binary, environment, store, without_edits)
    assert serve(memo_binary, environment, store, refusing_edits) == 0
    assert memo(memo_binary, environment, store, "count") == before, "the refused move kept no memo"


def test_references_answer_the_memos_and_documents_that_link_to_a_memo(memo_binary, environment, tmp_path):
    """`textDocument/references` on `#1`: each place a memo's text references memo 1, at its
    exact range in that memo's own file (after Japanese text, on a later line, CR LF lines),
    then the open documents that do; hover says how many memos reference it."""
    store = prepare(memo_binary, environment, tmp_path)
    uuid = memo(memo_binary, environment, store, "--json", "show", "1").split('"uuid":"')[1][:36]
    memo(memo_binary, environment, store, "add", "日本語 🎉 see #1")
    memo(memo_binary, environment, store, "add", f"first line\r\nsecond: memo:{uuid} and `#1` in code")
    memo(memo_binary, environment, store, "add", "about #2 only")

    async def body(client):
        open_document(client, "notes on #1\n")
        document = types.TextDocumentIdentifier(uri=DOC)
        found = await client.text_document_references_async(types.ReferenceParams(
            text_document=document, position=position(0, 10), context=types.ReferenceContext(include_declaration=False)))
        folder = store_folder(tmp_path)
        japanese = len("日本語 🎉 see ".encode("utf-16-le")) // 2
        assert [(f.uri, f.range.start.line, f.range.start.character, f.range.end.character) for f in found] == [
            ((folder / "4.md").as_uri(), 0, japanese, japanese + 2),
            ((folder / "5.md").as_uri(), 1, 8, 8 + 41),
            (DOC, 0, 9, 11)]
        assert (folder / "5.md").read_bytes() == f"first line\r\nsecond: memo:{uuid} and `#1` in code".encode()
        with_file = await client.text_document_references_async(types.ReferenceParams(
            text_document=document, position=position(0, 9), context=types.ReferenceContext(include_declaration=True)))
        assert with_file[0].uri == (folder / "1.md").as_uri() and len(with_file) == 4
        hover = await client.text_document_hover_async(types.HoverParams(text_document=document, position=position(0, 10)))
        assert hover.contents.value.endswith("Referenced by 2 memos.")
        assert await client.text_document_references_async(types.ReferenceParams(
            text_document=document, position=position(0, 2), context=types.ReferenceContext(include_declaration=False))) is None
        # A memo that is not there: the open documents that name it so.
        open_document(client, "first #99\n", uri="file:///notes/a.md")
        open_document(client, "then #99 again and #1\n", uri="file:///notes/b.md")
        missing = await client.text_document_references_async(types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri="file:///notes/b.md"), position=position(0, 6),
            context=types.ReferenceContext(include_declaration=True)))
        assert [(f.uri, f.range.start.character) for f in missing] == [("file:///notes/a.md", 6), ("file:///notes/b.md", 5)]

    served(memo_binary, environment, store, body)


def test_a_reference_in_a_memo_file_leads_where_its_link_does(memo_binary, environment, tmp_path):
    """A memo synced from a store where its `#2` named another memo: its own file reads the
    link by that memo's id here, and go to definition and references there follow it."""
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    there, store = tmp_path / "there.sqlite", tmp_path / "store.sqlite"
    for text in ("first there", "milk", "plan: buy #2"):
        memo(memo_binary, environment, there, "add", text)
    for text in ("one here", "two here", "three here"):
        memo(memo_binary, environment, store, "add", text)
    memo(memo_binary, environment, store, "sync", str(there))
    listed = memo(memo_binary, environment, store, "list")
    milk = int(next(line for line in listed.splitlines() if line.endswith("  milk")).split()[0][1:])
    plan = int(next(line for line in listed.splitlines() if "plan: buy #" in line).split()[0][1:])
    assert milk != 2
    assert f"plan: buy #{milk}" in listed, "the list reads the link by milk's id here"

    async def body(client):
        open_document(client, f"see #{plan}\n")
        location = await client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=DOC), position=position(0, 5)))
        plan_file = location.uri
        # The file holds the text as read here: the link by milk's id here.
        shown = pathlib.Path(urllib.parse.urlparse(plan_file).path).read_text()
        assert shown == f"plan: buy #{milk}", shown
        open_document(client, shown, uri=plan_file)
        target = await client.text_document_definition_async(types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=plan_file), position=position(0, 11)))
        assert target.uri == (store_folder(tmp_path) / f"{milk}.md").as_uri()
        found = await client.text_document_references_async(types.ReferenceParams(
            text_document=types.TextDocumentIdentifier(uri=plan_file), position=position(0, 11),
            context=types.ReferenceContext(include_declaration=False)))
        assert [(f.uri, f.range.start.character) for f in found] == [(plan_file, 10)]
        hover = await client.text_document_hover_async(types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=plan_file), position=position(0, 11)))
        assert f"#{milk}\n" in hover.contents.value and "milk" in hover.contents.value, hover.contents.value
        # Completion after `#` works in a memo's own file as in any document.
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=plan_file, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=f"plan: buy #{milk} and #mil")]))
        completed = await client.text_document_completion_async(types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=plan_file), position=position(0, 21)))
        assert [item.label for item in completed.items] == [f"#{milk}"]

    served(memo_binary, environment, store, body)
