"""The editor set-ups README.md gives, read from README.md itself (each code block follows a
`<!-- setup: NAME -->` marker): the Neovim 0.7 and Emacs ones run in the real editors with
`memo` on PATH and attach to a note, a commit message and a command file in the modes the
editors really give them (Emacs 28: markdown-mode and git-commit from Debian's
elpa-markdown-mode and elpa-git-commit), hover over a reference, show the memo, list its
references, offer the code actions on a selection and complete with the keys README.md names;
the others, for editors this machine lacks, are checked for syntax."""
import json
import os
import pathlib
import re
import shutil
import subprocess
import tomllib

import pytest

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def setup(name):
    match = re.search(r"<!-- setup: " + re.escape(name) + r" -->\n```\w+\n(.*?)```", README.read_text(), re.S)
    assert match, f"README.md has no set-up block named {name}"
    return match.group(1)


@pytest.fixture
def user(memo_binary, environment, tmp_path):
    """A user whose PATH has `memo` and whose default store holds memo #1; the folder."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "memo").symlink_to(memo_binary)
    environment.update(PATH=f"{bin_folder}:{environment['PATH']}", MEMO_STORE=str(tmp_path / "store.sqlite"))
    for variable in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME"):
        environment[variable] = str(tmp_path / variable.lower())
    for text in ("Buy milk and bread", "Dentist on Tuesday"):
        subprocess.run(["memo", "add", text], env=environment, check=True, capture_output=True)
    (tmp_path / "note.md").write_text("Shopping #1 today\n")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "COMMIT_EDITMSG").write_text("Fix the sink, see #1\n")
    (tmp_path / "plan.txt").write_text("Plan: #1\n")
    (tmp_path / "later").mkdir()
    (tmp_path / "later" / "closed.md").write_text("Never opened, cites #1\n")
    (tmp_path / "script.memo").write_text("add hello\nfrobnicate\n")
    return tmp_path


NEOVIM_CHECK = r"""
local out, results = _G.setup_out, {}
for _, name in ipairs({ "note.md", "plan.txt", "script.memo" }) do
  vim.cmd("edit " .. name)
  local buffer = vim.api.nvim_get_current_buf()
  vim.wait(10000, function() return #vim.lsp.buf_get_clients(buffer) > 0 end)
  local result = { attached = #vim.lsp.buf_get_clients(buffer) > 0, omnifunc = vim.bo[buffer].omnifunc }
  local line = vim.api.nvim_buf_get_lines(buffer, 0, 1, false)[1]
  local column = line:find("#1", 1, true)
  if column then
    vim.api.nvim_win_set_cursor(0, { 1, column })
    local answers = vim.lsp.buf_request_sync(buffer, "textDocument/hover", vim.lsp.util.make_position_params(), 5000)
    for _, answer in pairs(answers or {}) do
      if answer.result then result.hover = answer.result.contents.value end
    end
    local windows = #vim.api.nvim_list_wins()
    vim.cmd("normal K")
    result.k_opened_a_window = vim.wait(5000, function() return #vim.api.nvim_list_wins() > windows end)
    vim.cmd("normal gd")
    vim.wait(5000, function() return vim.api.nvim_get_current_buf() ~= buffer end)
    result.gd_opened = vim.api.nvim_buf_get_lines(0, 0, 1, false)[1]
    vim.cmd("buffer " .. buffer)
    if name == "note.md" then
      -- gr: the references of the memo under the cursor, in the quickfix list.
      vim.fn.setqflist({})
      vim.api.nvim_win_set_cursor(0, { 1, column })
      vim.cmd("normal gr")
      vim.wait(5000, function() return #vim.fn.getqflist() > 0 end)
      result.gr_found = vim.tbl_map(function(item) return vim.fn.bufname(item.bufnr) end, vim.fn.getqflist())
      vim.cmd("cclose | buffer " .. buffer)
      -- The code actions on a selection, through the key the set-up maps, as vim.ui.select
      -- is offered them.
      local select = vim.ui.select
      vim.ui.select = function(items, options, on_choice)
        result.actions = vim.tbl_map(function(item) return options.format_item(item) end, items)
        on_choice(nil)
      end
      vim.cmd("normal 0wve\\ca")
      vim.wait(5000, function() return result.actions ~= nil end)
      vim.ui.select = select
    end
  else
    vim.wait(5000, function() return #vim.diagnostic.get(buffer) > 0 end)
    result.diagnostics = vim.tbl_map(function(d) return d.message end, vim.diagnostic.get(buffer))
  end
  results[name] = result
end
vim.fn.writefile({ vim.fn.json_encode(results) }, out)
"""


def test_the_neovim_0_7_setup_attaches_hovers_and_diagnoses(user, environment):
    if shutil.which("nvim") is None:
        pytest.skip("nvim is not installed (scripts/test installs Debian's neovim)")
    (user / "init.lua").write_text(setup("neovim-0.7"))
    (user / "check.lua").write_text(NEOVIM_CHECK)
    out = user / "out.json"
    subprocess.run(["nvim", "--headless", "-n", "-u", str(user / "init.lua"), "-c", f"lua _G.setup_out = {json.dumps(str(out))}",
                    "-c", "luafile check.lua", "-c", "qa!"], cwd=user, env=environment, capture_output=True, timeout=90)
    results = json.loads(out.read_text())
    for name in ("note.md", "plan.txt"):
        assert results[name]["attached"] and results[name]["omnifunc"] == "v:lua.vim.lsp.omnifunc", name
        assert "Buy milk and bread" in results[name]["hover"], name
        assert results[name]["k_opened_a_window"], f"K shows the memo in {name}"
        assert results[name]["gd_opened"] == "Buy milk and bread", f"gd opens the memo's file from {name}"
    assert "note.md" in results["note.md"].get("gr_found", []), "gr lists the references of #1"
    assert "later/closed.md" in results["note.md"].get("gr_found", []), \
        "gr lists a closed file of the project (the set-up names the project to the server)"
    assert any("Save selection as memo" in action for action in results["note.md"].get("actions", [])), \
        "\\ca on a selection offers the code actions"
    assert results["script.memo"]["attached"]
    assert any("unknown command 'frobnicate'" in message for message in results["script.memo"]["diagnostics"])


EMACS_CHECK = r"""
(require 'json)
(defun setup-wait (condition seconds)
  (let ((deadline (+ (float-time) seconds)))
    (while (and (not (funcall condition)) (< (float-time) deadline))
      (accept-process-output nil 0.05))  ; not a wait: the poll interval of setup-wait
    (funcall condition)))
(let (results)
  (dolist (name '("note.md" "plan.txt" ".git/COMMIT_EDITMSG" "script.memo"))
    (with-current-buffer (find-file-noselect name)
      ;; Shown, as visiting a file does, so that flymake starts; eglot-ensure connects from
      ;; post-command-hook, which a batch Emacs never runs.
      (switch-to-buffer (current-buffer))
      (run-hooks 'post-command-hook)
      (let* ((attached (setup-wait (lambda () (bound-and-true-p eglot--managed-mode)) 20))
             (column (save-excursion (goto-char (point-min)) (search-forward "#1" (line-end-position) t)))
             (hover (and attached column
                         (progn (goto-char (1- column))
                                (plist-get (plist-get (jsonrpc-request (eglot--current-server-or-lose) :textDocument/hover
                                                                       (eglot--TextDocumentPositionParams))
                                                      :contents)
                                           :value))))
             ;; What M-? (xref-find-references) lists: the files naming the memo under point.
             (references (and attached column
                              (mapcar (lambda (xref) (file-name-nondirectory
                                                      (xref-location-group (xref-item-location xref))))
                                      (xref-backend-references 'eglot (xref-backend-identifier-at-point 'eglot)))))
             (diagnostics (and attached (not column)
                               (setup-wait (lambda () (flymake-diagnostics)) 10)
                               (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))
             ;; The key README.md names for completion, typed after `#Den' on a line of its own.
             (completed (and attached column
                             (progn (goto-char (point-max))
                                    (insert "\n#Den")
                                    ;; this-command as the command loop leaves it after the key:
                                    ;; left set, flymake in the next buffer would wait for a
                                    ;; post-command-hook a batch Emacs never runs.
                                    (condition-case problem
                                        (let ((this-command nil))
                                          (call-interactively (key-binding (kbd "C-M-i")))
                                          (buffer-substring-no-properties (line-beginning-position) (line-end-position)))
                                      (error (format "%s: %S" (key-binding (kbd "C-M-i")) problem)))))))
        (push (cons name (list (cons "mode" (symbol-name major-mode)) (cons "attached" (if attached t :json-false))
                    (cons "git-commit" (if (bound-and-true-p git-commit-mode) t :json-false))
                    (cons "hover" (or hover "")) (cons "diagnostics" (vconcat diagnostics))
                    (cons "completed" (or completed "")) (cons "references" (vconcat references))))
              results)
        (set-buffer-modified-p nil))))
  (with-temp-file (getenv "SETUP_OUT") (insert (json-encode results))))
(kill-emacs 0)
"""


def test_the_emacs_setup_attaches_hovers_and_diagnoses(user, environment):
    if shutil.which("emacs") is None or not pathlib.Path("/usr/share/emacs/site-lisp/elpa/eglot-1.9").exists():
        pytest.skip("emacs or eglot is not installed (scripts/test installs Debian's emacs-nox and elpa-eglot)")
    (user / "setup.el").write_text(setup("emacs"))
    (user / "check.el").write_text(EMACS_CHECK)
    for package in ("markdown-mode-2.5", "git-commit-3.3.0"):
        if not pathlib.Path("/usr/share/emacs/site-lisp/elpa", package).exists():
            pytest.skip(f"{package} is not installed (scripts/test installs Debian's elpa-markdown-mode and elpa-git-commit)")
    # The packages Debian installs, activated as Emacs does at start-up (-Q leaves that out).
    prelude = r"""(progn (setq package-directory-list (list "/usr/share/emacs/site-lisp/elpa")) (package-initialize)
                   (require 'eglot)
                   (setq make-backup-files nil create-lockfiles nil))"""
    out = user / "out.json"
    environment["SETUP_OUT"] = str(out)
    completed = subprocess.run(["emacs", "-Q", "--batch", "--eval", prelude, "-l", "setup.el", "-l", "check.el"], cwd=user,
                               env=environment, capture_output=True, text=True, timeout=120)
    assert out.exists(), completed.stderr[-3000:]
    results = json.loads(out.read_text())
    assert results["note.md"]["mode"] == "markdown-mode" and results["plan.txt"]["mode"] == "text-mode"
    assert results[".git/COMMIT_EDITMSG"]["git-commit"] is True, "git-commit sets up the commit message"
    for name in ("note.md", "plan.txt", ".git/COMMIT_EDITMSG"):
        assert results[name]["attached"] is True, (name, completed.stderr[-3000:])
        assert "Buy milk and bread" in results[name]["hover"], name
        assert pathlib.Path(name).name in results[name]["references"], (name, results[name]["references"])
        # #2 or its stable handle: either names the dentist memo.
        assert re.fullmatch(r"(#2|memo:[0-9a-f]{8,32})\s*", results[name]["completed"]), (name, results[name]["completed"])
    assert results["script.memo"]["mode"] == "memo-mode" and results["script.memo"]["attached"] is True
    assert any("unknown command 'frobnicate'" in text for text in results["script.memo"]["diagnostics"]), json.dumps(results["script.memo"])


def test_the_other_setups_are_well_formed(environment):
    settings = json.loads(setup("vscode"))
    assert settings["glspc.server.command"] == "memo" and settings["glspc.server.commandArguments"] == ["serve"]
    helix = tomllib.loads(setup("helix"))
    assert helix["language-server"]["memo"] == {"command": "memo", "args": ["serve"]}
    assert {language["name"] for language in helix["language"]} == {"memo", "markdown"}
    if shutil.which("nvim") is None:
        pytest.skip("nvim is not installed: the Neovim 0.10 set-up's Lua is not checked")
    checked = subprocess.run(["nvim", "--headless", "--clean", "-c",
                              f"lua local chunk, problem = loadstring({json.dumps(setup('neovim-0.10'))}) "
                              "if not chunk then io.stderr:write(problem) vim.cmd('cq') end", "-c", "qa!"],
                             env=environment, capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
