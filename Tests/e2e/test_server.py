"""`memo serve` driven by a real LSP client (pygls), and by raw bytes for the framing."""
import asyncio
import os
import subprocess

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.client import BaseLanguageClient

from framing import FrameReader, frame, read_frames
from hostile import high_water_mark_kib
from stores import create_store
from waiting import wait_until_async


class MemoClient(BaseLanguageClient):
    """An LSP client that also records memo's own notifications, and the edits the server
    asks it to apply (`workspace/applyEdit`, which it accepts)."""

    def __init__(self):
        super().__init__("memo-e2e", "1")
        self.changes = []
        self.diagnostics = {}
        self.applied_edits = []
        self.messages = []
        self.applies_edits = True

        @self.feature(types.WORKSPACE_APPLY_EDIT)
        def apply_edit(params):
            if not self.applies_edits:
                return types.ApplyWorkspaceEditResult(applied=False, failure_reason="the buffer is read-only")
            self.applied_edits.append(params.edit)
            return types.ApplyWorkspaceEditResult(applied=True)

        @self.feature(types.WINDOW_SHOW_MESSAGE)
        def show_message(params):
            self.messages.append(params.message)

        @self.feature("memo/didChange")
        def did_change(params):
            self.changes.append(params)

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def publish(params):
            self.diagnostics[params.uri] = params.diagnostics

    async def call(self, method, params=None):
        return await self.protocol.send_request_async(method, params or {})

    async def wait_for(self, condition, seconds=3.0):
        await wait_until_async(condition, lambda: "timed out", seconds)


def serve(memo_binary, environment, store, body):
    async def session():
        client = MemoClient()
        await client.start_io(memo_binary, "--store", str(store), "serve", env=environment)
        try:
            return await body(client)
        finally:
            if client._server and client._server.returncode is None:
                client._server.kill()
            await client.stop()
    return asyncio.run(session())


async def initialize(client, encodings=None, applies_edits=False):
    general = types.GeneralClientCapabilities(position_encodings=encodings) if encodings else None
    workspace = types.WorkspaceClientCapabilities(apply_edit=True) if applies_edits else None
    result = await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities(general=general,
                                                                                                         workspace=workspace)))
    client.initialized(types.InitializedParams())
    return result


async def exit_status(client, shutdown=True):
    if shutdown:
        await client.shutdown_async(None)
    client.exit(None)
    return await asyncio.wait_for(client._server.wait(), 5)


def test_lifecycle_notebook_methods_and_exit(memo_binary, environment, tmp_path):
    async def body(client):
        with pytest.raises(JsonRpcException) as refused:
            await client.call("memo/list")
        assert refused.value.code == -32002

        result = await initialize(client)
        assert result.server_info.name == "memo"
        assert result.capabilities.position_encoding == "utf-16"

        added = await client.call("memo/add", {"content": "Buy milk @shop", "tags": ["errand"]})
        assert (added.id, added.content, list(added.tags)) == (1, "Buy milk @shop", ["errand", "shop"])
        assert (await client.call("memo/get", {"id": 1})).uuid == added.uuid
        await client.call("memo/add", {"content": "second"})
        listed = await client.call("memo/list", {"order": "asc"})
        assert [memo.id for memo in listed.memos] == [1, 2]
        updated = await client.call("memo/update", {"id": 2, "content": "second, edited"})
        assert updated.updateDate is not None
        assert [tag.name for tag in (await client.call("memo/tags")).tags] == ["errand", "shop"]
        executed = await client.call("memo/execute", {"line": "count --tag shop"})
        assert (executed.ok, executed.output) == (True, "1\n")
        assert list((await client.call("memo/delete", {"ids": [2]})).deleted) == [2]

        with pytest.raises(JsonRpcException) as missing:
            await client.call("memo/get", {"id": 99})
        assert missing.value.code == -32001
        with pytest.raises(JsonRpcException) as invalid:
            await client.call("memo/add", {"content": 5})
        assert invalid.value.code == -32602
        with pytest.raises(JsonRpcException) as unknown:
            await client.call("memo/nothing")
        assert unknown.value.code == -32601
        return await exit_status(client)

    assert serve(memo_binary, environment, tmp_path / "store.sqlite", body) == 0


def test_exit_without_shutdown_is_status_1(memo_binary, environment, tmp_path):
    async def body(client):
        await initialize(client)
        return await exit_status(client, shutdown=False)

    assert serve(memo_binary, environment, tmp_path / "store.sqlite", body) == 1


