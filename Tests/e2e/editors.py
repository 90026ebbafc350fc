"""Plumbing shared by the tests that drive real editors against `memo serve`: Emacs 28 with
eglot 1.9 (Debian's emacs-nox and elpa-eglot) and Neovim 0.7 (Debian's neovim), both headless.

Each test writes its notes into a project folder under tmp_path, runs one scenario of
Tests/e2e/editors/scenarios.el or scenarios.lua in the editor (under a timeout, with HOME and
every XDG folder under tmp_path) and gets back what the editor observed as JSON; the test
makes the assertions. Every run prints the editor's JSON-RPC traffic (eglot's events buffer,
Neovim's LSP log at debug level), which pytest shows when the test fails."""
import json
import os
import pathlib
import shutil
import subprocess

import pytest

SCRIPTS = pathlib.Path(__file__).resolve().parent / "editors"
EGLOT = pathlib.Path("/usr/share/emacs/site-lisp/elpa")

# #1-#13: #4 is the dentist memo that `#Den` finds; #5-#13 make ids with two digits.
MEMOS = ["Buy milk and bread @errand", "Milestone review notes\nsecond line", "Read the paper on sync",
         "Dentist on Tuesday"] + [f"Filler memo number {n}" for n in range(5, 14)]


def memo(memo_binary, environment, store, *arguments):
    return subprocess.run([memo_binary, "--store", str(store)] + [str(a) for a in arguments], env=environment,
                          capture_output=True, text=True, check=True).stdout


def contents(memo_binary, environment, store):
    """{id: text} of every memo in the store."""
    lines = memo(memo_binary, environment, store, "--json", "list", "--asc").splitlines()
    return {record["id"]: record["content"] for record in map(json.loads, lines)}


