"""SuperBPE and PickyBPE seen in the explorer: the merge log marks where SuperBPE's stage 2
begins and lists PickyBPE's removals as rows of their own; superwords (tokens that span a
space) are drawn as such in the merge log, the chips, the text and the vocabulary; the
Vocabulary panel lists removed tokens; the why view shows how a superword was built."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCharFormat

from core.options import TrainOptions
from subword_gui.panels.item_models import log_marks
from subword_gui.panels.training import available_algorithms
from subword_gui.style import theme
from subword_gui.tokens.render import is_superword, render_token, style_for
from tests.gui.conftest import train_in_window

WAIT_MS = 60_000


def _rows_text(model) -> list[str]:
    return [" ".join(str(model.index(r, c).data() or "") for c in range(2)) for r in range(model.rowCount())]


def test_superbpe_merge_log_marks_stage_two_and_draws_superwords(qtbot, loaded):
    window = loaded
    tok = train_in_window(qtbot, window, TrainOptions("superbpe", vocab_size=420, extra={"transition": 330}))
    panel = window.training_panel
    log = panel.merge_model
    texts = _rows_text(log)
    stage_rows = [r for r, t in enumerate(texts) if "stage 2" in t]
    assert len(stage_rows) == 1, texts[:5]
    row = stage_rows[0]
    # the mark sits between the last stage-1 merge and the first stage-2 merge, spanning the row
    before = log.rows[log._entries[row - 1]]
    after = log.rows[log._entries[row + 1]]
    assert before.vocab_size <= 330 < after.vocab_size
    assert panel.merge_view.columnSpan(row, 1) == log.columnCount() - 1
    assert log.index(row, 1).data(Qt.ItemDataRole.BackgroundRole).color().name() == theme.current().stage
    assert len(log.rows) == len(tok.model.merges)  # the merges alone, as the rest of the explorer reads them
    # superwords: learned in stage 2 only, drawn in their own colour in the New token column
    style = style_for(tok)
    supers = [r for r in range(log.rowCount()) if r > row and isinstance(log._entries[r], int)
              and is_superword(log.rows[log._entries[r]].new_token, style)]  # fmt: skip
    assert supers, "the corpus repeats word pairs: stage 2 must learn some superword"
    assert not any(
        is_superword(log.rows[log._entries[r]].new_token, style)
        for r in range(row)
        if isinstance(log._entries[r], int)
    )
    ink = log.index(supers[0], 3).data(Qt.ItemDataRole.ForegroundRole)
    assert ink is not None and ink.color().name() == theme.current().superword
    assert "superword" in log.index(supers[0], 3).data(Qt.ItemDataRole.ToolTipRole)
    # shown again (a run re-shown from the Runs list has merges, not the live events): the mark comes back
    marks = log_marks(tok, window.state.train_options, window.state.merge_events)
    assert [type(m).__name__ for m in marks] == ["StageStarted"] and marks[0].after_step == row
    panel._show_log(window.state.merge_events, [], marks)
    assert [r for r, t in enumerate(_rows_text(log)) if "stage 2" in t] == [row]
    assert panel.merge_view.columnSpan(row, 1) == log.columnCount() - 1


def test_picky_bpe_removals_are_rows_of_the_merge_log(qtbot, loaded):
    if "picky-bpe" not in available_algorithms():
        pytest.skip("the picky-bpe trainer is not in this checkout")
    window = loaded
    tok = train_in_window(qtbot, window, TrainOptions("picky-bpe", vocab_size=400, extra={"tau": 0.8}))
    model = tok.model
    assert model.removals
    log = window.training_panel.merge_model
    removed_rows = [r for r, t in enumerate(_rows_text(log)) if "removed ‹" in t]
    assert len(removed_rows) == len(model.removals)
    style = style_for(tok)
    for r, (step, token) in zip(removed_rows, model.removals):
        text = log.index(r, 1).data()
        assert "IoS 0." in text or "IoS 1." in text, text
        assert log.index(r, 0).data() == f"{step} ✂"
        # right after the merge that caused it (or after another removal of the same merge)
        k = r - 1
        while not isinstance(log._entries[k], int):
            k -= 1
        assert log.rows[log._entries[k]].step == step
        assert text.split("‹")[1].split("›")[0] == render_token(token, style)
        assert log.index(r, 1).data(Qt.ItemDataRole.ForegroundRole).color().name() == theme.current().removed
    # the Vocabulary panel lists them too, marked (after the vocabulary, struck through)
    window.raise_panel("vocabulary")  # (the panel rebuilds when shown)
    qtbot.waitUntil(lambda: window.vocabulary_panel.model.tokenizer is tok, timeout=WAIT_MS)
    vocab = window.vocabulary_panel.model
    vocab.fetch_all()
    removed = set(model.removed_tokens())
    marked = {vocab.entry(r)[1] for r in range(vocab.rowCount()) if vocab.is_removed(r)}
    assert marked == removed
    r = next(r for r in range(vocab.rowCount()) if vocab.is_removed(r))
    assert vocab.index(r, 1).data(Qt.ItemDataRole.FontRole).strikeOut()
    assert vocab.index(r, 0).data() == "—"
    assert "removed" in vocab.index(r, 1).data(Qt.ItemDataRole.ToolTipRole)


SUPER_LINES = ["by the way the cat sat on the mat", "the cat and the dog", "by the way it is late"] * 12


@pytest.fixture(scope="module")
def superbpe():
    from core.events import drain
    from core.options import pre_tokenize_lines
    from core.training import train_from_counts

    opts = TrainOptions("superbpe", vocab_size=300, extra={"transition": 280})
    return drain(train_from_counts(pre_tokenize_lines(SUPER_LINES, opts), opts))


@pytest.fixture
def segmentation(qtbot):
    from subword_gui.panels.segmentation import SegmentationPanel
    from subword_gui.state import AppState

    panel = SegmentationPanel(AppState())
    qtbot.addWidget(panel)
    panel.resize(900, 700)
    panel.show()
    return panel


def test_superwords_are_drawn_as_spanning_a_space_in_chips_text_and_vocabulary(qtbot, segmentation, superbpe):
    from subword_gui.panels.vocabulary import VocabModel
    from subword_gui.tokens.token_view import token_tooltip

    panel = segmentation
    panel.state.set_tokenizer(superbpe)
    text = "by the way the cat sat"
    panel.set_text(text)
    panel.refresh()
    (line,) = panel.lines()
    enc = line.encoding
    spans = [text[s:e] for s, e in enc.offsets]
    crossing = [i for i, t in enumerate(spans) if " " in t.strip()]
    assert crossing, spans  # "by the way" is one or two superwords
    chips = panel.strip.chips()
    assert [i for i, c in enumerate(chips) if c.superword] == crossing
    # the text: a superword's span is overlined in the superword colour, the others are not
    block = panel.editor.document().findBlockByNumber(0)
    runs = [(r.start, r.length, QTextCharFormat(r.format)) for r in block.layout().formats()]
    s, e = enc.offsets[crossing[0]]
    over = [f for st, ln, f in runs if st <= s + 1 < st + ln]
    assert over and over[-1].fontOverline()
    plain = [i for i in range(len(spans)) if i not in crossing and spans[i].strip()]
    s2, _ = enc.offsets[plain[0]]
    assert not [f for st, ln, f in runs if st <= s2 < st + ln][-1].fontOverline()
    style = style_for(superbpe)
    assert "superword" in token_tooltip(superbpe, style, line, crossing[0])
    # the vocabulary colours them and says so
    vocab = VocabModel()
    vocab.set_tokenizer(superbpe)
    vocab.fetch_all()
    token = enc.tokens[crossing[0]]
    row = vocab.row_of(token)
    ink = vocab.index(row, 1).data(Qt.ItemDataRole.ForegroundRole)
    assert ink is not None and ink.color().name() == theme.current().superword
    assert "superword" in vocab.index(row, 1).data(Qt.ItemDataRole.ToolTipRole)
    plain_row = vocab.row_of("Ġthe")
    assert vocab.index(plain_row, 1).data(Qt.ItemDataRole.ForegroundRole) is None


def test_why_view_shows_the_merges_that_built_a_superword(qtbot, segmentation, superbpe):
    panel = segmentation
    view = panel.why
    style = style_for(superbpe)
    piece = next(p.normalized for p in superbpe.pieces("by the way"))
    final = [t.value for t in superbpe.model.tokenize(piece)]
    supers = [t for t in final if is_superword(t, style)]
    assert supers
    view.show_piece(superbpe, piece)
    text = view.steps_text()
    line = next(x for x in text.split(" | ") if x.startswith(f"superword {render_token(supers[0], style)}:"))
    # its merges, in the order learned, end with the one that made it, across a space
    merges = line.split(": ", 1)[1].split("; ")
    assert merges[-1].endswith(f"→ {render_token(supers[0], style)}")
    ranks = [int(m.split()[0][1:]) for m in merges]
    assert ranks == sorted(ranks) and len(ranks) >= 3
    assert ranks[-1] > 280 - 256  # a stage-2 merge (after the transition), past the byte alphabet


# -- the Samples tab ------------------------------------------------------------------------


def _trained(algorithm: str, vocab_size: int):
    from core.events import drain
    from core.options import pre_tokenize_lines
    from core.training import train_from_counts

    opts = TrainOptions(algorithm, vocab_size=vocab_size)
    return drain(
        train_from_counts(pre_tokenize_lines(SUPER_LINES * 3 + ["영화가 정말 재미있었어요"] * 9, opts), opts)
    )


def test_samples_tab_shows_seeded_bpe_dropout_samples_and_their_inflation(qtbot, segmentation):
    panel = segmentation
    tok = _trained("bpe", 120)
    panel.state.set_tokenizer(tok)
    panel.set_text("by the way 영화가 정말")
    assert panel.mode.isVisible() and not panel.mode.isTabVisible(1)  # no chat template: no Chat tab
    panel.show_samples()
    view = panel.samples
    assert panel.pages.currentWidget() is view
    assert view.strength_label.text() == "BPE-dropout p" and view.strength.value() == pytest.approx(0.1)
    view.strength.setValue(0.5)
    view.count.setValue(4)
    view.seed.setValue(3)
    view.resample_now()
    first = view.texts()
    assert len(first) == 5 and first[0] == " ".join(
        t.value for p in tok.pieces("by the way 영화가 정말") for t in tok.model.tokenize(p.normalized)
    )
    assert any(row != first[0] for row in first[1:])  # p = 0.5 cuts some merges
    assert all(row.replace(" ", "") == first[0].replace(" ", "") for row in first)  # the same text
    result = view.result
    mean = sum(len(s) for s in result.samples) / 4
    assert result.inflation == pytest.approx(mean / len(result.deterministic) - 1) and result.inflation > 0
    assert f"{result.inflation:+.1%}" in view.summary.text()
    strips = [s for s in view.strips if s.isVisibleTo(view)]
    assert len(strips) == 5 and [len(s.chips()) for s in strips] == [len(r.split()) for r in first]
    assert any(c.mark_before for s in strips[1:] for c in s.chips())  # boundaries the best cut lacks
    # seeded: the same seed gives the same rows; Resample draws others
    view.seed.setValue(4)
    view.resample_now()
    other = view.texts()
    view.seed.setValue(3)
    view.resample_now()
    assert view.texts() == first
    view.resample.click()
    view.resample_now()
    assert view.seed.value() == 4 and view.texts() == other
    # the text is the Text tab's: typing here is typing there, and the samples follow
    view.editor.setPlainText("hugs")
    assert panel.text() == "hugs"
    qtbot.waitUntil(
        lambda: view.result is not None and view.result.deterministic.tokens[0].startswith("h"), timeout=2000
    )
    # hidden, the tab draws nothing while the Text tab is typed in; shown again, it catches up
    panel.mode.setCurrentIndex(0)
    view.result = None
    panel.editor.setPlainText("the cat")
    qtbot.wait(300)
    assert view.result is None
    panel.show_samples()
    assert view.result is not None and "".join(view.result.deterministic.tokens) == "thecat"


def test_samples_tab_samples_unigram_and_says_when_a_model_cannot(qtbot, segmentation, superbpe):
    panel = segmentation
    tok = _trained("unigram", 150)
    panel.state.set_tokenizer(tok)
    panel.set_text("by the way the cat")
    panel.show_samples()
    view = panel.samples
    assert view.strength_label.text() == "Unigram sampling α"
    view.strength.setValue(0.05)
    view.count.setValue(8)
    view.resample_now()
    rows = view.texts()
    assert len(rows) == 9 and len(set(rows[1:])) > 1
    assert view.result.method == "unigram"
    # a model that cannot sample says so in one line, and shows no rows or controls
    from core.models.wordpiece.model import WordPiece
    from core.tokenizer import Tokenizer

    wp = Tokenizer(WordPiece({"[UNK]": 0, "a": 1}, unk_token="[UNK]"))
    panel.state.set_tokenizer(wp)
    view.resample_now()
    assert view.result is None and "cannot sample" in view.summary.text()
    assert "\n" not in view.summary.text() and not view.controls.isVisibleTo(view)
    assert not any(s.isVisibleTo(view) for s in view.strips)
    # SuperBPE is BPE: it samples with dropout
    panel.state.set_tokenizer(superbpe)
    view.resample_now()
    assert view.result is not None and view.result.method == "dropout"