def test_watch_sees_a_change_made_by_another_memo_process(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"

    async def body(client):
        await initialize(client)
        watch = await client.call("memo/watch", {"tag": "work"})
        added = subprocess.run([memo_binary, "--store", str(store), "add", "from another process @work"],
                               env=environment, capture_output=True, text=True)
        assert added.returncode == 0
        await client.wait_for(lambda: client.changes, seconds=1.5)
        change = client.changes[-1]
        assert change.watchId == watch.watchId
        assert [memo.content for memo in change.memos] == ["from another process @work"]
        await client.call("memo/unwatch", {"watchId": watch.watchId})
        return await exit_status(client)

    assert serve(memo_binary, environment, store, body) == 0


def test_diagnostics_completion_and_hover_for_memo_files(memo_binary, environment, tmp_path):
    uri = "file:///notes.memo"

    async def body(client):
        await initialize(client, encodings=[types.PositionEncodingKind.Utf8])
        await client.call("memo/add", {"content": "Ship it @work"})
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
            uri=uri, language_id="memo", version=1,
            text="add fine\nfrobnicate\nlist --tag 日本 --bogus\nshow 1\nlist --tag w\n")))
        await client.wait_for(lambda: uri in client.diagnostics)
        diagnostics = client.diagnostics[uri]
        assert [(d.range.start.line, d.range.start.character, d.range.end.character, d.message) for d in diagnostics] == [
            (1, 0, 10, "unknown command 'frobnicate' (try 'help')"),
            (2, 18, 25, "unknown option '--bogus' for 'list'"),
        ]

        document = types.TextDocumentIdentifier(uri=uri)
        completion = await client.text_document_completion_async(
            types.CompletionParams(text_document=document, position=types.Position(line=4, character=12)))
        assert [item.label for item in completion.items] == ["work"]
        hover = await client.text_document_hover_async(
            types.HoverParams(text_document=document, position=types.Position(line=3, character=5)))
        assert "Ship it @work" in hover.contents.value

        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="count\n")]))
        await client.wait_for(lambda: len(client.diagnostics[uri]) == 0)
        return await exit_status(client)

    assert serve(memo_binary, environment, tmp_path / "store.sqlite", body) == 0


def test_garbage_and_oversized_frames_never_end_the_server(memo_binary, environment, tmp_path):
    initialize_request = frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    huge = 100 * 1024 * 1024
    stream = (initialize_request
              + b"this is not a header\r\n\r\n"
              + b"Content-Length: 5\r\n\r\n{oops"
              + b"Content-Length: %d\r\n\r\n" % huge + b"x" * huge
              + frame({"jsonrpc": "2.0", "id": 2, "method": "memo/tags"})
              + frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
              + frame({"jsonrpc": "2.0", "method": "exit"}))
    create_store(memo_binary, environment, tmp_path / "store.sqlite")
    process = subprocess.Popen([memo_binary, "--store", str(tmp_path / "store.sqlite"), "serve"], env=environment,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    output, errors = process.communicate(stream, timeout=60)
    replies = read_frames(output)
    assert [reply.get("id") for reply in replies] == [1, None, None, None, 2, 3]
    assert [reply.get("error", {}).get("code") for reply in replies] == [None, -32700, -32700, -32700, None, None]
    assert "over the limit" in replies[3]["error"]["message"]
    assert process.returncode == 0
    assert b"memo serve: malformed frame" in errors


def test_oversized_frame_is_not_read_into_memory(memo_binary, environment, tmp_path):
    process = subprocess.Popen([memo_binary, "--store", str(tmp_path / "store.sqlite"), "serve"], env=environment,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    huge = 200 * 1024 * 1024
    process.stdin.write(b"Content-Length: %d\r\n\r\n" % huge)
    chunk = b"y" * (1024 * 1024)
    for _ in range(200):
        process.stdin.write(chunk)
    process.stdin.flush()
    peak = high_water_mark_kib(process.pid)
    process.stdin.close()
    process.wait(timeout=10)
    assert peak < 64 * 1024, f"peak resident memory {peak} KiB"


def start_raw_server(memo_binary, environment, tmp_path, **streams):
    if not (tmp_path / "store.sqlite").exists():
        create_store(memo_binary, environment, tmp_path / "store.sqlite")
    return subprocess.Popen([memo_binary, "--store", str(tmp_path / "store.sqlite"), "serve"], env=environment,
                            stdin=subprocess.PIPE, **streams)


def test_a_burst_is_answered_before_its_one_watch_notification(memo_binary, environment, tmp_path):
    """50 pipelined adds under a watch: every answer comes before the notification they cause,
    and the burst makes one notification, not fifty."""
    process = start_raw_server(memo_binary, environment, tmp_path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    setup = (frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
             + frame({"jsonrpc": "2.0", "id": 2, "method": "memo/watch", "params": {}}))
    burst = b"".join(frame({"jsonrpc": "2.0", "id": 100 + n, "method": "memo/add", "params": {"content": f"memo {n}"}})
                     for n in range(50))
    reader = FrameReader(process.stdout)
    process.stdin.write(setup)
    process.stdin.flush()
    reader.read_until(lambda messages: {1, 2} <= {message.get("id") for message in messages},
                      lambda: f"no answer to initialize and watch: {reader.messages}")
    process.stdin.write(burst)
    process.stdin.flush()
    reader.read_until(lambda messages: any("method" in message for message in messages) and
                      set(range(100, 150)) <= {message.get("id") for message in messages},
                      lambda: f"not every answer and a notification: {reader.messages}")
    process.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}) + frame({"jsonrpc": "2.0", "method": "exit"}))
    output, _ = process.communicate(timeout=10)
    messages = reader.messages + read_frames(reader.unread + output)
    kinds = ["note" if "method" in message else message["id"] for message in messages]
    notifications = [index for index, kind in enumerate(kinds) if kind == "note"]
    answers = [index for index, kind in enumerate(kinds) if kind in range(100, 150)]
    assert len(answers) == 50
    assert len(notifications) == 1, kinds
    assert notifications[0] > max(answers)
    assert len(messages[notifications[0]]["params"]["memos"]) == 50
    assert process.returncode == 0


