"""What a tokenizer file loses is never lost in silence (issue 29, items 2 and 3).

A whitespace BPE saved as GPT-2 files came back byte-level, its Korean and emoji left out of
the encoding while the header said "0 unknown"; the losses of a save and the warnings of an
opening were a status-bar line elided in the middle.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog

from core.events import drain
from core.models.bpe.model import BPE
from core.options import TrainOptions, pre_tokenize_lines
from core.pre_tokenizers import Whitespace
from core.tokenizer import Tokenizer
from core.training import train_from_counts
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


def test_what_a_save_loses_is_listed_whole_in_a_dialog(qtbot, window, monkeypatch, tmp_path):
    """The losses were the end of a status-bar line, elided in the middle."""
    from core.formats.detect import save_tokenizer

    tok = _whitespace_bpe()
    window.state.set_full_tokenizer(tok)
    _save_as(window, monkeypatch, tmp_path / "g", "gpt2")
    losses = save_tokenizer(tok, tmp_path / "again", "gpt2")
    dialog = window.report_dialog
    assert dialog is not None and dialog.isVisible() and not dialog.isModal()
    assert dialog.items() == losses and len(losses) >= 3
    assert all(loss in dialog.body.toPlainText() for loss in losses)
    assert f"{len(losses)} things not kept" in window.statusBar().currentMessage()
    assert window.messages == []


def _rank_file(tmp_path):
    from core.formats.detect import save_tokenizer

    opts = TrainOptions("bytelevel-bpe", vocab_size=400)
    tok = drain(
        train_from_counts(pre_tokenize_lines(make_lines(200) + ["12345 12345 99999"] * 30, opts), opts)
    )
    path = tmp_path / "ranks.tiktoken"
    save_tokenizer(tok, path, "tiktoken")
    return path


def test_a_rank_file_offers_its_split_patterns_in_the_explorer_not_a_command_line_flag(
    qtbot, window, monkeypatch, tmp_path
):
    """Opening a rank file ended "choose with --pattern", a flag the explorer does not have."""
    from core.formats.detect import open_tokenizer

    path = _rank_file(tmp_path)
    text = "12345 don't DON'T 철수는"
    guessed = open_tokenizer(path).tokenizer.encode(text).tokens
    other = open_tokenizer(path, pattern="cl100k_base").tokenizer.encode(text).tokens
    assert guessed != other  # (the patterns cut this text apart differently)
    panel = window.segmentation_panel
    panel.set_text(text)
    _open(window, monkeypatch, path)
    dialog = window.report_dialog
    assert dialog.isVisible() and "--pattern" not in dialog.text()
    assert "does not store its split pattern" in dialog.text() and "Choose another below" in dialog.text()
    assert dialog.pattern_row.isVisible()
    names = [dialog.pattern_box.itemData(i) for i in range(dialog.pattern_box.count())]
    assert names == ["gpt2", "cl100k_base", "o200k_base"]
    assert dialog.pattern_box.currentData() == "gpt2"
    qtbot.waitUntil(lambda: not panel.busy(), timeout=10_000)
    assert panel.lines()[0].encoding.tokens == guessed

    dialog.choose_pattern("cl100k_base")
    qtbot.waitUntil(lambda: not panel.busy(), timeout=10_000)
    assert panel.lines()[0].encoding.tokens == other
    assert dialog.pattern_box.currentData() == "cl100k_base"
    assert "cl100k_base is the one you chose" in dialog.text()
    assert window.messages == []


def test_a_rank_file_opened_in_a_compare_column_says_its_guess_and_reopens_there(
    qtbot, window, monkeypatch, tmp_path
):
    """Compare's file picker took a rank file's guessed split pattern in silence: its report
    now opens as from File > Open, and choosing another pattern encodes that column again."""
    from core.formats.detect import open_tokenizer

    path = _rank_file(tmp_path)
    text = "12345 don't DON'T 철수는"
    guessed = open_tokenizer(path).tokenizer.encode(text).tokens
    other = open_tokenizer(path, pattern="cl100k_base").tokenizer.encode(text).tokens
    window.segmentation_panel.set_text(text)
    window.finish_startup()
    window.raise_panel("compare")
    compare = window.compare_panel
    qtbot.waitUntil(lambda: compare.text() == text, timeout=5000)
    column = compare.columns[1]
    assert column.load_file(str(path))
    dialog = window.report_dialog
    assert dialog is not None and dialog.isVisible()
    assert "does not store its split pattern" in dialog.text() and "--pattern" not in dialog.text()
    assert dialog.pattern_box.currentData() == "gpt2"
    compare.compare()
    assert column.result.lines[0].encoding.tokens == guessed

    dialog.choose_pattern("cl100k_base")
    compare.compare()
    assert column.result.lines[0].encoding.tokens == other
    assert dialog.pattern_box.currentData() == "cl100k_base"
    assert "cl100k_base is the one you chose" in dialog.text()
    assert window.state.tokenizer is not column.file_tokenizer  # the shown model is left alone


def test_clips_note_is_read_whole(qtbot, window, monkeypatch, tmp_path):
    from tests.gui.test_open_every_format import _clip

    _open(window, monkeypatch, _clip(tmp_path))
    text = window.report_dialog.text()
    assert "ftfy.fix_text" in text and "that step is left out, so such text may encode differently" in text
    # a file with nothing to say opens without a dialog
    window.report_dialog.close()
    assert not window.report_dialog.isVisible()


def test_a_bert_vocab_txt_shows_the_casing_it_chose_and_reopens_with_the_other(
    qtbot, window, monkeypatch, tmp_path
):
    """A bare vocab.txt does not say whether it lowercases: the CLI has --lowercase/--cased; the
    explorer says which it chose and offers the other, encoding the text again."""
    path = tmp_path / "vocab.txt"
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "Hello", "world", "철수", "##는"]
    path.write_text("\n".join(words) + "\n", encoding="utf-8")  # one cased pair: guessed lowercase
    panel = window.segmentation_panel
    panel.set_text("Hello world 철수는")
    _open(window, monkeypatch, path)
    dialog = window.report_dialog
    assert dialog.isVisible() and dialog.pattern_row.isVisible()
    assert dialog.pattern_label.text() == "Casing:"
    assert [dialog.pattern_box.itemData(i) for i in range(dialog.pattern_box.count())] == [
        "lowercase",
        "cased",
    ]
    assert dialog.pattern_box.currentData() == "lowercase"
    assert "--lowercase" not in dialog.text() and "as guessed" in dialog.text()
    qtbot.waitUntil(lambda: not panel.busy(), timeout=10_000)
    assert panel.lines()[0].encoding.tokens == ["hello", "world", "철수", "##는"]

    dialog.choose_pattern("cased")
    qtbot.waitUntil(lambda: not panel.busy(), timeout=10_000)
    assert window.state.tokenizer.normalizer.lowercase is False
    assert panel.lines()[0].encoding.tokens == ["Hello", "world", "철수", "##는"]
    assert dialog.pattern_box.currentData() == "cased" and "the casing you chose" in dialog.text()
    dialog.choose_pattern("lowercase")
    qtbot.waitUntil(lambda: not panel.busy(), timeout=10_000)
    assert panel.lines()[0].encoding.tokens == ["hello", "world", "철수", "##는"]
    assert window.messages == []
