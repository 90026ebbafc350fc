"""Code lenses, document symbols, rename and `memo.new` in real editors (Neovim 0.7 and
Emacs 28 + eglot 1.9; scenarios in editors/lsp_features.lua and .el), and the refresh
requests through a raw LSP client (pygls): eglot 1.9 shows no code lenses and no inlay
hints, and neither editor takes `workspace/codeLens/refresh` or `workspace/inlayHint/refresh`
(Neovim 0.7 nor eglot 1.9 says `refreshSupport`), so those are asked for and checked there."""
import pytest
from lsprotocol import types

import editors
from editors import SCRIPTS, prepare
from test_references import memo, open_document, position
from test_server import MemoClient, exit_status, serve

NEW_TITLE = "Groceries for the week"
OUTLINE = ("# Plan\n"
           "see #1, a reference, not a heading\n"
           "## Steps\n"
           "```\n# in a fenced block, not a heading\n```\n"
           "Later\n"
           "-----\n"
           "#hashtag\n")


def setup(memo_binary, environment, tmp_path):
    """The editors' store, with #1 referenced by two memos and #2 by one."""
    editors_setup = prepare(memo_binary, environment, tmp_path)
    editors.memo(memo_binary, editors_setup.environment, editors_setup.store, "add", "see #1 again")
    editors.memo(memo_binary, editors_setup.environment, editors_setup.store, "add", "about #1 and #2")
    editors_setup.write("lenses.md", "See #1 and #2.\nplain line\n#3 alone\n")
    editors_setup.write("outline.md", OUTLINE)
    return editors_setup


def neovim(memo_binary, environment, tmp_path, scenario):
    editors_setup = setup(memo_binary, environment, tmp_path)
    return editors_setup, editors_setup.neovim(scenario, MEMO_TEST_SCENARIOS="lsp_features")


def emacs(memo_binary, environment, tmp_path, scenario):
    editors_setup = setup(memo_binary, environment, tmp_path)
    return editors_setup, editors_setup.emacs(scenario, MEMO_EXTRA_EL=str(SCRIPTS / "lsp_features.el"))


# Neovim 0.7

def test_neovim_shows_each_references_backlink_count_as_a_code_lens(memo_binary, environment, tmp_path):
    _, result = neovim(memo_binary, environment, tmp_path, "codelens")
    assert [(lens["line"], lens["text"], lens["title"]) for lens in result["lenses"]] == [
        (1, "#1", "#1: 2 backlinks"), (1, "#2", "#2: 1 backlink"), (3, "#3", "#3: no backlinks")]
    assert result["shown"] == [{"line": 1, "text": "#1: 2 backlinks | #2: 1 backlink"},
                               {"line": 3, "text": "#3: no backlinks"}]


def test_neovim_lists_markdown_headings_and_a_memo_files_title_as_document_symbols(memo_binary, environment,
                                                                                   tmp_path):
    _, result = neovim(memo_binary, environment, tmp_path, "document_symbols")
    assert [(item["line"], item["text"]) for item in result["outline"]] == [
        (1, "[String] Plan"), (3, "[String] Steps"), (7, "[String] Later")]
    assert [item["text"] for item in result["memo file"]] == ["[File] Buy milk and bread @errand"]


def test_neovim_rename_on_a_reference_retitles_the_memo_and_its_open_file(memo_binary, environment, tmp_path):
    editors_setup, result = neovim(memo_binary, environment, tmp_path, "rename")
    assert result["offered"] == "Buy milk and bread @errand", "prepareRename's placeholder is the memo's title"
    assert result["file text"] == NEW_TITLE, "the memo's open file does not show the new title"
    assert result["note text"] == "about #1"
    assert result["errors after saving"] == [] and editors_setup.memos()[1] == NEW_TITLE + "\nand eggs", \
        "a save of the renamed file with an edit was refused"


def test_neovim_rename_keeps_an_unsaved_first_line_the_user_typed(memo_binary, environment, tmp_path):
    editors_setup, result = neovim(memo_binary, environment, tmp_path, "rename_unsaved_title")
    assert "memo #1's file has unsaved changes to its title: save or undo them first" in result["shown"]
    assert result["file text"].startswith("Draft heading typed\n\nBuy milk and bread @errand")
    assert editors_setup.memos()[1] == "Buy milk and bread @errand"


def test_neovim_memo_new_adds_a_memo_and_names_its_file(memo_binary, environment, tmp_path):
    editors_setup, result = neovim(memo_binary, environment, tmp_path, "new_memo")
    assert editors_setup.memos()[16] == "A fresh idea"
    assert result["message"].strip().endswith(f"Added memo #16; its file is {editors_setup.memo_file(16)}")
    assert result["opened"] == "A fresh idea" and result["attached"] is True


