"""The Corpus panel driven like a user: File → Open corpus…, wait, read the facts and tables."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QFileDialog

from core.corpus import count_words
from core.events import drain
from subword_gui.background import jobs
from subword_gui.panels.item_models import CharTableModel, WordFrequencyModel

from .conftest import make_lines

WAIT_MS = 30_000


def open_through_menu(qtbot, window, monkeypatch, path, action=None):
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    with qtbot.waitSignal(window.corpus_panel.loaded, timeout=WAIT_MS):
        (action or window.open_corpus_action).trigger()


def column(model, col: int) -> list[str]:
    return [model.index(r, col).data() for r in range(model.rowCount())]


def test_open_corpus_shows_the_engines_counts(qtbot, window, monkeypatch, small_corpus):
    open_through_menu(qtbot, window, monkeypatch, small_corpus)
    expected = drain(count_words([small_corpus]))
    panel = window.corpus_panel
    assert window.state.corpus_path == str(small_corpus)
    assert panel.fact_labels["lines"].text() == f"{expected.lines:,}"
    assert panel.fact_labels["n_words"].text() == f"{expected.n_words:,}"
    assert panel.fact_labels["distinct_words"].text() == f"{expected.distinct_words:,}"
    assert panel.fact_labels["distinct_chars"].text() == f"{len(expected.chars):,}"
    assert panel.fact_labels["encoding"].text() == "utf-8"
    # Word table: most frequent first, counts as the engine counted them.
    model = panel.word_model
    top = max(expected.words.items(), key=lambda kv: (kv[1], [-ord(c) for c in kv[0]]))
    assert model.index(0, 0).data() == top[0]
    assert model.index(0, 1).data() == f"{top[1]:,}"
    assert len(model.words) == expected.distinct_words
    # Character table and preview.
    assert panel.char_model.rowCount() == len(expected.chars)
    assert panel.preview.toPlainText().splitlines()[:3] == make_lines(3)
    # Status bar facts.
    assert f"{expected.lines:,} lines" in window.corpus_fact.text()


def test_word_table_sorts_and_searches(qtbot, window, monkeypatch, small_corpus):
    open_through_menu(qtbot, window, monkeypatch, small_corpus)
    panel = window.corpus_panel
    words = drain(count_words([small_corpus])).words
    panel.word_view.sortByColumn(0, Qt.SortOrder.AscendingOrder)
    shown = column(panel.word_model, 0)
    assert shown == sorted(words)[: len(shown)]
    panel.word_view.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    counts = [int(c.replace(",", "")) for c in column(panel.word_model, 1)]
    assert counts == sorted(counts) and counts[0] == min(words.values())
    for ch in "영화":  # as typed through an input method (QTest only types ASCII)
        panel.search.insert(ch)
    qtbot.waitUntil(lambda: panel.word_model.matching_rows == sum("영화" in w for w in words), timeout=2000)
    assert all("영화" in w for w in column(panel.word_model, 0))
    assert panel.match_label.text().startswith(f"{sum('영화' in w for w in words):,} of")


def test_cp949_file_is_detected_and_encoding_can_be_chosen(qtbot, window, monkeypatch, tmp_path):
    path = tmp_path / "cp949.txt"
    # Mostly ASCII with some Hangul: undecodable as UTF-8, yet clearly text.
    lines = [
        line if i % 10 == 0 else "the tokenizer cuts text into pieces"
        for i, line in enumerate(make_lines(200))
    ]
    path.write_bytes("\n".join(lines).encode("cp949"))
    open_through_menu(qtbot, window, monkeypatch, path)
    panel = window.corpus_panel
    assert panel.fact_labels["encoding"].text() == "cp949"
    assert panel.fact_labels["replaced_bytes"].text() == "0"
    assert "영화" in window.state.corpus.words
    # Forcing UTF-8 re-counts: the CP949 bytes are invalid UTF-8 and get replaced.
    with qtbot.waitSignal(panel.loaded, timeout=WAIT_MS):
        panel.encoding_box.setCurrentText("utf-8")
        panel.encoding_box.activated.emit(panel.encoding_box.currentIndex())
    assert int(panel.fact_labels["replaced_bytes"].text().replace(",", "")) > 0
    assert window.state.corpus.encoding == "utf-8"


def test_open_word_counts(qtbot, window, monkeypatch, tmp_path):
    path = tmp_path / "counts.tsv"
    path.write_text("hug\t10\npug\t5\npun\t12\nbun\t4\nhugs\t5\n", encoding="utf-8")
    open_through_menu(qtbot, window, monkeypatch, path, window.open_counts_action)
    assert window.state.corpus.words == {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    assert window.state.corpus_source == ("counts_file", str(path))
    assert column(window.corpus_panel.word_model, 0)[0] == "pun"


@pytest.mark.parametrize("content, needle", [(b"", "empty"), (bytes(range(256)) * 64, "")])
def test_bad_file_reports_and_keeps_the_previous_corpus(
    qtbot, window, monkeypatch, small_corpus, tmp_path, content, needle
):
    open_through_menu(qtbot, window, monkeypatch, small_corpus)
    before = window.state.corpus
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    with qtbot.waitSignal(window.corpus_panel.failed, timeout=WAIT_MS):
        window.open_corpus_action.trigger()
    title, message = window.messages[-1]
    assert "bad.txt" in message and needle in message
    assert window.error_label.isVisible() and "bad.txt" in window.error_label.text()
    assert window.state.corpus is before and window.state.corpus_path == str(small_corpus)
    assert window.corpus_panel.fact_labels["lines"].text() == f"{before.lines:,}"


def test_cancel_counting_keeps_the_previous_corpus(qtbot, window, monkeypatch, small_corpus, corpora_dir):
    open_through_menu(qtbot, window, monkeypatch, small_corpus)
    before = window.state.corpus
    panel = window.corpus_panel
    panel.open_text(str(corpora_dir / "ko-movie-reviews.txt"))
    with qtbot.waitSignal(panel.job.events, timeout=WAIT_MS):
        pass
    assert panel.busy and panel._busy_row.isVisible()
    with qtbot.waitSignal(panel.job.cancelled, timeout=5000):
        panel.cancel_button.click()
    assert not panel.busy and not panel._busy_row.isVisible()
    assert window.state.corpus is before
    assert panel.fact_labels["lines"].text() == f"{before.lines:,}"


class _Counts:
    def __init__(self, words):
        self.words = words


def test_word_model_fetches_rows_on_demand_and_filters():
    words = {f"w{i:06d}": (i * 7919) % 1000 + 1 for i in range(10_000)}
    model = WordFrequencyModel()
    model.set_result(jobs._with_orders(_Counts(words)))
    assert model.rowCount() < len(words) and model.canFetchMore(QModelIndex())
    while model.canFetchMore(QModelIndex()):
        model.fetchMore(QModelIndex())
    assert model.rowCount() == len(words)
    counts = [words[model.words[i]] for i in model._rows]
    assert counts == sorted(words.values(), reverse=True)
    model.set_filter("w0001")
    assert model.matching_rows == sum(w.startswith("w0001") for w in words)
    model.sort(0, Qt.SortOrder.DescendingOrder)
    first = model.index(0, 0).data()
    assert first == max(w for w in words if "w0001" in w)


def test_word_shares_read_as_the_compare_table_writes_percentages():
    """The Words tab wrote "0.908 %" where Compare and the Korean study write "14.29%"."""
    model = WordFrequencyModel()
    model.set_result(jobs._with_orders(_Counts({"먹고": 11, "철수는": 3, "\t": 2, "a b": 1})))
    # by count: 11, 3, 2 and 1 of 17 words
    assert column(model, 2) == ["64.706%", "17.647%", "11.765%", "5.882%"]


def test_item_models_pass_the_model_tester(qtmodeltester):
    words = {"철수는": 3, "먹고": 11, "a b": 1, "\t": 2}
    model = WordFrequencyModel()
    model.set_result(jobs._with_orders(_Counts(words)))
    qtmodeltester.check(model)
    chars = CharTableModel()
    chars.set_counts({"가": 5, "a": 9, " ": 2, "\u200b": 1})
    qtmodeltester.check(chars)
    assert chars.index(0, 0).data() == "a" and chars.index(3, 1).data() == "U+200B"
    kept = QPersistentModelIndex(chars.index(1, 0))  # "가" (5)
    chars.sort(1, Qt.SortOrder.AscendingOrder)  # by code point: " ", "a", "가", ZWSP
    assert [chars.index(r, 1).data() for r in range(4)] == ["U+0020", "U+0061", "U+AC00", "U+200B"][
        :2
    ] + sorted(["U+AC00", "U+200B"], key=lambda u: int(u[2:], 16))
    assert kept.row() == [ch for ch, _ in chars.rows].index("가")
    qtmodeltester.check(chars)


def test_a_loaded_corpus_is_out_of_the_garbage_collectors_sight(qtbot, window, monkeypatch, small_corpus):
    # its half-million-entry lists were walked item by item by the next young-generation
    # collection, on the window's thread; frozen, no collection visits them again
    import gc

    open_through_menu(qtbot, window, monkeypatch, small_corpus)
    words = window.corpus_panel.result.words
    assert words
    assert not any(o is words for o in gc.get_objects())  # frozen objects are in no generation


def test_sortable_titles_leave_room_for_the_sort_arrow(window):
    """The arrow sits at a section's right end, where a right-aligned title like "Count" ends:
    sortable headers get a wider right padding (explorer.qss). subtle: offscreen, Qt's header
    size hints ignore that padding, so this checks the rule and who carries the property; the
    look was checked in a real window."""
    import re

    from subword_gui.style.theme import style_sheet

    rule = re.search(r'QHeaderView\[sortable="true"\]::section \{[^}]*padding-right: (\d+)px', style_sheet())
    assert rule is not None and int(rule.group(1)) >= 16  # the arrow's width and a gap
    for view in (window.corpus_panel.word_view, window.corpus_panel.char_view, window.vocabulary_panel.table):
        assert view.isSortingEnabled() and view.horizontalHeader().property("sortable") is True


def _loaded_in_slices(panel, corpus, slice_items: int, monkeypatch):
    """Feed ``panel`` a counted corpus as the worker sends it (Chunk events, then the result),
    in slices of ``slice_items`` words; the panel's ``loaded`` result."""
    monkeypatch.setattr(jobs, "CHUNK_ITEMS", slice_items)
    events: list = []
    result = drain(jobs.count_corpus_job(str(corpus)), events.append)
    panel._pending = ("file", str(corpus), "auto")
    panel._chunks = {}
    panel._on_events([e for e in events if type(e).__name__ == "Chunk"])
    got = []
    panel.loaded.connect(got.append)
    panel._on_finished(result)
    return got[0]


