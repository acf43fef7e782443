"""The Vocabulary panel: table contents, search, sort, fetch on demand, merge trees, corpus frequency."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from core.corpus import count_lines
from core.events import MergeEvent, drain
from core.models.unigram.model import Unigram
from core.options import TrainOptions
from core.pre_tokenizers import Metaspace
from core.tokenizer import Tokenizer
from core.training import train_from_counts
from subword_gui.panels import vocabulary
from subword_gui.panels.vocabulary import COL_FREQ, COL_ID, COL_LENGTH, COL_RANK, COL_TOKEN, VocabularyPanel
from subword_gui.state import AppState

HUG_PUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


@pytest.fixture(scope="module")
def hug_bpe():
    return drain(train_from_counts(HUG_PUG, TrainOptions("bpe", vocab_size=11)))


@pytest.fixture
def panel(qtbot):
    panel = VocabularyPanel(AppState())
    qtbot.addWidget(panel)
    panel.resize(800, 500)
    panel.show()
    return panel


def shown_rows(panel, column=COL_TOKEN) -> list[str]:
    proxy = panel.proxy
    return [proxy.data(proxy.index(r, column)) for r in range(proxy.rowCount())]


def test_models_pass_the_model_tester(qtmodeltester, panel, hug_bpe, monkeypatch):
    monkeypatch.setattr(vocabulary, "FETCH_BATCH", 4)  # exercise fetchMore on a small vocabulary
    panel.state.set_tokenizer(hug_bpe)
    assert panel.model.rowCount() == 4 and panel.model.canFetchMore()
    qtmodeltester.check(panel.model)
    panel.search.setText("u")
    qtmodeltester.check(panel.proxy)


def test_table_rows_by_id(panel, hug_bpe):
    panel.state.set_tokenizer(hug_bpe)
    assert shown_rows(panel, COL_ID) == [str(i) for i in range(11)]
    vocab = hug_bpe.get_vocab()
    assert shown_rows(panel) == sorted(vocab, key=vocab.get)
    row = sorted(vocab, key=vocab.get).index("hug")
    assert panel.proxy.index(row, COL_LENGTH).data() == "3"
    # merge step: u+g is the first merge, h+ug the third (hand-worked in the BPE seed)
    assert panel.proxy.index(row, COL_RANK).data() == "3"
    assert panel.proxy.index(sorted(vocab, key=vocab.get).index("ug"), COL_RANK).data() == "1"
    assert panel.proxy.index(sorted(vocab, key=vocab.get).index("h"), COL_RANK).data() == ""
    assert panel.count.text() == "11 tokens"


def test_search_covers_rows_not_fetched_yet(panel, hug_bpe, monkeypatch):
    monkeypatch.setattr(vocabulary, "FETCH_BATCH", 3)
    panel.state.set_tokenizer(hug_bpe)
    assert panel.model.rowCount() == 3
    panel.search.setText("ug")
    assert sorted(shown_rows(panel)) == ["hug", "ug"]
    assert panel.count.text() == "2 of 11 tokens"
    panel.search.setText("10")  # an id
    assert shown_rows(panel) == [hug_bpe.id_to_token(10)]
    panel.search.setText("")
    assert len(shown_rows(panel)) == 11


def test_sorting_by_merge_step(panel, hug_bpe):
    panel.state.set_tokenizer(hug_bpe)
    panel.table.sortByColumn(COL_RANK, Qt.SortOrder.AscendingOrder)
    assert shown_rows(panel)[:3] == ["ug", "un", "hug"]
    panel.table.sortByColumn(COL_RANK, Qt.SortOrder.DescendingOrder)
    # the latest merges first; base tokens have no merge step and stay last either way
    assert shown_rows(panel)[:3] == ["hug", "un", "ug"]
    assert all(panel.proxy.index(r, COL_RANK).data() == "" for r in range(3, 11))


def test_sorting_covers_rows_not_fetched_yet(qtmodeltester, panel, hug_bpe, monkeypatch):
    monkeypatch.setattr(vocabulary, "FETCH_BATCH", 4)
    panel.state.set_tokenizer(hug_bpe)
    panel.table.sortByColumn(COL_RANK, Qt.SortOrder.DescendingOrder)
    # the three merged tokens have the highest ids, beyond the first batch, yet come first
    assert shown_rows(panel)[:3] == ["hug", "un", "ug"]
    # the model tester on a model of its own: attached after the panel's view, it would see
    # the view fetch rows while it still thinks a reset is under way
    model = vocabulary.VocabModel()
    model.set_tokenizer(hug_bpe)
    qtmodeltester.check(model)
    model.sort(COL_RANK, Qt.SortOrder.DescendingOrder)
    model.fetch_all()
    assert [model.index(r, COL_TOKEN).data() for r in range(3)] == ["hug", "un", "ug"]
    # a slider move keeps the order
    from subword_gui.background.jobs import truncate_tokenizer

    panel.state.set_tokenizer(truncate_tokenizer(hug_bpe, 10), 10)
    assert shown_rows(panel)[:2] == ["un", "ug"]


def test_merge_tree_of_hug(panel, hug_bpe):
    panel.state.set_tokenizer(hug_bpe)
    assert panel.select_token("hug")
    assert panel.tree_text() == ["hug  #3", "  h", "  ug  #1", "    u", "    g"]
    # clicking a row does the same
    row = shown_rows(panel).index("un")
    panel.table.setCurrentIndex(panel.proxy.index(row, COL_TOKEN))
    assert panel.tree_text() == ["un  #2", "  u", "  n"]
    panel.select_token("p")
    assert panel.tree_text() == ["p"] and "base token" in panel.tree_title.text()


def test_the_slider_cut_shrinks_the_table(qtbot, panel, hug_bpe):
    panel.state.set_full_tokenizer(hug_bpe)
    panel.select_token("ug")
    cut = Tokenizer(hug_bpe.model.truncated(9), pre_tokenizer=hug_bpe.pre_tokenizer)
    panel.state.set_tokenizer(Tokenizer(hug_bpe.model.truncated(10), pre_tokenizer=hug_bpe.pre_tokenizer), 10)
    panel.state.set_tokenizer(cut, 9)
    # a slider move: the table follows on the next event-loop turn, once, to the latest cut
    assert panel.model.tokenizer is hug_bpe
    qtbot.waitUntil(lambda: panel.model.tokenizer is cut, timeout=2000)
    assert "hug" not in shown_rows(panel) and "un" not in shown_rows(panel)
    assert len(shown_rows(panel)) == 9
    assert panel.selected_token() == "ug"  # the selection survives the cut when it can


def test_corpus_frequency_counts_token_uses(panel, hug_bpe):
    panel.state.set_corpus(count_lines(["hugs bug mug", "hug"]))
    panel.state.set_tokenizer(hug_bpe)
    panel.frequencies.finish_now()
    freq = dict(zip(shown_rows(panel), shown_rows(panel, COL_FREQ)))
    # hugs -> hug s ; bug -> b ug ; mug -> <unk> ug ; hug -> hug
    assert freq["hug"] == "2" and freq["ug"] == "2"
    assert freq["s"] == "1" and freq["b"] == "1" and freq["<unk>"] == "1"
    assert freq["p"] == "0"


def test_frequencies_are_computed_in_slices_on_the_event_loop(qtbot, panel, hug_bpe):
    panel.state.set_corpus(count_lines(["hugs bug mug", "hug"]))
    panel.state.set_tokenizer(hug_bpe)
    assert panel.frequencies.running()
    qtbot.waitUntil(lambda: not panel.frequencies.running(), timeout=5000)
    assert dict(zip(shown_rows(panel), shown_rows(panel, COL_FREQ)))["hug"] == "2"


def test_wordpiece_merge_tree_comes_from_the_training_events(panel):
    events = []
    tok = drain(train_from_counts(HUG_PUG, TrainOptions("wordpiece", vocab_size=14)), events.append)
    merges = [e for e in events if isinstance(e, MergeEvent)]
    panel.state.set_full_tokenizer(tok, None, merges)
    assert panel.select_token("hugs")
    lines = panel.tree_text()
    assert lines[0].startswith("hugs  #")

    # every inner node joins its two children (the ## of a continuation dropped); leaves are characters
    def check(item):
        token = item.data(0, Qt.ItemDataRole.UserRole)
        if item.childCount():
            left, right = (item.child(i).data(0, Qt.ItemDataRole.UserRole) for i in range(2))
            assert left + right.removeprefix("##") == token
            check(item.child(0))
            check(item.child(1))
        else:
            assert len(token.removeprefix("##")) == 1

    check(panel.tree.topLevelItem(0))


def test_unigram_shows_scores(panel):
    pieces = [("<unk>", 0.0), ("▁hug", -1.5), ("▁", -2.0), ("h", -3.25)]
    panel.state.set_tokenizer(Tokenizer(Unigram(pieces), pre_tokenizer=Metaspace()))
    assert panel.proxy.headerData(COL_RANK, Qt.Orientation.Horizontal) == "Score"
    assert shown_rows(panel, COL_RANK) == ["0.000", "-1.500", "-2.000", "-3.250"]
    panel.select_token("▁hug")
    assert "Unigram piece" in panel.tree_title.text() and "-1.500" in panel.tree_title.text()


def test_byte_level_tokens_are_shown_as_text(panel):
    tok = drain(train_from_counts({"Ġhi": 10, "íķľ": 6}, TrainOptions("bytelevel-bpe", vocab_size=262)))
    panel.state.set_tokenizer(tok)
    panel.search.setText("␣h")  # searching the visible form finds Ġh…
    assert shown_rows(panel) and all(t.startswith("␣h") for t in shown_rows(panel))
    panel.search.setText("한")
    assert any("한" in t for t in shown_rows(panel))


def test_the_vocabulary_follows_the_token_at_the_segmentation_cursor(qtbot, hug_bpe):
    from subword_gui.panels.segmentation import SegmentationPanel

    state = AppState()
    seg, voc = SegmentationPanel(state), VocabularyPanel(state)
    for w in (seg, voc):
        qtbot.addWidget(w)
        w.show()
    state.set_tokenizer(hug_bpe)
    seg.set_text("pug hugs")
    cursor = seg.editor.textCursor()
    cursor.setPosition(5)  # inside hug
    seg.editor.setTextCursor(cursor)
    qtbot.waitUntil(lambda: voc.selected_token() == "hug", timeout=2000)
    assert voc.tree_text()[0] == "hug  #3"
    cursor.setPosition(1)  # inside p|ug: on ug
    seg.editor.setTextCursor(cursor)
    qtbot.waitUntil(lambda: voc.selected_token() == "ug", timeout=2000)


def test_frequencies_wait_while_the_panel_is_hidden(qtbot, hug_bpe):
    panel = VocabularyPanel(AppState())
    qtbot.addWidget(panel)
    from subword_gui.background.jobs import truncate_tokenizer

    panel.state.set_corpus(count_lines(["hugs bug mug", "hug"]))
    panel.state.set_tokenizer(truncate_tokenizer(hug_bpe, 9))
    panel.state.set_tokenizer(hug_bpe)
    assert not panel.frequencies.running()
    assert panel.model.tokenizer is None  # hidden: not even the table is rebuilt
    panel.show()
    assert panel.model.tokenizer is hug_bpe and panel.model.total() == 11  # the latest, once shown
    qtbot.waitUntil(
        lambda: dict(zip(shown_rows(panel), shown_rows(panel, COL_FREQ)))["hug"] == "2", timeout=5000
    )


@pytest.mark.parametrize("what", ["model", "panel"])
def test_a_frequency_run_stops_when_its_model_or_panel_is_destroyed(qtbot, hug_bpe, what):
    """Teardown mid-count: no slice may call into the deleted VocabModel afterwards."""
    import shiboken6

    from tests.gui.conftest import make_lines

    panel = VocabularyPanel(AppState())
    panel.show()
    panel.state.set_corpus(count_lines(make_lines(3000)))
    panel.state.set_tokenizer(hug_bpe)
    freq = panel.frequencies
    assert freq.running()
    if what == "model":
        shiboken6.delete(panel.model)
    else:
        panel.close()
        shiboken6.delete(panel)
    assert not freq.running()
    freq.finish_now()  # nothing left to run: would call set_frequencies on the deleted model
    qtbot.wait(50)  # and no queued slice does either (pytest-qt fails on an exception in a slot)


def test_the_unknown_token_is_named_and_shown_in_the_side_label(panel, hug_bpe):
    panel.state.set_tokenizer(hug_bpe)
    panel.select_token("<unk>")
    label = panel.tree_title.text()
    assert "&lt;unk&gt;" in label  # escaped: rich text would swallow <unk> as a tag
    assert "unknown token" in label and "alphabet" not in label


def test_byte_level_merged_tokens_count_their_uses_after_a_space(panel):
    """A byte-level model learns Ġwords from running text; the corpus's words are counted
    bare, so they must be encoded as they occur (after a space) to meet those tokens."""
    from core.options import pre_tokenize_lines

    lines = ["the words are words and more words here"] * 11
    opts = TrainOptions("bytelevel-bpe", vocab_size=300)
    tok = drain(train_from_counts(pre_tokenize_lines(lines, opts), opts))
    assert "Ġwords" in tok.get_vocab()
    panel.state.set_corpus(count_lines(lines))
    panel.state.set_tokenizer(tok)
    panel.frequencies.finish_now()
    freq = dict(zip(shown_rows(panel), shown_rows(panel, COL_FREQ)))
    assert freq["␣words"] == "33"  # 3 a line, 11 lines


def test_a_narrow_panel_stacks_the_merge_tree_under_the_table(qtbot, panel):
    panel.resize(500, 700)
    qtbot.waitUntil(lambda: panel.splitter.orientation() == Qt.Orientation.Vertical, timeout=2000)
    assert panel.table.columnWidth(COL_TOKEN) >= 80  # the tokens themselves stay readable
    panel.resize(1000, 700)
    qtbot.waitUntil(lambda: panel.splitter.orientation() == Qt.Orientation.Horizontal, timeout=2000)


def test_special_tokens_have_no_length_and_sort_apart(panel, hug_bpe):
    """``<unk>`` stands for no text of its own: its Length is a dash (the tooltip says why), not
    the 5 characters of its spelling, and sorting by Length still orders the real tokens."""
    panel.state.set_tokenizer(hug_bpe)
    unk_row = shown_rows(panel).index("<unk>")
    assert panel.proxy.index(unk_row, COL_LENGTH).data() == "—"
    tip = panel.proxy.index(unk_row, COL_LENGTH).data(Qt.ItemDataRole.ToolTipRole)
    assert "special token" in tip
    hug_row = shown_rows(panel).index("hug")
    assert panel.proxy.index(hug_row, COL_LENGTH).data(Qt.ItemDataRole.ToolTipRole) is None
    panel.table.sortByColumn(COL_LENGTH, Qt.SortOrder.DescendingOrder)
    tokens, lengths = shown_rows(panel), shown_rows(panel, COL_LENGTH)
    assert tokens[0] == "hug" and tokens[-1] == "<unk>"
    assert lengths[:-1] == sorted(lengths[:-1], key=int, reverse=True)
    panel.table.sortByColumn(COL_LENGTH, Qt.SortOrder.AscendingOrder)
    assert shown_rows(panel)[0] == "<unk>" and shown_rows(panel)[-1] == "hug"


def test_an_opened_wordpiece_vocabulary_still_names_its_unknown_token(panel):
    """Without merges (a vocab.txt opened from a file) every token read "carries no merges",
    the unknown token included, and in English under the Korean interface."""
    tok = drain(train_from_counts(HUG_PUG, TrainOptions("wordpiece", vocab_size=14)))
    panel.state.set_full_tokenizer(tok, None, [])
    assert panel.select_token(tok.model.unk_token)
    assert "unknown token" in panel.tree_title.text()
    assert panel.select_token("h")
    assert "carries no merges" in panel.tree_title.text()


def _choose_hygiene(qtbot, panel, key: str) -> None:
    panel.hygiene.setCurrentIndex(panel.hygiene.findData(key))
    qtbot.waitUntil(lambda: panel.hygiene_job is not None, timeout=5000)
    qtbot.waitUntil(lambda: panel.hygiene_ids() is not None, timeout=60_000)


def tinted(panel) -> list[str]:
    model = panel.model
    model.fetch_all()
    return sorted(
        model.entry(r)[1]
        for r in range(model.rowCount())
        if model.data(model.index(r, COL_ID), Qt.ItemDataRole.BackgroundRole) is not None
    )


def test_a_hygiene_list_tints_its_tokens_and_can_be_listed_alone(qtbot, panel, hug_bpe):
    from core.measures import vocabulary_hygiene

    panel.state.set_corpus(count_lines(["hug"]))  # the corpus uses one token: hug
    panel.state.set_tokenizer(hug_bpe)
    panel.frequencies.finish_now()
    assert tinted(panel) == []
    _choose_hygiene(qtbot, panel, "intermediate_only")
    # unused, and a part of a merge (u+g, u+n, h+ug): a step towards other tokens (PickyBPE)
    assert tinted(panel) == ["g", "h", "n", "u", "ug"]
    assert "5 of 11 tokens tinted" in panel.count.text()
    panel.only_marked.setChecked(True)
    assert sorted(shown_rows(panel)) == ["g", "h", "n", "u", "ug"]
    # another list: the panel shows the engine's list for the same tokenizer and uses
    panel.hygiene.setCurrentIndex(panel.hygiene.findData("unused"))
    expected = vocabulary_hygiene(hug_bpe, panel.model.frequencies)
    assert tinted(panel) == sorted(hug_bpe.id_to_token(i) for i in expected.unused)
    assert "hug" not in tinted(panel) and len(shown_rows(panel)) == len(expected.unused)
    # none: no tint, every row again
    panel.hygiene.setCurrentIndex(panel.hygiene.findData(""))
    assert tinted(panel) == [] and len(shown_rows(panel)) == 11
    assert not panel.only_marked.isEnabled()


def test_byte_pieces_of_a_byte_level_model_are_tinted(qtbot, panel):
    from core.measures import vocabulary_hygiene

    options = TrainOptions("bytelevel-bpe", vocab_size=300, pre_tokenizer="bytelevel")
    tok = drain(train_from_counts({"철수는": 5, "hug": 3}, options))
    panel.state.set_tokenizer(tok)
    _choose_hygiene(qtbot, panel, "pieces")
    expected = vocabulary_hygiene(tok)
    ids = sorted(set(expected.byte_pieces) | set(expected.control_pieces))
    assert len(ids) > 100  # the byte alphabet beyond ASCII: bytes of a character
    assert tinted(panel) == sorted(tok.id_to_token(i) for i in ids)