# Emacs 28 + eglot 1.9

def test_emacs_imenu_lists_markdown_headings_and_a_memo_files_title(memo_binary, environment, tmp_path):
    _, result = emacs(memo_binary, environment, tmp_path, "document_symbols")
    assert sorted((item["name"], item["line"]) for item in result["outline"]) == [
        ("String/Plan", 1), ("String/Plan/Later", 7), ("String/Plan/Steps", 3)]
    assert [item["name"] for item in result["memo file"]] == ["File/Buy milk and bread @errand"]


def test_emacs_eglot_rename_retitles_the_memo_and_its_open_file(memo_binary, environment, tmp_path):
    editors_setup, result = emacs(memo_binary, environment, tmp_path, "rename")
    assert result["file text"] == NEW_TITLE, "the memo's open file does not show the new title"
    assert result["note text"] == "about #1\n"
    assert result["errors after saving"] == [] and editors_setup.memos()[1] == NEW_TITLE + "\nand eggs", \
        "a save of the renamed file with an edit was refused"


def test_emacs_eglot_rename_keeps_an_unsaved_first_line_the_user_typed(memo_binary, environment, tmp_path):
    editors_setup, result = emacs(memo_binary, environment, tmp_path, "rename-unsaved-title")
    assert "memo #1's file has unsaved changes to its title: save or undo them first" in result["refusal"]
    assert result["file text"].startswith("Draft heading typed\n\nBuy milk and bread @errand")
    assert editors_setup.memos()[1] == "Buy milk and bread @errand"


def test_emacs_eglot_rename_on_a_busy_store_shows_the_servers_message(memo_binary, environment, tmp_path):
    editors_setup, result = emacs(memo_binary, environment, tmp_path, "rename-busy-store")
    assert "the store is busy" in result["refusal"], "eglot gave up before the server answered"
    assert result["seconds"] < 8
    assert editors_setup.memos()[1] == "Buy milk and bread @errand"


def test_emacs_memo_new_adds_a_memo_and_names_its_file(memo_binary, environment, tmp_path):
    editors_setup, result = emacs(memo_binary, environment, tmp_path, "new_memo")
    assert editors_setup.memos()[16] == "A fresh idea"
    assert result["answer uri"] == editors_setup.memo_file(16).as_uri()
    assert result["message"].endswith(f"Added memo #16; its file is {editors_setup.memo_file(16)}")
    assert result["opened"] == "A fresh idea"


# A raw client: what eglot 1.9 and Neovim 0.7 do not take

def test_a_store_change_by_another_process_asks_the_client_to_refresh_lenses_and_hints(memo_binary, environment,
                                                                                      tmp_path):
    store = tmp_path / "store.sqlite"
    memo(memo_binary, environment, store, "add", "Alpha")
    uri = "file:///notes/today.md"

    async def body(client):
        refreshed = []
        client.feature(types.WORKSPACE_CODE_LENS_REFRESH)(lambda params: refreshed.append("codeLens"))
        client.feature(types.WORKSPACE_INLAY_HINT_REFRESH)(lambda params: refreshed.append("inlayHint"))
        workspace = types.WorkspaceClientCapabilities(
            code_lens=types.CodeLensWorkspaceClientCapabilities(refresh_support=True),
            inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True))
        await client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(workspace=workspace)))
        client.initialized(types.InitializedParams())
        open_document(client, "See #1.\n", uri=uri)

        async def lenses():
            found = await client.text_document_code_lens_async(
                types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri)))
            return [lens.command.title for lens in found]

        async def hints():
            found = await client.text_document_inlay_hint_async(types.InlayHintParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=position(0, 0), end=position(1, 0))))
            return [hint.label for hint in found]

        assert await lenses() == ["#1: no backlinks"] and await hints() == ["Alpha"]
        memo(memo_binary, environment, store, "add", "now #1 has a backlink")
        await client.wait_for(lambda: {"codeLens", "inlayHint"} <= set(refreshed))
        assert await lenses() == ["#1: 1 backlink"]
        refreshed.clear()
        memo(memo_binary, environment, store, "edit", "1", "Alpha renamed")
        await client.wait_for(lambda: {"codeLens", "inlayHint"} <= set(refreshed))
        assert await hints() == ["Alpha renamed"]
        return await exit_status(client)

    assert serve(memo_binary, environment, store, body) == 0