def test_words_sent_in_slices_are_shown_as_counted_whole(qtbot, window, monkeypatch, small_corpus):
    # the table's word and count columns are built slice by slice as the slices arrive
    whole = jobs._with_orders(drain(count_words([small_corpus])))
    shown = _loaded_in_slices(window.corpus_panel, small_corpus, 7, monkeypatch)
    assert len(whole.words) > 7 * 3  # several slices
    assert shown.words == whole.words
    assert shown.frequencies == whole.frequencies
    assert shown.counts.words == dict(zip(whole.words, whole.frequencies))
    assert list(shown.order_by_count) == whole.order_by_count


def test_no_garbage_collection_runs_while_a_counted_corpus_lands(qtbot, window, monkeypatch, small_corpus):
    # a young-generation pass there walked every object the slices had made (10-15 ms)
    import gc

    seen = []

    def on_gc(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    panel = window.corpus_panel
    idle = panel._idle

    def watch_from_the_landing_on():  # the first thing the landing does is hide the progress row
        gc.callbacks.append(on_gc)
        idle()

    threshold = gc.get_threshold()
    try:
        panel.loaded.connect(lambda _r: seen.append("loaded"))
        monkeypatch.setattr(panel, "_idle", watch_from_the_landing_on)
        gc.set_threshold(1)  # any allocation would collect, unless the collector is paused
        _loaded_in_slices(panel, small_corpus, 50, monkeypatch)
    finally:
        gc.callbacks.remove(on_gc)
        gc.set_threshold(*threshold)
    assert "loaded" in seen
    assert seen[: seen.index("loaded")] == []
