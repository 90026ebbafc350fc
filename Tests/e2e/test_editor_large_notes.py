"""A large note in a real editor (Neovim 0.7): a note of 100,000 lines and 5 MiB is served
(warnings, hover at its end), and a broken reference typed at its end, past 1,000 broken
ones, is warned of at once (docs/REFERENCE.md, References in documents)."""
from editors import prepare

NEOVIM = {"MEMO_TEST_SCENARIOS": "large_notes"}


def test_neovim_serves_a_five_mebibyte_note_and_warns_of_a_reference_typed_at_its_end(memo_binary, environment,
                                                                                    tmp_path):
    editors = prepare(memo_binary, environment, tmp_path)
    # Every 50th line names a missing memo: 2,000 of them; the last line names #1.
    lines = [f"line {n} of the note " + "x" * 24 + (f" see #{50_000 + n}" if n % 50 == 0 else " plain text")
             for n in range(99_999)] + ["#1 at the end"]
    text = "\n".join(lines) + "\n"
    assert len(text.encode()) > 5 << 20
    editors.write("big.md", text)
    result = editors.neovim("large_note", timeout=120, **NEOVIM)
    assert len(result["opened"]) == 1_001 and result["opened"][0] == "no memo #50000", result["opened"][:3]
    assert "Buy milk and bread" in (result["hover"] or ""), result["hover"]
    assert "no memo #99999" in result["typed"]
    assert len(result["typed"]) == 1_001
