"""The one-shot search as scripts and people at a terminal use it: a search that finds nothing
exits 1 with no output, as grep does; `-F` finds a pasted text as written; groups and phrases
across punctuation; and on a terminal the match is always in view beside the tags."""
import subprocess

import pexpect

from stores import memo


def search(binary, environment, store, *words, json=False):
    completed = subprocess.run([binary, "--store", str(store)] + (["--json"] if json else []) + ["search", *words],
                               env=environment, capture_output=True, text=True)
    return completed.stdout, completed.stderr, completed.returncode


def test_a_search_that_finds_nothing_exits_1_with_no_output(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    memo(memo_binary, environment, store, "add", "milk and eggs")
    assert search(memo_binary, environment, store, "tea") == ("", "", 1)
    assert search(memo_binary, environment, store, "tea", json=True) == ("", "", 1)
    assert search(memo_binary, environment, store, "milk")[2] == 0
    assert memo(memo_binary, environment, store, "count", "--tag", "none").stdout == "0\n"
    # A script goes on past a search that finds nothing: it is no error there.
    script = tmp_path / "s.memo"
    script.write_text("search tea\nsearch milk\n")
    ran = memo(memo_binary, environment, store, "run", str(script), check=False)
    assert (ran.returncode, ran.stderr) == (0, "")
    assert "milk and eggs" in ran.stdout


def test_a_pasted_text_is_found_with_fixed_strings(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    memo(memo_binary, environment, store, "add", "cd ..; rm -rf junk")
    memo(memo_binary, environment, store, "add", "(love OR hate) war, said Jean-Paul")
    memo(memo_binary, environment, store, "add", "rf")
    assert search(memo_binary, environment, store, "-F", "cd ..; rm -rf junk")[0].endswith("cd ..; rm -rf junk\n")
    assert search(memo_binary, environment, store, "--fixed-strings", "RM -RF")[2] == 0
    assert search(memo_binary, environment, store, "-F", "(love OR hate")[0].count("\n") == 1
    assert search(memo_binary, environment, store, "-F", "love hate")[2] == 1


def test_groups_and_phrases_across_punctuation(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    for text in ["love and war", "hate in war", "love in peace", "Jean-Paul Sartre"]:
        memo(memo_binary, environment, store, "add", text)
    found = search(memo_binary, environment, store, "(love OR hate) war", json=True)[0]
    assert found.count("\n") == 2 and '"love and war"' in found and '"hate in war"' in found
    assert "Jean-Paul Sartre" in search(memo_binary, environment, store, '"Jean Paul"')[0]


def test_the_match_is_in_view_beside_two_tags_at_80_columns(memo_binary, environment, tmp_path):
    store = tmp_path / "store.sqlite"
    memo(memo_binary, environment, store, "add", "--tag", "latin", "--tag", "filler",
         "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt")
    child = pexpect.spawn(memo_binary, ["--store", str(store), "--no-color", "search", "adipiscing"], env=environment,
                          encoding="utf-8", timeout=20, dimensions=(40, 80))
    child.expect(pexpect.EOF)
    child.close()
    [line] = child.before.replace("\r\n", "\n").splitlines()
    assert "adipiscing" in line and line.endswith("@filler @latin") and len(line) <= 80, line
