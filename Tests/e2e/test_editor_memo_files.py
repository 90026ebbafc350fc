"""Saves of the memos' own files in real editors (docs/REFERENCE.md, Memos' own files): after
the server restarts, after the file is edited on disk and reloaded, after a save the busy
store could not take, the next save edits the memo; the base file on disk decides, not
whether the text the editor opened equals it."""
from editors import SCRIPTS, prepare

EMACS = {"MEMO_EXTRA_EL": str(SCRIPTS / "memo_files.el")}
NEOVIM = {"MEMO_TEST_SCENARIOS": "memo_files"}
STALE = "changed in the store since this file was written"


def test_emacs_saves_after_eglot_reconnects(memo_binary, environment, tmp_path):
    editors = prepare(memo_binary, environment, tmp_path)
    result = editors.emacs("reconnect", **EMACS)
    assert result["reconnected"] is True
    assert list(result["first save"]) == [] and list(result["second save"]) == [], result
    assert editors.memos()[1] == "Buy milk and bread @errand and eggs and jam"


def test_emacs_saves_a_file_reloaded_after_an_edit_on_disk(memo_binary, environment, tmp_path):
    editors = prepare(memo_binary, environment, tmp_path)
    result = editors.emacs("revert", **EMACS)
    assert result["reloaded"] == "Buy milk and bread @errand, edited on disk\n"
    assert list(result["save"]) == [], result
    assert editors.memos()[1] == "Buy milk and bread @errand, edited on disk and in Emacs"


def test_emacs_saves_again_after_a_save_the_busy_store_could_not_take(memo_binary, environment, tmp_path):
    editors = prepare(memo_binary, environment, tmp_path)
    result = editors.emacs("busy", **EMACS)
    [busy] = result["busy save"]
    assert "the save was not applied" in busy and STALE not in busy
    assert list(result["save after"]) == [], result
    assert editors.memos()[1] == "Buy milk and bread @errand, saved while busy, then again"


def test_neovim_saves_after_the_client_restarts(memo_binary, environment, tmp_path):
    editors = prepare(memo_binary, environment, tmp_path)
    result = editors.neovim("restart", **NEOVIM)
    assert result["restarted"] is True
    assert list(result["first save"]) == [] and list(result["second save"]) == [], result
    assert editors.memos()[1] == "Buy milk and bread @errand and eggs and jam"


def test_neovim_saves_a_file_reloaded_after_an_edit_on_disk(memo_binary, environment, tmp_path):
    editors = prepare(memo_binary, environment, tmp_path)
    result = editors.neovim("reload", **NEOVIM)
    assert result["reloaded"] == "Buy milk and bread @errand, edited on disk"
    assert list(result["save"]) == [], result
    assert editors.memos()[1] == "Buy milk and bread @errand, edited on disk and in Neovim"