class Editors:
    """A store of MEMOS, a project folder (a git work tree, as eglot 1.9 needs a project) and
    private HOME and XDG folders, all under tmp_path."""

    def __init__(self, memo_binary, environment, tmp_path, memos=MEMOS):
        self.binary, self.tmp_path = memo_binary, tmp_path
        self.environment = dict(environment)
        for name in ("CACHE", "CONFIG", "DATA", "STATE"):
            folder = tmp_path / name.lower()
            folder.mkdir(exist_ok=True)
            self.environment[f"XDG_{name}_HOME"] = str(folder)
        runtime = tmp_path / "runtime"
        runtime.mkdir(mode=0o700, exist_ok=True)
        self.environment["XDG_RUNTIME_DIR"] = str(runtime)
        self.store = tmp_path / "store.sqlite"
        for text in memos:
            memo(memo_binary, self.environment, self.store, "add", text)
        self.project = tmp_path / "notes"
        self.project.mkdir()
        if shutil.which("git"):
            subprocess.run(["git", "init", "-q", str(self.project)], env=self.environment, check=True)
        else:
            (self.project / ".git").mkdir()  # all project-vc needs to find the project

    def write(self, name, text):
        path = self.project / name
        path.write_text(text)
        return path

    def memos(self):
        return contents(self.binary, self.environment, self.store)

    def memo_file(self, memo_id):
        """The memo's own file, in the one folder of this store under $XDG_CACHE_HOME/memo/open."""
        [folder] = (self.tmp_path / "cache" / "memo" / "open").iterdir()
        return folder / f"{memo_id}.md"

    def _run(self, command, out, traffic, timeout, extra):
        environment = dict(self.environment, MEMO_TEST_BINARY=self.binary, MEMO_TEST_STORE=str(self.store),
                           MEMO_TEST_DIR=str(self.project), MEMO_TEST_OUT=str(out),
                           MEMO_TEST_EVENTS=str(traffic), **extra)
        try:
            process = subprocess.run(command, env=environment, cwd=self.project, stdin=subprocess.DEVNULL,
                                     capture_output=True, text=True, timeout=timeout)
            status, output = process.returncode, process.stdout + process.stderr
        except subprocess.TimeoutExpired as timeout_error:
            status = f"killed after {timeout} s"
            output = "".join(part.decode(errors="replace") if isinstance(part, bytes) else (part or "")
                             for part in (timeout_error.stdout, timeout_error.stderr))
        print(f"===== {command[0]} exited: {status}\n{output[-20000:]}")
        if traffic.exists():
            print(f"===== JSON-RPC traffic ({traffic.name})\n{traffic.read_text(errors='replace')[-60000:]}")
        result = json.loads(out.read_text()) if out.exists() and out.read_text().strip() else {}
        print(f"===== observed\n{json.dumps(result, indent=1, ensure_ascii=False)}")
        assert status == 0 and "error" not in result, f"the {command[0]} scenario failed: {result.get('error', status)}"
        return result

    def emacs(self, scenario, timeout=90, **extra):
        """Runs memo-scenario-SCENARIO of scenarios.el in `emacs -Q --batch`."""
        if shutil.which("emacs") is None:
            pytest.skip("emacs is not installed (scripts/test installs Debian's emacs-nox and elpa-eglot)")
        if not list(EGLOT.glob("eglot-*")):
            pytest.skip("eglot is not installed (scripts/test installs Debian's elpa-eglot)")
        out, traffic = self.tmp_path / f"emacs-{scenario}.json", self.tmp_path / f"emacs-{scenario}-events.txt"
        command = ["emacs", "-Q", "--batch", "-l", str(SCRIPTS / "harness.el"), "-l", str(SCRIPTS / "scenarios.el"), *(["-l", extra.pop("MEMO_EXTRA_EL")] if "MEMO_EXTRA_EL" in extra else []),
                   "--eval", f'(memo-test-main "{scenario.replace("_", "-")}")']
        return self._run(command, out, traffic, timeout, extra)

    def neovim(self, scenario, timeout=90, **extra):
        """Runs scenarios[SCENARIO] of scenarios.lua in `nvim --headless --clean`."""
        if shutil.which("nvim") is None:
            pytest.skip("nvim is not installed (scripts/test installs Debian's neovim)")
        out, traffic = self.tmp_path / f"nvim-{scenario}.json", self.tmp_path / f"nvim-{scenario}-lsp.log"
        command = ["nvim", "--headless", "--clean", "-n", "-i", "NONE",
                   "-c", f"lua package.path = {json.dumps(str(SCRIPTS / '?.lua'))} .. ';' .. package.path",
                   "-c", f"lua require('harness').main({json.dumps(scenario)})"]
        return self._run(command, out, traffic, timeout, extra)


# The documents the scenarios open (the same for both editors).
DOCUMENTS = {
    "note.md": "See #1 and #99 here.\n",
    "about.md": "about #1\n",
    "commands.memo": "add hello\nfrobnicate 3\n",
    "typing.md": "",
    "typing.memo": "",
    "selection.md": "keep this\nmove me, please\nsave me too\n",
    "flag.md": "🇯🇵 #1 #99\n",
    "accent.md": "e\u0301 #1 #99\n",
    # #1-#4 exist: none of these is a reference, apart from the last line's
    "not-references.md": ("https://x/#12 and https://github.com/o/r/issues/#2\n"
                          "`#1` in a code span\n"
                          "\n```\n#1 in a fenced block\n```\n\n"
                          "but #3 and #99 are references\n"),
    "style.css": "a { color: #333; }\n/* see #3 and #99 */\n",
    "links.md": "See #1 and #2.\n",
}

# name: (file, text typed, characters back from its end, the item chosen, the line then).
# `#ID` is what a command file's `#` completes; a note outside the store gets the stable
# form, `memo:HANDLE` (test_editor_stable_links.py).
COMPLETIONS = {
    "after a hash": ("typing.memo", "add x #", 0, "#13", "add x #13"),
    "after a digit": ("typing.memo", "add x #1", 0, "#1", "add x #1"),
    "after words": ("typing.memo", "add x #Den", 0, "#4", "add x #4"),
    "inside a reference": ("typing.memo", "add #1 trailing", len("1 trailing"), "#13", "add #13 trailing"),
    "a command": ("typing.memo", "ad", 0, "add", "add"),
}


