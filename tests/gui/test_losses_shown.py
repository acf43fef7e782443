"""What a tokenizer file loses is never lost in silence (issue 29, items 2 and 3).

A whitespace BPE saved as GPT-2 files came back byte-level, its Korean and emoji left out of
the encoding while the header said "0 unknown"; the losses of a save and the warnings of an
opening were a status-bar line elided in the middle.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog

from core.events import drain
from core.models.bpe.model import BPE
from core.pre_tokenizers import Whitespace
from core.tokenizer import Tokenizer
from core.training import TrainOptions, pre_tokenize_lines, train_from_counts
from tests.gui.conftest import make_lines

TEXT = "Hello world, 철수는 치킨을 먹고 👩🏽‍💻"


def _whitespace_bpe(vocab_size: int = 120):
    opts = TrainOptions("bpe", vocab_size=vocab_size)
    return drain(train_from_counts(pre_tokenize_lines(make_lines(200), opts), opts))


def _save_as(window, monkeypatch, path, fmt: str) -> None:
    from subword_gui.main_window import SAVE_FILTERS

    label = next(f for f, name in SAVE_FILTERS if name == fmt)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), label))
    window.save_tokenizer_action.trigger()


def _open(window, monkeypatch, path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    window.open_tokenizer_action.trigger()


def test_a_whitespace_bpe_saved_as_gpt2_files_reopens_with_its_unknowns_counted(
    qtbot, window, monkeypatch, tmp_path
):
    tok = _whitespace_bpe()
    window.state.set_full_tokenizer(tok)
    _save_as(window, monkeypatch, tmp_path / "g", "gpt2")
    assert (tmp_path / "g" / "merges.txt").is_file()
    _open(window, monkeypatch, tmp_path / "g" / "vocab.json")
    assert window.messages == []
    panel = window.segmentation_panel
    panel.set_text(TEXT)
    qtbot.waitUntil(lambda: not panel.busy(), timeout=10_000)
    want = tok.encode(TEXT)
    assert panel.lines()[0].encoding.tokens == want.tokens
    assert panel.stats.unknown == want.tokens.count("<unk>") > 0
    assert panel.removed == 0


def test_characters_no_token_stands_for_are_counted_in_red(qtbot, window):
    """A model without an unknown token leaves out what its vocabulary lacks: the header says
    how many characters went, beside the unknown tokens (which are none)."""
    tok = Tokenizer(BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]), pre_tokenizer=Whitespace())
    window.state.set_full_tokenizer(tok)
    panel = window.segmentation_panel
    panel.set_text("ab 철수 ab")
    qtbot.waitUntil(lambda: not panel.busy(), timeout=10_000)
    assert panel.stats.unknown == 0
    assert panel.removed == 2
    assert "removed" in panel.counts.text() and "#D7191C" in panel.counts.text()
    panel.set_text("ab ab")
    qtbot.waitUntil(lambda: not panel.busy(), timeout=10_000)
    assert panel.removed == 0 and "removed" not in panel.counts.text()
