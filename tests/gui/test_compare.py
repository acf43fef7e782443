"""The Compare panel: differing boundaries, shared tokens, statistics side by side, file columns."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from core.corpus import count_lines
from core.events import drain
from core.formats.hf_json import save_tokenizer_json
from core.options import TrainOptions
from core.training import train_from_counts
from subword_gui.panels.compare import METRICS, ComparePanel
from subword_gui.state import AppState
from subword_gui.tokens import palette

HUG_PUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


@pytest.fixture(scope="module")
def hug_bpe():
    # merges u+g, u+n, h+ug (the BPE seed's worked example); vocab 11
    return drain(train_from_counts(HUG_PUG, TrainOptions("bpe", vocab_size=11)))


def _shown_panel(qtbot, tokenizer, width: int, height: int) -> ComparePanel:
    state = AppState()
    state.set_full_tokenizer(tokenizer)
    panel = ComparePanel(state)
    qtbot.addWidget(panel)
    panel.resize(width, height)
    panel.show()
    return panel


@pytest.fixture
def panel(qtbot, hug_bpe):
    return _shown_panel(qtbot, hug_bpe, 1000, 700)


def table_column(panel, j: int) -> dict[str, str]:
    return {label: panel.table.item(i, j).text() for i, (_k, label, _f) in enumerate(METRICS)}


def test_a_model_and_its_cut_differ_at_a_known_boundary(panel):
    a, b = panel.columns
    assert a.source_key() == "shown" and b.source_key() == "size"
    b.set_source(("size", 9))  # the first merge only: u+g
    panel.set_text("hugs")
    assert a.result.lines[0].encoding.tokens == ["hug", "s"]
    assert b.result.lines[0].encoding.tokens == ["h", "ug", "s"]
    # hug|s vs h|ug|s: position 1 is a boundary only B has
    assert a.result.marked == [set()]
    assert b.result.marked == [{1}]
    h, ug, s = b.strip.chips()
    assert h.mark_after and ug.mark_before and not s.mark_before
    assert not any(c.mark_before or c.mark_after for c in a.strip.chips())
    # "s" is the same token in both: grey; the others differ: coloured
    assert a.strip.chips()[1].background == palette.SHARED_BACKGROUND
    assert s.background == palette.SHARED_BACKGROUND
    assert a.strip.chips()[0].background != palette.SHARED_BACKGROUND
    assert ug.background != palette.SHARED_BACKGROUND
    assert "1</b> boundary" in b.summary.text()


def test_statistics_side_by_side(panel):
    panel.columns[1].set_source(("size", 9))
    panel.set_text("hugs pun")
    # A: hug s | p un = 4 tokens ; B (only the merge u+g): h ug s | p u n = 6
    assert table_column(panel, 0)["tokens"] == "4"
    assert table_column(panel, 1)["tokens"] == "6"
    assert table_column(panel, 0)["tokens / word"] == "2.000"
    assert table_column(panel, 1)["tokens / word"] == "3.000"
    assert table_column(panel, 0)["characters"] == table_column(panel, 1)["characters"] == "8"
    assert table_column(panel, 1)["vocab size"] == "9"
    # the bar plot shows the same figures
    plot, bars = panel._plot_items[0]
    assert list(bars.opts["height"]) == [2.0, 3.0]


def test_more_columns_and_removing_them(panel, hug_bpe):
    panel.set_text("hugs")
    c = panel.add_column("full")
    panel.compare()
    assert [col.letter for col in panel.columns] == ["A", "B", "C"]
    assert panel.table.columnCount() == 3
    assert c.tokenizer is hug_bpe
    panel.remove_column(panel.columns[1])
    panel.compare()
    assert [col.letter for col in panel.columns] == ["A", "B"]  # named in order again, no gap
    assert panel.table.columnCount() == 2


def test_the_shown_column_follows_the_slider(panel, hug_bpe):
    from subword_gui.background.jobs import truncate_tokenizer

    panel.set_text("hugs")
    panel.state.set_tokenizer(truncate_tokenizer(hug_bpe, 9), 9)
    panel.compare()
    assert panel.columns[0].result.lines[0].encoding.tokens == ["h", "ug", "s"]


def test_a_tokenizer_file_as_a_column(panel, hug_bpe, tmp_path, monkeypatch):
    path = tmp_path / "hug.json"
    save_tokenizer_json(hug_bpe, path)
    col = panel.columns[1]
    assert col.load_file(str(path))
    panel.set_text("hugs")
    assert col.source_key() == "file"
    assert col.result.lines[0].encoding.tokens == ["hug", "s"]
    assert "hug.json" in col.title.text()
    # a corrupt file: a clear message, and the column keeps what it had
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json", encoding="utf-8")
    shown = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(a[2]))
    assert not col.load_file(str(bad))
    assert shown and "bad.json" in shown[0]
    assert col.tokenizer.get_vocab() == hug_bpe.get_vocab()


def test_statistics_over_the_corpus_words(panel):
    panel.state.set_corpus(count_lines(["hugs bug", "mug hugs"]))
    panel.stats_over.setCurrentIndex(1)
    panel.compare()
    # the full model: hugs (x2) -> hug s ; bug -> b ug ; mug -> <unk> ug
    assert panel.stat(0, "tokens") == 8
    assert panel.stat(0, "unknown") == 1
    assert panel.stat(0, "words") == 4
    assert panel.stat(0, "characters") == 14
    assert table_column(panel, 0)["tokens / word"] == "2.000"


def test_korean_text_compares_and_renders(panel, qtbot):
    opts = TrainOptions("bpe", vocab_size=60)
    words = {"철수는": 5, "밥을": 4, "먹었다": 3, "철수가": 2}
    ko = drain(train_from_counts(words, opts))
    panel.state.set_full_tokenizer(ko)
    panel.columns[1].set_source(("size", ko.model.min_vocab_size))
    panel.set_text("철수는 밥을 먹었다")
    a, b = panel.columns
    assert len(b.result.lines[0].encoding.ids) == len("철수는밥을먹었다")  # no merges: one token per syllable
    assert len(a.result.lines[0].encoding.ids) < len(b.result.lines[0].encoding.ids)
    assert b.result.marked[0]  # B cuts inside words where A does not


def test_compare_follows_the_segmentation_text_until_the_user_types_there(qtbot, hug_bpe):
    from subword_gui.panels.segmentation import SegmentationPanel

    state = AppState()
    seg, cmp_ = SegmentationPanel(state), ComparePanel(state)
    for w in (seg, cmp_):
        qtbot.addWidget(w)
        w.show()
    state.set_full_tokenizer(hug_bpe)
    seg.set_text("hugs pug")
    assert cmp_.text() == "hugs pug"
    qtbot.waitUntil(
        lambda: (
            bool(cmp_.columns[0].result.lines)
            and cmp_.columns[0].result.lines[0].encoding.tokens == ["hug", "s", "p", "ug"]
        ),
        timeout=2000,
    )
    # typing in Compare makes its text its own
    cmp_.editor.setFocus()
    qtbot.keyClicks(cmp_.editor, "x")
    assert not cmp_.follow.isChecked()
    seg.set_text("bun")
    assert cmp_.text() != "bun"
    # following again adopts the Segmentation text
    cmp_.follow.setChecked(True)
    assert cmp_.text() == "bun"


def test_a_hidden_panel_cuts_and_encodes_only_when_shown(qtbot, hug_bpe, monkeypatch):
    """A model landing or a slider drag must not cost a hidden Compare panel anything;
    shown, it catches up with the latest model, and re-encodes once after a burst of moves."""
    from subword_gui.background.jobs import truncate_tokenizer
    from subword_gui.panels import compare as compare_module

    state = AppState()
    panel = ComparePanel(state)
    qtbot.addWidget(panel)
    cuts, runs = [], []
    real_cut = compare_module.truncate_tokenizer
    monkeypatch.setattr(compare_module, "truncate_tokenizer", lambda t, k: cuts.append(k) or real_cut(t, k))
    real_compare = panel.compare
    monkeypatch.setattr(panel, "compare", lambda: runs.append(1) or real_compare())
    panel._timer.timeout.disconnect()
    panel._timer.timeout.connect(panel.compare)
    state.set_full_tokenizer(hug_bpe)
    for k in (10, 9, 10, 9):
        state.set_tokenizer(truncate_tokenizer(hug_bpe, k), k)
    assert cuts == [] and runs == []
    panel.resize(1000, 700)
    panel.show()
    qtbot.waitUntil(lambda: bool(runs), timeout=2000)
    assert len(cuts) == 1 and panel.columns[1].tokenizer is not None
    assert panel.columns[0].tokenizer is state.tokenizer
    for k in (10, 9, 10, 9, 10):  # a drag while shown: one re-encoding once it pauses
        state.set_tokenizer(truncate_tokenizer(hug_bpe, k), k)
    qtbot.wait(compare_module.COMPARE_DELAY_MS * 3)
    assert len(runs) == 2


def test_a_very_long_text_is_compared_from_its_beginning_and_the_panel_says_so(panel, monkeypatch):
    from subword_gui.panels import compare

    monkeypatch.setattr(compare, "COMPARE_MAX_CHARS", 30)
    panel.set_text("hugs pug\n" * 10)  # 90 characters
    assert panel.cap_note.isVisible()
    assert "the first 30 of these 90 characters" in panel.cap_note.text()
    for column in panel.columns:
        assert [ln.text for ln in column.result.lines] == ["hugs pug"] * 3 + ["hug"]
    panel.set_text("hugs pug")
    assert not panel.cap_note.isVisible()


def test_capped_lines_cut_at_the_limit():
    from subword_gui.panels.compare import capped_lines

    assert capped_lines("hug pug\nbun", limit=5) == ["hug p"]
    assert capped_lines("hug\npug\nbun", limit=8) == ["hug", "pug"]
    assert capped_lines("hug\npug", limit=100) == ["hug", "pug"]
    assert capped_lines("", limit=5) == [""]


def test_a_narrow_tab_clips_neither_the_column_combo_nor_the_small_plots(qtbot, hug_bpe):
    from PySide6.QtCore import Qt

    state = AppState()
    state.set_full_tokenizer(hug_bpe)
    panel = ComparePanel(state)
    qtbot.addWidget(panel)
    panel.resize(520, 760)  # the right-hand tab of a 1280x800 window
    panel.show()
    column = panel.columns[1]  # the default second column: the full model cut to a size
    assert column.source_key() == "size"
    qtbot.waitUntil(lambda: column.size_row.isVisible(), timeout=5000)
    qtbot.wait(50)
    # the combo shows its whole text (the size spin box has a row of its own)
    text_width = column.source.fontMetrics().horizontalAdvance(column.source.currentText())
    assert column.source.width() >= text_width + 20
    # the 2 x 2 bar charts fit their widget: none is cut off at the right edge
    need = panel.plots.ci.effectiveSizeHint(Qt.SizeHint.MinimumSize).width()
    assert panel._plots_per_row == 2 and panel.plots.width() >= need
    for plot, _bars in panel._plot_items:
        assert plot.mapRectToScene(plot.boundingRect()).right() <= panel.plots.width() + 1


def test_a_narrow_column_elides_its_source_with_an_ellipsis(qtbot, hug_bpe):
    """Four columns in a 1280-wide window: the source combo showed "Full cut to s", clipped
    mid-letter; it ends in "…" and its tooltip gives the whole text."""
    panel = _shown_panel(qtbot, hug_bpe, 640, 760)
    while len(panel.columns) < 4:
        panel.add_column()
    qtbot.wait(50)
    combo = panel.columns[1].source
    text = combo.currentText()
    # as narrow as a quarter of the Compare tab was in the real window (fonts differ offscreen)
    combo.setFixedWidth(combo.fontMetrics().horizontalAdvance(text) // 2 + 30)
    qtbot.wait(10)
    shown = combo.shown_text()
    assert shown.endswith("…") and text.startswith(shown[:-1])
    assert combo.toolTip() == text


def test_no_figure_of_the_table_is_elided_in_a_narrow_tab(qtbot, hug_bpe):
    """At 1280x800 the unknown-rate cells read "100.0…": every figure must be read whole."""
    from PySide6.QtWidgets import QStyle

    panel = _shown_panel(qtbot, hug_bpe, 520, 760)  # the right-hand tab of a 1280x800 window
    panel.add_column("full")
    panel.add_column("full")
    panel.set_text("토크나이저는 문장을 작은 조각으로 나눕니다 " * 300)  # unknown to hug_bpe
    panel.compare()
    table = panel.table
    assert table_column(panel, 0)["unknown rate"] == "100.00%"
    margin = 2 * (table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1)
    for j in range(table.columnCount()):
        for i in range(table.rowCount()):
            text = table.item(i, j).text()
            assert table.fontMetrics().horizontalAdvance(text) + margin <= table.columnWidth(j), text


def test_each_columns_differing_tokens_are_counted_by_one_rule(qtbot, tmp_path):
    """One token over a character beside byte pieces of it: one column said 0 differing tokens
    while the other had more tokens and also said 0 (or 2) (issue 29, item 6). The columns share
    as many tokens, so each one's differing tokens are its tokens less the same number."""
    from core.options import pre_tokenize_lines
    from tests.gui.conftest import make_lines

    def trained(algorithm, size):
        opts = TrainOptions(algorithm, vocab_size=size)
        return drain(train_from_counts(pre_tokenize_lines(make_lines(200), opts), opts))

    panel = _shown_panel(qtbot, trained("bpe", 200), 1000, 700)
    path = tmp_path / "bytes.json"
    save_tokenizer_json(trained("bytelevel-bpe", 400), path)
    a, b = panel.columns
    assert b.load_file(str(path))
    panel.set_text("철수는 치킨을 먹고 👩🏽‍💻 the tokenizer")
    tokens = [len(c.strip.chips()) for c in (a, b)]
    assert tokens[0] != tokens[1]
    assert a.differing > 0 and b.differing > 0
    assert tokens[0] - a.differing == tokens[1] - b.differing
    for column, n in zip((a, b), tokens):
        assert f"{column.differing} differing tokens" in column.summary.text()
        assert f"<b>{n:,}</b> tokens" in column.summary.text()
    # the pair of the report: A's one <unk> over 🙂 was "shared" with B's last byte piece of it
    panel.set_text("a 🙂")
    assert a.result.lines[0].encoding.tokens == ["a", "<unk>"]
    assert len(b.result.lines[0].encoding.tokens) == 6  # a Ġ and 🙂's four bytes
    assert (a.differing, b.differing) == (1, 5)  # 0 and 4 before: the <unk> was "shared"
    assert a.strip.chips()[1].background != palette.SHARED_BACKGROUND
    assert a.strip.chips()[0].background == b.strip.chips()[0].background == palette.SHARED_BACKGROUND


def test_columns_left_after_a_removal_are_named_from_a_again(panel):
    """After the Korean study (three run columns added, then the first two removed) Compare's
    columns read C, D, E (issue 29, item 7)."""
    first, second = panel.columns
    panel.add_column()
    panel.add_column()
    panel.remove_column(first)
    panel.remove_column(second)
    assert [c.letter for c in panel.columns] == ["A", "B"]
    assert [c.badge.text().strip() for c in panel.columns] == ["A", "B"]
    assert panel.columns[0].colour != panel.columns[1].colour
    assert panel.add_column().letter == "C"