def prepare(memo_binary, environment, tmp_path):
    editors = Editors(memo_binary, environment, tmp_path)
    for name, text in DOCUMENTS.items():
        editors.write(name, text)
    return editors


def texts(items):
    return [item["text"] for item in items]


def check_diagnostics(result):
    [warning] = result["note"]
    assert (warning["text"], warning["severity"]) == ("#99", "warning") and "no memo #99" in warning["message"]
    [error] = result["commands"]
    assert (error["line"], error["text"], error["severity"]) == (2, "frobnicate", "error")
    assert "unknown command 'frobnicate'" in error["message"]


def check_hover(shown):
    assert shown and "#1" in shown and "Buy milk and bread @errand" in shown, shown


def check_definition_and_save(editors, result):
    assert result["file"] == str(editors.memo_file(1))
    assert result["text"] == "Buy milk and bread @errand"
    assert result["attached"] is True, "the memo's file is not attached to the server, so saving it cannot reach it"
    assert result["saved"].rstrip("\n") == "Buy milk and bread @errand and eggs"
    assert editors.memos()[1] == "Buy milk and bread @errand and eggs"


def check_completion(result, case):
    _, _, _, choose, line = COMPLETIONS[case]
    assert choose in result["candidates"], f"{choose} not offered: {result['candidates']}"
    assert result["line"] == line


def handles(editors):
    """{id: memo:HANDLE} of every memo of the store: the shortest prefix of its uuid's digits,
    at least 8, that no other memo's uuid shares (git's rule)."""
    records = [json.loads(line) for line in memo(editors.binary, editors.environment, editors.store,
                                                 "--json", "list", "--asc").splitlines()]
    digits = {record["id"]: record["uuid"].replace("-", "") for record in records}

    def shared(a, b):
        return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return {key: "memo:" + mine[:max(8, 1 + max((shared(mine, other) for k, other in digits.items() if k != key),
                                                  default=0))]
            for key, mine in digits.items()}


def check_code_actions(editors, result):
    for offered in (result["move offered"], result["save offered"]):
        assert offered == ["Save selection as memo", "Move selection to a memo"]
    memos = editors.memos()
    assert (memos.get(14), memos.get(15)) == ("move me, please", "save me too")
    moved = handles(editors)[14]  # a note outside the store gets the stable form
    assert result["after move"].splitlines() == ["keep this", moved, "save me too"], "the selection was not moved"
    assert result["after save"].splitlines() == ["keep this", moved, "save me too"], "saving changed the document"


def check_graphemes(result, line):
    """After the deletion, the server's view of the line is the editor's: what its ranges cover."""
    assert result["line"] == line
    assert texts(result["links"]) == ["#1"], "the link's range does not cover #1 in the edited line"
    assert texts(result["diagnostics"]) == ["#99"], "the warning's range does not cover #99 in the edited line"
    check_hover(result["hover"])


def check_not_references(result):
    links = {"markdown": texts(result["markdown links"]), "css": texts(result["css links"])}
    warnings = {"markdown": texts(result["markdown diagnostics"]), "css": texts(result["css diagnostics"])}
    linked = {(link["line"], link["text"]) for link in result["markdown links"]}
    wrong = {
        "https://x/#12": (1, "#12") in linked,
        "https://github.com/o/r/issues/#2": (1, "#2") in linked,
        "`#1` in a Markdown code span": (2, "#1") in linked,
        "#1 in a fenced code block": (5, "#1") in linked,
        "color: #333; in CSS": "#333" in warnings["css"],
    }
    assert not any(wrong.values()), f"read as references: {[case for case, bad in wrong.items() if bad]}"
    assert links == {"markdown": ["#3"], "css": ["#3"]} and warnings == {"markdown": ["#99"], "css": ["#99"]}


def check_links_and_hints(editors, result):
    assert result["hints"] == ["Buy milk and bread @errand", "Milestone review notes"]
    assert [(link["text"], link["target"]) for link in result["links"]] == [
        ("#1", editors.memo_file(1).as_uri()), ("#2", editors.memo_file(2).as_uri())]