def test_a_client_that_stops_reading_ends_the_server_with_status_1(memo_binary, environment, tmp_path):
    """No death by SIGPIPE: the server notices the closed stream and exits 1."""
    read_end, write_end = os.pipe()
    process = start_raw_server(memo_binary, environment, tmp_path, stdout=write_end, stderr=subprocess.PIPE)
    os.close(write_end)
    os.close(read_end)
    process.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}))
    process.stdin.flush()
    assert process.wait(timeout=10) == 1
    assert b"stopped reading" in process.stderr.read()


def test_every_valid_frame_after_a_malformed_header_is_answered(memo_binary, environment, tmp_path):
    stream = (frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
              + b"Content-Lenght: 2\r\n\r\n{}"
              + frame({"jsonrpc": "2.0", "id": 2, "method": "memo/tags"})
              + b"Content-Length: 2\n\n{}"
              + frame({"jsonrpc": "2.0", "id": 3, "method": "memo/tags"})
              + b"Content-Length: abc\r\n\r\n"
              + frame({"jsonrpc": "2.0", "id": 4, "method": "shutdown"})
              + frame({"jsonrpc": "2.0", "method": "exit"}))
    process = start_raw_server(memo_binary, environment, tmp_path, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    output, _ = process.communicate(stream, timeout=10)
    answered = [reply["id"] for reply in read_frames(output) if "result" in reply]
    assert answered == [1, 2, 3, 4]
    assert process.returncode == 0


def test_memo_search_end_to_end(memo_binary, environment, tmp_path):
    async def body(client):
        await initialize(client)
        for content in ["Buy milk and eggs", "京都旅行の宿を予約する", "여행을 떠나기 전에", "milk tea"]:
            await client.call("memo/add", {"content": content})
        found = await client.call("memo/search", {"query": "milk"})
        assert [memo.content for memo in found.memos] == ["milk tea", "Buy milk and eggs"]
        found = await client.call("memo/search", {"query": "旅行 OR 여행", "limit": 5})
        assert [memo.id for memo in found.memos] == [3, 2]
        with pytest.raises(JsonRpcException) as refused:
            await client.call("memo/search", {"query": "\"unclosed"})
        assert refused.value.code == -32602
        assert "not closed" in refused.value.message
        executed = await client.call("memo/execute", {"line": "search -n 1 milk"})
        assert executed.ok and "milk tea" in executed.output
        return await exit_status(client)

    assert serve(memo_binary, environment, tmp_path / "store.sqlite", body) == 0
