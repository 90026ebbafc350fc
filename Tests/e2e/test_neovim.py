"""Neovim's built-in LSP client (the Debian package, headless) on a Markdown file with memo
references: hover and go to definition as Neovim receives them from `memo serve`."""
import json
import shutil
import subprocess

import pytest

SCRIPT = r"""
local memo, store, out = _G.memo_binary, _G.memo_store, _G.memo_out
local client_id = vim.lsp.start_client({ name = "memo", cmd = { memo, "--store", store, "serve" } })
vim.lsp.buf_attach_client(0, client_id)
local client = vim.lsp.get_client_by_id(client_id)
vim.wait(5000, function() return client.initialized or client.server_capabilities ~= nil end)
vim.api.nvim_win_set_cursor(0, { 1, 9 })
local params = vim.lsp.util.make_position_params()
local hover = vim.lsp.buf_request_sync(0, "textDocument/hover", params, 5000)
local definition = vim.lsp.buf_request_sync(0, "textDocument/definition", params, 5000)
local function first(responses)
  for _, response in pairs(responses or {}) do return response.result end
end
vim.fn.writefile({ vim.fn.json_encode({ hover = first(hover), definition = first(definition) }) }, out)
vim.lsp.stop_client(client_id)
"""


def test_neovim_hovers_and_goes_to_a_memos_file(memo_binary, environment, tmp_path):
    if shutil.which("nvim") is None:
        pytest.skip("nvim is not installed (scripts/test installs Debian's neovim)")
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    environment["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    environment["XDG_STATE_HOME"] = str(tmp_path / "state")
    environment["XDG_DATA_HOME"] = str(tmp_path / "data")
    store = tmp_path / "store.sqlite"
    subprocess.run([memo_binary, "--store", str(store), "add", "Buy milk and bread @errand"], env=environment, check=True)
    note = tmp_path / "note.md"
    note.write_text("Shopping #1 before noon\n")
    script = tmp_path / "lsp.lua"
    script.write_text(SCRIPT)
    out = tmp_path / "out.json"
    setup = (f"lua _G.memo_binary = {json.dumps(memo_binary)}; _G.memo_store = {json.dumps(str(store))}; "
             f"_G.memo_out = {json.dumps(str(out))}")
    subprocess.run(["nvim", "--headless", "--clean", "-n", str(note), "-c", setup, "-c", f"luafile {script}", "-c", "qa!"],
                   env=environment, capture_output=True, timeout=60, check=True)
    result = json.loads(out.read_text())
    assert "Buy milk and bread @errand" in result["hover"]["contents"]["value"]
    assert result["hover"]["range"]["start"] == {"line": 0, "character": 9}
    [store_folder] = (tmp_path / "cache" / "memo" / "open").iterdir()
    file = store_folder / "1.md"
    assert result["definition"]["uri"] == file.as_uri()
    assert file.read_text() == "Buy milk and bread @errand"
