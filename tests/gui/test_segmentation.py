"""The Segmentation panel driven like a user: type, look at the spans, hover, read the why view.

Spans are checked on what Qt will paint: the formats the highlighter put on
each text block (``block.layout().formats()``), in Qt's UTF-16 positions.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QEvent, QPoint
from PySide6.QtGui import QHelpEvent, QInputMethodEvent, QTextCharFormat, QTextDocument
from PySide6.QtWidgets import QApplication, QToolTip

from core.events import drain
from core.models.unigram.model import Unigram
from core.options import TrainOptions, pre_tokenize_lines
from core.pre_tokenizers import Metaspace
from core.tokenizer import Tokenizer
from core.training import train_from_counts
from subword_gui.panels.segmentation import SegmentationPanel
from subword_gui.state import AppState
from subword_gui.tokens import palette
from tests.gui.conftest import place_cursor

HUG_PUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
KO_EN_LINES = [
    "토크나이저는 문장을 작은 조각으로 나눕니다",
    "영화가 정말 재미있었어요 배우들의 연기가 좋았어요",
    "이 영화는 정말 최고의 영화입니다",
    "the tokenizer cuts the text into pieces",
    "pieces of text are tokens and the tokens have ids",
] * 5


@pytest.fixture(scope="module")
def hug_bpe():
    return drain(train_from_counts(HUG_PUG, TrainOptions("bpe", vocab_size=11)))


@pytest.fixture(scope="module")
def ko_bpe():
    opts = TrainOptions("bpe", vocab_size=160)
    return drain(train_from_counts(pre_tokenize_lines(KO_EN_LINES, opts), opts))


@pytest.fixture
def panel(qtbot):
    state = AppState()
    panel = SegmentationPanel(state)
    qtbot.addWidget(panel)
    panel.resize(800, 700)
    panel.show()
    return panel


def block_formats(panel, line: int):
    """``[(start, end, QTextCharFormat)]`` painted on one line, in Qt positions."""
    block = panel.editor.document().findBlockByNumber(line)
    ranges = [(r.start, r.start + r.length, QTextCharFormat(r.format)) for r in block.layout().formats()]
    return sorted(ranges, key=lambda r: r[0])


def format_at(panel, line: int, qt_pos: int) -> QTextCharFormat | None:
    found = None
    for s, e, fmt in block_formats(panel, line):
        if s <= qt_pos < e:
            found = fmt  # later ranges win, as when painting
    return found


def type_keys(qtbot, widget, text: str) -> None:
    """Type ``text`` as a user would: ASCII as key presses, anything else the way an
    input method (the Korean IME) delivers it, as a committed string.
    (QTest.keyClicks aborts on non-ASCII characters.)"""
    for ch in text:
        if ch.isascii():
            qtbot.keyClicks(widget, ch)
        else:
            event = QInputMethodEvent("", [])
            event.setCommitString(ch)
            QApplication.sendEvent(widget, event)


def type_text(qtbot, panel, text: str) -> None:
    panel.editor.clear()
    panel.editor.setFocus()
    type_keys(qtbot, panel.editor, text)
    panel.refresh()


def test_typed_korean_and_english_are_coloured_token_by_token(qtbot, panel, ko_bpe):
    panel.state.set_tokenizer(ko_bpe)
    text = "정말 재미있는 영화 the tokens"
    type_text(qtbot, panel, text)
    assert panel.text() == text
    (line,) = panel.lines()
    enc = line.encoding
    assert enc.tokens == ko_bpe.encode(text).tokens
    assert len(enc.tokens) >= 6
    colours = []
    for (s, e), token in zip(enc.offsets, enc.tokens):
        # no normalizer: each token's text is exactly the original text under its span
        assert text[s:e] == token
        fmts = {format_at(panel, 0, p).background().color().name() for p in range(s, e)}
        assert len(fmts) == 1, f"token {token!r} is painted in more than one colour"
        colours.append(fmts.pop())
    for ca, cb in zip(colours, colours[1:]):
        assert ca != cb, "neighbouring tokens share a colour"
    # spaces belong to no token and stay unpainted
    assert format_at(panel, 0, text.index(" ")) is None
    # counts follow the text
    assert panel.stats.tokens == len(enc.tokens)
    assert panel.stats.characters == len(text)
    assert f"{len(enc.tokens)}" in panel.counts.text()
    # the strip has one chip per token, captioned with its id
    assert [c.caption for c in panel.strip.chips()] == [str(i) for i in enc.ids]


def test_the_same_token_twice_in_a_row_gets_two_colours(panel, hug_bpe):
    panel.state.set_tokenizer(hug_bpe)
    panel.set_text("ugug")
    enc = panel.lines()[0].encoding
    assert enc.tokens == ["ug", "ug"]
    first, second = format_at(panel, 0, 0), format_at(panel, 0, 2)
    assert first.background().color() != second.background().color()


def test_a_token_keeps_its_colour_when_text_is_typed_before_it(qtbot, panel, ko_bpe):
    panel.state.set_tokenizer(ko_bpe)
    panel.set_text("영화 tokens")
    before = format_at(panel, 0, 0).background().color().name()
    place_cursor(panel, 0)
    type_keys(qtbot, panel.editor, "the ")
    panel.refresh()
    assert panel.text() == "the 영화 tokens"
    assert format_at(panel, 0, 4).background().color().name() == before


def test_unknown_tokens_and_only_they_are_loud(panel, ko_bpe):
    panel.state.set_tokenizer(ko_bpe)
    text = "영화 zebra 가방 tokens"  # z, b, 방 never occur in the training lines
    panel.set_text(text)
    (line,) = panel.lines()
    enc = line.encoding
    unk = ko_bpe.token_to_id("<unk>")
    assert unk in enc.ids and any(i != unk for i in enc.ids)
    for (s, _e), tid in zip(enc.offsets, enc.ids):
        fmt = format_at(panel, 0, s)
        wavy = fmt.underlineStyle() == QTextCharFormat.UnderlineStyle.WaveUnderline
        assert wavy == (tid == unk)
        assert (fmt.fontWeight() >= 700) == (tid == unk)
    assert panel.stats.unknown == enc.ids.count(unk)
    unknown_chips = [c.unknown for c in panel.strip.chips()]
    assert unknown_chips == [i == unk for i in enc.ids]


def test_emoji_before_korean_keeps_spans_aligned(panel, ko_bpe):
    # subtle: Qt positions count an emoji twice (UTF-16), Python once.
    panel.state.set_tokenizer(ko_bpe)
    text = "👍영화 👍the"
    panel.set_text(text)
    (line,) = panel.lines()
    enc = line.encoding
    unk = ko_bpe.token_to_id("<unk>")

    def qt(i: int) -> int:
        return len(text[:i].encode("utf-16-le")) // 2

    for (s, e), tid, chip in zip(enc.offsets, enc.ids, panel.strip.chips()):
        for q in range(qt(s), qt(e)):
            fmt = format_at(panel, 0, q)
            assert fmt is not None, f"Qt position {q} of {text[s:e]!r} is unpainted"
            if tid == unk:
                assert fmt.underlineStyle() == QTextCharFormat.UnderlineStyle.WaveUnderline
            else:
                assert fmt.background().color().name() == chip.background.name()


def test_characters_the_normalizer_removed_are_struck_through(panel):
    opts = TrainOptions("wordpiece", vocab_size=40, normalizer="bert")
    wp = drain(train_from_counts(pre_tokenize_lines(["cafe cafes face"] * 3, opts), opts))
    panel.state.set_tokenizer(wp)
    text = "Cafe\u0301 face"  # the combining accent is stripped by BERT's normalizer
    panel.set_text(text)
    assert panel.lines()[0].dropped == [4]
    assert format_at(panel, 0, 4).fontStrikeOut()
    assert not format_at(panel, 0, 0).fontStrikeOut()
    assert "removed" in panel.tooltip_for(0, 4)


def test_hover_shows_token_id_offsets_bytes_and_merge(qtbot, panel, hug_bpe):
    panel.state.set_tokenizer(hug_bpe)
    panel.set_text("pug hugs")
    tip = panel.tooltip_for(0, 5)  # the 'u' of hugs, inside the token hug
    assert "hug" in tip
    assert str(hug_bpe.token_to_id("hug")) in tip
    assert "4–7" in tip  # offsets of hug in "pug hugs"
    assert "68 75 67" in tip  # UTF-8 of "hug"
    assert "merge #3: h + ug" in tip
    # and Qt shows it when the mouse rests there
    cursor = panel.editor.textCursor()
    cursor.setPosition(5)
    rect = panel.editor.cursorRect(cursor)
    pos = QPoint(rect.x() + 3, rect.center().y())
    viewport = panel.editor.viewport()
    event = QHelpEvent(QEvent.Type.ToolTip, pos, viewport.mapToGlobal(pos))
    QApplication.sendEvent(viewport, event)
    assert "merge #3: h + ug" in QToolTip.text()
    # a base token says so; the chip strip answers the same question
    assert "base token" in panel.tooltip_for(0, 0)
    assert "merge #3" in panel.strip.tooltip_at(2)


def test_korean_tooltip_bytes(panel, ko_bpe):
    panel.state.set_tokenizer(ko_bpe)
    panel.set_text("영화")
    tip = panel.tooltip_for(0, 0)
    token = panel.lines()[0].encoding.tokens[0]
    assert token.encode("utf-8").hex(" ").upper() in tip


def test_why_view_lists_bpe_merges_in_rank_order(qtbot, panel, hug_bpe):
    panel.state.set_tokenizer(hug_bpe)
    panel.set_text("pug hugs")
    place_cursor(panel, 6)
    # the strip outlines the token at the cursor (hug, the third chip), and the why view
    # follows once the cursor rests
    qtbot.waitUntil(lambda: panel.strip.current() == 2 and panel.why.piece == "hugs", timeout=2000)
    # hand-worked: u+g is merge 1, h+ug merge 3; u+n (merge 2) does not apply
    assert panel.why.steps_text() == "h u g s | #1 u + g → h ug s | #3 h + ug → hug s"
    assert panel.strip.chips()[panel.strip.current()].caption == str(hug_bpe.token_to_id("hug"))


def test_why_view_says_which_characters_bpe_never_saw(qtbot, panel, hug_bpe):
    panel.state.set_tokenizer(hug_bpe)
    panel.set_text("mug 세계")
    place_cursor(panel, 5)
    qtbot.waitUntil(lambda: panel.why.piece == "세계", timeout=2000)
    assert panel.why.steps_text().endswith("unknown: 세, 계")
    place_cursor(panel, 1)
    qtbot.waitUntil(lambda: panel.why.piece == "mug", timeout=2000)
    assert panel.why.steps_text().endswith("unknown: m")  # u + g still merge
    assert "#1 u + g" in panel.why.steps_text()


def _visual_x(doc, position: int) -> float:
    """Where the character at ``position`` of ``doc`` is drawn: its glyphs' centre, in pixels
    from the left (a cursor's x is no measure: at the edge of a right-to-left run Qt puts it at
    either end)."""
    block = doc.findBlock(position)
    runs = block.layout().glyphRuns(position - block.position(), 1)
    assert runs  # laid out and drawn
    return min(run.boundingRect().center().x() for run in runs)


def test_why_view_keeps_right_to_left_symbols_in_reading_order(qtbot, panel, hug_bpe):
    """Arabic pasted in the real window: the why view's chips read "٣ ٢ ١" for "١٢٣", and the
    unknown list "٣ ,٢ ,١": the bidirectional algorithm gave the spaces and commas between
    them to the right-to-left run. Each symbol now stands where it is read: first on the left."""
    panel.state.set_tokenizer(hug_bpe)
    word = "سلم"  # three letters training never saw, each its own chip
    panel.set_text(word)
    place_cursor(panel, 1)
    qtbot.waitUntil(lambda: panel.why.piece == word, timeout=2000)
    doc = panel.why.steps.document()
    text = doc.toPlainText()
    assert text.count(word[0]) == 2  # a chip of the start row and an item of the unknown list
    for occurrence in (0, 1):  # the chips, then the list
        places = []
        for letter in word:
            at = -1
            for _ in range(occurrence + 1):
                at = text.index(letter, at + 1)
            places.append(_visual_x(doc, at))
        assert places == sorted(places), (occurrence, places)
    # a merge's operands: "#1 س + ل → سل" read "#1 سل → ل + س"
    arabic = drain(train_from_counts({"سلم": 5, "سل": 3}, TrainOptions("bpe", vocab_size=5)))
    panel.state.set_tokenizer(arabic)
    panel.set_text("سل")
    qtbot.waitUntil(lambda: panel.why.piece == "سل", timeout=2000)
    assert panel.why.steps_text().endswith("#1 س + ل → سل")
    text = panel.why.steps.document().toPlainText()
    row = text.index("#1")
    left, right = text.index("س", row), text.index("ل", row)
    assert _visual_x(panel.why.steps.document(), left) < _visual_x(panel.why.steps.document(), right)
    # the title's final tokens: "Why سلم → سل م" read "… → م سل"
    panel.set_text(word)
    qtbot.waitUntil(lambda: panel.why.piece == word, timeout=2000)
    title = QTextDocument()
    title.setHtml(panel.why.title.text())
    title.setTextWidth(2000)
    title.size()  # lays it out
    text = title.toPlainText()
    arrow = text.index("→")
    assert text[arrow:].replace("\u200e", "").split() == ["→", "سل", "م"]
    assert _visual_x(title, text.index("سل", arrow)) < _visual_x(title, text.index("م", arrow))


def test_why_view_shows_wordpiece_greedy_matches_and_the_unknown_word(qtbot, panel):
    opts = TrainOptions("wordpiece", vocab_size=14)
    wp = drain(train_from_counts(HUG_PUG, opts))
    vocab = wp.get_vocab()
    panel.state.set_tokenizer(wp)
    panel.set_text("bugs mug")
    place_cursor(panel, 1)
    qtbot.waitUntil(lambda: panel.why.piece == "bugs", timeout=2000)
    steps = panel.why.steps_text()
    # greedy longest match first, worked from the vocabulary: b, then the longest ##-entry at 1
    assert steps.startswith("0-1: b | 1-")
    assert panel.why.kind == "wordpiece"
    # how many longer candidates the matcher tried first, counted from the vocabulary
    from subword_gui.tokens.why_view import _longer_misses

    assert _longer_misses(wp.model, "bugs", 0, 1) == sum(
        wp.token_to_id(c) is None for c in ("bugs", "bug", "bu")
    )
    assert "##ug" in vocab and "##ugs" not in vocab
    assert _longer_misses(wp.model, "bugs", 1, 3) == 1  # ##ugs, then ##ug matches
    place_cursor(panel, 6)
    qtbot.waitUntil(lambda: panel.why.piece == "mug", timeout=2000)
    assert "m" not in vocab
    assert panel.why.steps_text() == "0: no match | → [UNK]"


def test_the_lattice_has_room_for_an_unknown_characters_label(qtbot, panel):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFont, QFontMetrics

    tok = Tokenizer(
        Unigram([("<unk>", 0.0), ("▁", -2.0), ("u", -4.0), ("n", -4.0)]), pre_tokenizer=Metaspace()
    )
    panel.state.set_tokenizer(tok)
    panel.set_text("un한")
    place_cursor(panel, 1)
    qtbot.waitUntil(lambda: panel.why.kind == "unigram", timeout=2000)
    view = panel.why.lattice_view
    assert "<unk>" in [n.piece for n in view.best]
    bold = QFont(view.font())
    bold.setBold(True)
    shown = QFontMetrics(bold).elidedText("<unk>", Qt.TextElideMode.ElideRight, view._cell - 8)
    assert shown == "<unk>"  # as _box draws it: the box is the cell less 4, the label less 4 more


def test_why_view_draws_the_unigram_lattice_with_its_best_path(qtbot, panel):
    pieces = [
        ("<unk>", 0.0),
        ("▁", -2.0),
        ("▁un", -3.0),
        ("un", -3.5),
        ("hug", -3.0),
        ("▁unhug", -9.0),
        ("u", -4.0),
        ("n", -4.0),
        ("h", -4.0),
        ("g", -4.0),
        ("hu", -5.0),
    ]
    tok = Tokenizer(Unigram(pieces), pre_tokenizer=Metaspace())
    panel.state.set_tokenizer(tok)
    panel.set_text("unhug")
    place_cursor(panel, 2)
    qtbot.waitUntil(lambda: panel.why.piece == "▁unhug", timeout=2000)
    assert panel.why.kind == "unigram"
    view = panel.why.lattice_view
    # by hand: ▁un + hug = -6 beats ▁unhug (-9), ▁ + un + hug (-8.5) and everything else
    assert [n.piece for n in view.best] == ["▁un", "hug"]
    drawn = {n.piece for row in view.rows for n in row} | {n.piece for n in view.best}
    assert {"▁unhug", "hu", "un", "▁"} <= drawn
    assert panel.why.steps_text().startswith("best path: ▁un hug | 1. ▁un hug (-6.00) | 2. ")
    # sampled segmentations cover the word, piece by piece
    samples = [
        p.removeprefix("sample: ") for p in panel.why.steps_text().split(" | ") if p.startswith("sample: ")
    ]
    assert len(samples) == 3 and all(s.replace(" ", "") == "▁unhug" for s in samples)


def test_slider_cut_changes_the_spans(panel, hug_bpe):
    panel.state.set_tokenizer(hug_bpe)
    panel.set_text("hugs")
    assert panel.lines()[0].encoding.tokens == ["hug", "s"]
    cut = Tokenizer(hug_bpe.model.truncated(9), pre_tokenizer=hug_bpe.pre_tokenizer)
    panel.state.set_tokenizer(cut, 9)
    assert panel.lines()[0].encoding.tokens == ["h", "ug", "s"]
    assert len(block_formats(panel, 0)) == 3


def test_clicking_a_chip_selects_its_text(qtbot, panel, hug_bpe):
    panel.state.set_tokenizer(hug_bpe)
    panel.set_text("pug hugs")
    rect = panel.strip.chip_rect(2)
    from PySide6.QtCore import Qt

    qtbot.mouseClick(panel.strip, Qt.MouseButton.LeftButton, pos=rect.center())
    assert panel.editor.textCursor().selectedText() == "hug"


def test_without_a_tokenizer_the_panel_says_what_to_do(panel):
    assert panel.state.tokenizer is None
    assert "tokenizer" in panel.counts.text()
    assert panel.strip.chips() == []


@pytest.mark.parametrize("algorithm", ["bpe", "bytelevel-bpe", "wordpiece", "unigram-metaspace"])
def test_long_lines_encoded_in_chunks_equal_the_whole_encoding(algorithm, ko_bpe):
    """Long lines are encoded chunk by chunk (cut at single spaces) for speed; the result
    must be exactly the tokenizer's own encoding of the whole line."""
    from subword_gui.tokens.token_view import CHUNK_MIN_LINE, LineCache, chunkable

    if algorithm == "unigram-metaspace":
        pieces = [("<unk>", 0.0), ("▁", -2.0)] + [(c, -3.0) for c in set("".join(KO_EN_LINES)) if c != " "]
        pieces += [("▁영화", -2.5), ("▁the", -2.0), ("정말", -2.5), ("▁tokens", -3.0)]
        tok = Tokenizer(Unigram(pieces), pre_tokenizer=Metaspace())
    elif algorithm == "bpe":
        tok = ko_bpe
    else:
        opts = TrainOptions(
            algorithm,
            vocab_size=400 if algorithm == "bytelevel-bpe" else 120,
            normalizer="bert" if algorithm == "wordpiece" else None,
        )
        tok = drain(train_from_counts(pre_tokenize_lines(KO_EN_LINES, opts), opts))
    assert chunkable(tok)
    text = " ".join(KO_EN_LINES) + "  double  spaces, Zebra! 가방…"
    assert len(text) > CHUNK_MIN_LINE
    cache = LineCache()
    cache.set_tokenizer(tok)
    line = cache.get(text)
    whole = tok.encode(text)
    assert line.encoding.ids == whole.ids
    assert line.encoding.offsets == whole.offsets
    assert line.encoding.word_ids == whole.word_ids
    # an edit in the middle reuses the other chunks and is still exact
    edited = text[:300] + "새" + text[300:]
    assert cache.get(edited).encoding.ids == tok.encode(edited).ids
    assert cache.get(edited).encoding.offsets == tok.encode(edited).offsets


def test_a_character_split_across_byte_tokens_is_marked_and_explained(panel):
    # byte-level BPE that never merged the bytes of 한: three byte tokens share the one syllable
    tok = drain(train_from_counts({"Ġhi": 10}, TrainOptions("bytelevel-bpe", vocab_size=258)))
    panel.state.set_tokenizer(tok)
    panel.set_text("한")
    enc = panel.lines()[0].encoding
    assert enc.offsets == [(0, 0), (0, 0), (0, 1)]  # spans never overlap: the last piece owns 한
    fmt = format_at(panel, 0, 0)
    assert fmt.underlineStyle() == QTextCharFormat.UnderlineStyle.DotLine
    tip = panel.tooltip_for(0, 0)
    assert "split across 3 tokens" in tip
    for byte in ("ED", "95", "9C"):  # the UTF-8 bytes of 한, one per token
        assert f"⟨{byte}⟩" in tip
    assert [list(c.parts) for c in panel.strip.chips()] == [
        [("⟨ED⟩", "byte")],
        [("⟨95⟩", "byte")],
        [("⟨9C⟩", "byte")],
    ]


def test_alt_arrows_walk_token_by_token(qtbot, panel, hug_bpe):
    from PySide6.QtCore import Qt

    panel.state.set_tokenizer(hug_bpe)
    panel.set_text("pug hugs")  # p ug | hug s
    place_cursor(panel, 0)
    panel.editor.setFocus()
    seen = []
    for _ in range(4):
        qtbot.keyClick(panel.editor, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
        seen.append(panel.editor.textCursor().position())
    assert seen == [1, 4, 7, 7]  # ug, hug, s, and no further
    qtbot.keyClick(panel.editor, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert panel.editor.textCursor().position() == 4
    qtbot.waitUntil(lambda: panel.why.piece == "hugs", timeout=2000)


def test_a_pasted_book_keeps_the_strip_bounded(panel, hug_bpe, monkeypatch):
    from subword_gui.panels import segmentation

    monkeypatch.setattr(segmentation, "STRIP_LIMIT", 50)
    panel.state.set_tokenizer(hug_bpe)
    panel.set_text("hugs pug " * 40)  # hug s p ug, 40 times
    assert panel.stats.tokens == 160  # counted in full
    assert len(panel.strip.chips()) == 51  # and a last one saying how many more
    assert panel.strip.chips()[-1].caption == "+110"
    assert "110 more tokens" in panel.strip.tooltip_at(50)
    place_cursor(panel, len(panel.text()) - 2)  # a token beyond the strip
    panel._show_current_chip()
    assert panel.strip.current() == -1


def test_an_emoji_cut_by_a_token_boundary_is_painted_as_one_character(panel):
    """👋🏽 is two code points; a character-level model cuts it in two tokens. Qt shapes each
    format run on its own, so both halves must share one run to draw as one emoji."""
    tok = drain(train_from_counts({"hi": 5, "👋🏽": 1}, TrainOptions("bpe", vocab_size=5)))
    panel.state.set_tokenizer(tok)
    panel.set_text("hi 👋🏽")
    enc = panel.lines()[0].encoding
    assert enc.tokens[-2:] == ["👋", "🏽"]  # the model does split it
    first, second = format_at(panel, 0, 3), format_at(panel, 0, 5)  # UTF-16: 👋 is 3-4, 🏽 5-6
    assert first.background().color() == second.background().color()
    assert first.underlineStyle() == QTextCharFormat.UnderlineStyle.DotLine
    # hovering either half explains both tokens
    assert "split across 2 tokens" in panel.tooltip_for(0, 4)


def test_no_colour_run_ends_inside_an_emoji_after_a_metaspace(tmp_path):
    """Unigram with Metaspace gives ``▁`` an empty span at the word's first character, which
    is then marked as split; for 👨‍👩‍👧 (five code points) that mark must cover the whole
    cluster, or Qt draws 👨 apart from the rest."""
    from core.corpus import count_words
    from subword_gui.tokens.token_view import segment_line, span_formats

    corpus = tmp_path / "c.txt"
    corpus.write_text("hi there hi\nthere hi\n" * 5, encoding="utf-8")
    options = TrainOptions("unigram", vocab_size=20, pre_tokenizer="metaspace")
    tok = drain(train_from_counts(drain(count_words(corpus, options, workers=1)).words, options))
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    line = segment_line(tok, family)  # at the start: the ▁ Metaspace adds has no span of its own
    assert line.encoding.offsets[0] == (0, 0)
    cluster = range(1, len(family))  # positions strictly inside the emoji
    runs = span_formats(line)
    assert any(s == 0 and n >= len(family) for s, n, _ in runs)  # it is coloured
    assert not [(s, n) for s, n, _ in runs if s in cluster or s + n in cluster]


def test_an_unknown_token_shows_the_bytes_of_the_text_it_stands_for(panel, hug_bpe):
    panel.state.set_tokenizer(hug_bpe)
    panel.set_text("mug")
    assert panel.lines()[0].encoding.tokens[0] == "<unk>"
    tip = panel.tooltip_for(0, 0)
    assert "6D" in tip  # "m"
    assert "3C 75 6E 6B 3E" not in tip  # not the bytes of "<unk>"
    assert "start of the line" in tip  # offsets say what they count from


# -- long lines: encoded off the GUI thread, coloured where in view, explained around the cursor --


def long_korean_word(n: int) -> str:
    """One word of ``n`` Hangul syllables (no space, no punctuation: one pre-token)."""
    syllables = "".join(c for c in "".join(KO_EN_LINES) if "\uac00" <= c <= "\ud7a3")
    return (syllables * (n // len(syllables) + 1))[:n]


def test_a_long_line_is_encoded_in_the_background_and_coloured_where_in_view(qtbot, panel, ko_bpe):
    from PySide6.QtGui import QPalette, QTextOption

    from subword_gui.tokens.token_view import LONG_LINE, TOKEN_INK

    panel.state.set_tokenizer(ko_bpe)
    word = long_korean_word(LONG_LINE + 1000)
    with qtbot.waitSignal(panel.segmented, timeout=30_000):
        panel.set_text(word)
        # set_text returned before the word was encoded: the counts say what is happening
        assert panel.busy()
        assert "Segmenting" in panel.counts.text()
    assert not panel.busy()
    (line,) = panel.lines()
    assert line.encoding.ids == ko_bpe.encode(word).ids
    assert panel.stats.tokens == len(line.encoding.ids)
    # a word without a boundary to wrap at wraps anywhere (Qt's boundary search is the slow part)
    assert panel.editor.wordWrapMode() == QTextOption.WrapMode.WrapAnywhere
    # the highlighter leaves the line alone; the part in view only is coloured: plain tokens'
    # backgrounds painted by the editor (its text in their ink), the rest as extra selections
    assert block_formats(panel, 0) == []
    runs = coloured_in_view(panel)
    assert len(runs) > 50
    assert max(e for s, e, colour in runs) < len(word) // 2
    for s, e, colour in runs[:50]:
        (i,) = line.covering(s)
        assert line.encoding.offsets[i] == (s, e)
        assert colour == palette.colour_of(line.keys[i])
    assert panel.editor.palette().color(QPalette.ColorRole.Text) == TOKEN_INK
    # scrolling to the end colours the end
    panel.editor.verticalScrollBar().setValue(panel.editor.verticalScrollBar().maximum())
    qtbot.waitUntil(lambda: max(e for s, e, colour in coloured_in_view(panel)) == len(word), timeout=5000)
    # a short text again: word-boundary wrapping, nothing painted over, the highlighter colours it
    panel.set_text("정말 재미있는 영화")
    assert panel.editor.wordWrapMode() == QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
    assert coloured_in_view(panel) == []
    assert panel.editor.palette().color(QPalette.ColorRole.Text) != TOKEN_INK
    assert block_formats(panel, 0)


def coloured_in_view(panel) -> list[tuple[int, int, object]]:
    """``(start, end, background)`` of what colours a long line: painted runs and extra selections."""
    runs = [(c.selectionStart(), c.selectionEnd(), colour) for c, colour in panel.editor.token_backgrounds()]
    runs += [
        (sel.cursor.selectionStart(), sel.cursor.selectionEnd(), sel.format.background().color())
        for sel in panel.editor.extraSelections()
    ]
    return sorted(runs, key=lambda r: (r[0], r[1]))


def test_typing_in_a_long_word_keeps_the_strip_until_the_new_tokens_land(qtbot, panel, ko_bpe):
    from subword_gui.tokens.token_view import LONG_LINE

    panel.state.set_tokenizer(ko_bpe)
    word = long_korean_word(LONG_LINE + 500)
    with qtbot.waitSignal(panel.segmented, timeout=30_000):
        panel.set_text(word)
    chips_before = panel.strip.chips()
    place_cursor(panel, len(word) // 2)
    with qtbot.waitSignal(panel.segmented, timeout=30_000):
        type_keys(qtbot, panel.editor, "영")
        panel.refresh()
        assert panel.strip.chips() is chips_before  # not emptied while the word is re-encoded
        assert panel._chip_tooltip(0)  # and its tooltips still answer
    edited = word[: len(word) // 2] + "영" + word[len(word) // 2 :]
    assert panel.text() == edited
    assert panel.lines()[0].encoding.ids == ko_bpe.encode(edited).ids


def test_the_why_view_of_a_long_word_lists_the_tokens_around_the_cursor_and_says_it_stops(
    qtbot, panel, ko_bpe
):
    from subword_gui.panels.segmentation import WHY_MAX_CHARS, WHY_WINDOW_TOKENS

    panel.state.set_tokenizer(ko_bpe)
    word = long_korean_word(WHY_MAX_CHARS * 20)
    panel.set_text(word)
    line = panel.lines()[0]
    middle = len(line.encoding.ids) // 2
    place_cursor(panel, line.encoding.offsets[middle][0])
    panel.explain_at_cursor()
    shown = panel.why.steps.toPlainText()
    assert f"{len(word):,} characters long" in shown
    assert f"up to {WHY_MAX_CHARS} characters" in shown
    listed = [tuple(int(x.replace(",", "")) for x in m) for m in re.findall(r"([\d,]+)–([\d,]+)", shown)]
    assert line.encoding.offsets[middle] in listed
    assert len(listed) == 2 * WHY_WINDOW_TOKENS + 1
    assert listed == line.encoding.offsets[middle - WHY_WINDOW_TOKENS : middle + WHY_WINDOW_TOKENS + 1]
    # a short word is still explained merge by merge
    panel.set_text("정말 재미있는 영화")
    place_cursor(panel, 1)
    panel.explain_at_cursor()
    assert panel.why.piece == "정말"


@pytest.mark.parametrize("text", ["한", "hugs pug", "정말 재미있는 영화 the tokens 👋🏽 ok"])
def test_tokens_found_by_bisection_are_those_a_scan_finds(text):
    tok = drain(train_from_counts({"Ġhugs": 10, "Ġpug": 4}, TrainOptions("bytelevel-bpe", vocab_size=262)))
    from subword_gui.tokens.token_view import segment_line

    line = segment_line(tok, text)
    for pos in range(len(text) + 1):
        scanned = [i for i, (s, e) in enumerate(line.encoding.offsets) if s <= pos < e]
        assert line.covering(pos) == scanned
        assert line.token_at(pos) == (scanned[0] if scanned else None)


def test_every_chip_is_found_where_it_is_drawn(panel, ko_bpe):
    panel.state.set_tokenizer(ko_bpe)
    panel.set_text("\n".join(KO_EN_LINES[:8]))
    strip = panel.strip
    assert len(strip.chips()) > 40
    for i in range(len(strip.chips())):
        assert strip.index_at(strip.chip_rect(i).center()) == i
    assert strip.index_at(QPoint(1, 1)) == -1  # the margin


def test_the_line_encoder_encodes_only_the_newest_request_waiting(qtbot, monkeypatch, ko_bpe):
    import threading

    from subword_gui.background import line_encoder

    started = threading.Event()
    release = threading.Event()
    seen = []
    real = line_encoder.segment_line

    def slow_segment_line(tokenizer, text):
        seen.append(text)
        started.set()
        release.wait(10)
        return real(tokenizer, text)

    monkeypatch.setattr(line_encoder, "segment_line", slow_segment_line)
    encoder = line_encoder.LineEncoder()
    got = []
    encoder.encoded.connect(lambda tok, text, line: got.append((text, line.encoding.ids)))
    encoder.request(ko_bpe, "정말", key=0)
    assert started.wait(10)
    for text in ("영화", "배우", "연기"):  # typed while 정말 is being encoded
        encoder.request(ko_bpe, text, key=0)
    release.set()
    qtbot.waitUntil(lambda: len(got) == 2 and not encoder.busy(), timeout=10_000)
    assert seen == ["정말", "연기"]
    assert got == [("정말", ko_bpe.encode("정말").ids), ("연기", ko_bpe.encode("연기").ids)]


def test_the_line_encoder_runs_no_garbage_collection_that_would_freeze_the_window(qtbot, ko_bpe):
    # a collection holds the interpreter lock: on the helper thread, over a long line's
    # hundreds of thousands of objects, it froze the window for 200-600 ms at a time
    import gc
    import sys
    import threading

    from subword_gui.background import line_encoder

    collections = []

    def record(phase, info):
        if phase == "start":
            collections.append(threading.current_thread().name)

    threshold, interval = gc.get_threshold(), sys.getswitchinterval()
    gc.set_threshold(50, 2, 2)  # the collector would run every few hundred allocations
    gc.callbacks.append(record)
    try:
        encoder = line_encoder.LineEncoder()
        got = []
        encoder.encoded.connect(lambda tok, text, line: got.append(line.encoding.ids))
        text = "".join(KO_WORDS_FOR_LONG_LINE) * 400
        encoder.request(ko_bpe, text, key=0)
        qtbot.waitUntil(lambda: bool(got) and not encoder.busy(), timeout=60_000)
    finally:
        gc.callbacks.remove(record)
        gc.set_threshold(*threshold)
    assert got == [ko_bpe.encode(text).ids]
    assert "line-encoder" not in collections
    assert gc.isenabled() and sys.getswitchinterval() == interval  # both as they were


KO_WORDS_FOR_LONG_LINE = ["영화", "정말", "재미", "있었어요", "배우", "연기"]


def test_the_counts_added_up_line_by_line_are_the_engines_counts(ko_bpe, hug_bpe):
    from core.stats import stats_of_encodings
    from subword_gui.tokens.token_view import segment_line, stats_of_lines

    for tok, text in ((ko_bpe, KO_EN_LINES), (hug_bpe, ["hugs mug", "", "pug pug <unk>", "bun"])):
        lines = [segment_line(tok, t) for t in text]
        assert stats_of_lines(tok, lines) == stats_of_encodings(tok, [(ln.text, ln.encoding) for ln in lines])


def test_a_hover_over_a_character_of_many_pieces_explains_a_few_and_says_so(panel):
    # a tokenizer that knows only bytes: 👨‍👩‍👧‍👦 is one character to a reader, seven code
    # points and 25 byte tokens to the model
    tok = drain(train_from_counts({"Ġhi": 10}, TrainOptions("bytelevel-bpe", vocab_size=258)))
    panel.state.set_tokenizer(tok)
    panel.set_text("👨‍👩‍👧‍👦")
    tip = panel.tooltip_for(0, 0)
    assert re.search(r"split across (\d+) tokens", tip) and int(re.search(r"across (\d+)", tip)[1]) > 6
    assert "(the first 6 shown)" in tip
    assert tip.count("<hr>") == 5


def test_a_byte_level_merge_is_spelled_as_every_panel_spells_it():
    from core.events import drain
    from core.options import TrainOptions, pre_tokenize_lines
    from core.training import train_from_counts
    from subword_gui.tokens.render import render_token, style_for
    from subword_gui.tokens.token_view import token_origin

    options = TrainOptions("bytelevel-bpe", vocab_size=300)
    tok = drain(
        train_from_counts(pre_tokenize_lines(["토크나이저 토크나이저 the tokenizer"] * 5, options), options)
    )
    style = style_for(tok)
    model = tok.model
    rank, (left, right) = next(
        (r, m) for r, m in enumerate(model.merges) if render_token(m[0], style) != m[0]
    )
    origin = token_origin(model, left + right, style=style)
    assert origin == f"merge #{rank + 1}: {render_token(left, style)} + {render_token(right, style)}"
    assert left not in origin  # not the raw byte-level string (Ġ, or mojibake for Korean)


def test_a_long_line_keeps_its_shaped_text_between_keystrokes(qtbot, panel, ko_bpe):
    """Qt throws a paragraph's shaping away after each layout unless told to keep it; in a
    100,000-character word the cursor and its drawing then re-shaped the whole word per key."""
    from subword_gui.tokens.token_view import LONG_LINE

    panel.state.set_tokenizer(ko_bpe)
    word = long_korean_word(LONG_LINE + 200)
    with qtbot.waitSignal(panel.segmented, timeout=30_000):
        panel.set_text("짧은 줄\n" + word)
    doc = panel.editor.document()
    assert doc.findBlockByNumber(1).layout().cacheEnabled()
    assert not doc.findBlockByNumber(0).layout().cacheEnabled()  # a short line needs no keeping
    # a pasted long word keeps it from its first layout on
    from PySide6.QtWidgets import QApplication

    QApplication.clipboard().setText(word)
    panel.editor.selectAll()
    panel.editor.paste()
    assert doc.findBlockByNumber(0).layout().cacheEnabled()


def test_strip_chips_drawn_from_cached_pixmaps_look_as_drawn_directly(panel, ko_bpe):
    """The strip copies each chip from a pixmap drawn once; the result must be what drawing
    every chip straight onto the strip gives (up to anti-aliasing rounding)."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter, QPixmapCache

    from subword_gui.tokens.token_view import _PaintContext

    panel.state.set_tokenizer(ko_bpe)
    panel.set_text("토크나이저는 문장을 작은 조각으로 나눕니다 the tokenizer 👋🏽 zq")
    strip = panel.strip
    strip.set_current(-1)
    QPixmapCache.clear()
    cached = strip.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    again = strip.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    assert cached == again  # the second paint came from the cache

    direct = QImage(cached.size(), QImage.Format.Format_RGB32)
    direct.fill(QColor(cached.pixel(1, 1)))  # the strip's own background, where no chip is
    p = QPainter(direct)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    bold = QFont(strip.font())
    bold.setBold(True)
    ctx = _PaintContext(
        strip.font(), bold, strip._caption_font, QFontMetrics(strip.font()), QFontMetrics(strip._caption_font)
    )
    for chip, rect in zip(strip.chips(), strip._rects):
        strip._draw_chip(p, chip, QRect(*rect), ctx)
    p.end()
    assert len(strip.chips()) > 10
    worst = 0
    for y in range(0, cached.height()):
        for x in range(0, cached.width()):
            a, b = cached.pixel(x, y), direct.pixel(x, y)
            if a != b:
                worst = max(worst, *(abs(((a >> s) & 255) - ((b >> s) & 255)) for s in (0, 8, 16)))
    assert worst <= 3


def test_a_long_line_painted_by_the_editor_looks_as_its_extra_selections_did(qtbot, panel, ko_bpe):
    """The editor paints plain tokens' backgrounds itself (Qt's extra selections walk every
    line of the paragraph per token); the pixels must be what those selections drew."""
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QTextEdit

    from subword_gui.tokens.token_view import LONG_LINE, token_format

    panel.state.set_tokenizer(ko_bpe)
    word = long_korean_word(LONG_LINE + 300)
    with qtbot.waitSignal(panel.segmented, timeout=30_000):
        panel.set_text("정말 zq\n" + word)
    editor = panel.editor
    assert len(editor.token_backgrounds()) > 50
    painted = editor.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)

    (_, line) = panel.lines()
    selections = list(editor.extraSelections())
    for cursor, colour in editor.token_backgrounds():
        (i,) = line.covering(
            cursor.selectionStart() - editor.document().findBlock(cursor.selectionStart()).position()
        )
        selection = QTextEdit.ExtraSelection()
        selection.cursor = cursor
        selection.format = token_format(line.keys[i], False, False)
        assert selection.format.background().color() == colour
        selections.append(selection)
    editor.set_token_backgrounds([])
    editor.setStyleSheet("")  # the theme's text colour: the selections carry the tokens' ink
    editor.long_mode(True, panel.text())  # the same shaping as before
    editor.setExtraSelections(selections)
    as_selections = editor.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    assert painted == as_selections


def test_a_long_text_is_shaped_lightly_unless_it_has_clusters(qtbot, panel, ko_bpe):
    """Kerning and ligatures are left out while a long line is shown (each keystroke lays the
    paragraph out whole); never for text with a cluster Qt must shape (an emoji with a tone)."""
    from PySide6.QtGui import QFont

    from subword_gui.tokens.token_view import LONG_LINE

    panel.state.set_tokenizer(ko_bpe)
    light = QFont.StyleStrategy.PreferNoShaping
    word = long_korean_word(LONG_LINE + 100)
    panel.set_text(word)
    assert panel.editor.font().styleStrategy() == light
    type_keys(qtbot, panel.editor, "가")
    assert panel.editor.font().styleStrategy() == light
    cursor = panel.editor.textCursor()
    cursor.insertText("👋🏽")
    assert panel.editor.font().styleStrategy() != light
    panel.set_text(word + " 👋🏽")
    assert panel.editor.font().styleStrategy() != light
    panel.set_text("정말 재미있는 영화")
    assert panel.editor.font().styleStrategy() != light
    # a pasted long word is shaped lightly from its first layout on
    from PySide6.QtWidgets import QApplication

    panel.set_text("👋🏽 정말")  # the word replaces this text: it is shaped lightly
    QApplication.clipboard().setText(word)
    panel.editor.selectAll()
    panel.editor.paste()
    assert panel.editor.font().styleStrategy() == light


@pytest.mark.parametrize("qt_pos", [4, 12], ids=["before the emoji", "after the emoji"])
def test_why_view_explains_every_piece_of_a_cluster_the_pre_tokenizer_cut(qtbot, panel, hug_bpe, qt_pos):
    """The whitespace pre-tokenizer's \\w counts U+200D as a word character, so 👨‍👩‍👧 (one
    character to a reader; the cursor cannot stop inside it) arrives as five words: the view
    says the cluster was split and explains each piece, not only the one at the cursor."""
    family = "👨\u200d👩\u200d👧"
    assert [p.normalized for p in hug_bpe.pieces(family)] == ["👨", "\u200d", "👩", "\u200d", "👧"]
    panel.state.set_tokenizer(hug_bpe)
    panel.set_text("hug " + family)
    place_cursor(panel, qt_pos)  # Qt positions: each emoji is two UTF-16 units
    qtbot.waitUntil(lambda: isinstance(panel.why.piece, tuple), timeout=2000)
    assert "5 pieces" in panel.why.title.text()
    lines = panel.why.steps_text().split(" | ")
    pieces = [line for line in lines if line.startswith("piece ")]
    assert len(pieces) == 5
    assert all(line.endswith("→ <unk>") for line in pieces)  # hug-pug never saw an emoji
    assert "pre-tokenizer split it into 5 pieces" in panel.why.steps.toPlainText()
    # a word that cuts no cluster is explained alone, as before
    place_cursor(panel, 1)
    qtbot.waitUntil(lambda: panel.why.piece == "hug", timeout=2000)


def test_why_view_counts_the_characters_of_two_cut_clusters_as_two(qtbot, panel, hug_bpe):
    """👩🏽‍💻👨‍👩‍👧 is two characters to a reader (two extended grapheme clusters): the pre-tokenizer
    cuts one word across both, and the view called the pair one grapheme (issue 29)."""
    coder, family = "👩🏽\u200d💻", "👨\u200d👩\u200d👧"
    panel.state.set_tokenizer(hug_bpe)
    panel.set_text("hug " + coder + family)
    place_cursor(panel, 4)  # before the first emoji
    qtbot.waitUntil(lambda: isinstance(panel.why.piece, tuple), timeout=2000)
    said = panel.why.steps.toPlainText()
    assert "one character" not in said
    assert "2 characters to a reader" in said
    # every piece of both, each word whole: 💻👨 is one pre-token, not cut at the cluster's end
    assert "7 pieces" in panel.why.title.text()
    pieces = [line for line in panel.why.steps_text().split(" | ") if line.startswith("piece ")]
    assert len(pieces) == 7 and pieces[2].startswith("piece 💻👨")


def _text_lines(label) -> int:
    """How many lines ``label``'s rich text takes at its width."""
    from PySide6.QtGui import QTextDocument

    doc = QTextDocument()
    doc.setDefaultFont(label.font())
    doc.setHtml(label.text())
    one = doc.size().height()  # no width: one line
    doc.setTextWidth(label.width())
    return round(doc.size().height() / one)


def test_the_header_keeps_its_counts_on_one_line_and_puts_the_legend_under_them(qtbot, hug_bpe):
    """At 1280x800 the counts wrapped beside the legend to four lines (issue 29, item 7)."""
    state = AppState()
    state.set_full_tokenizer(hug_bpe)
    panel = SegmentationPanel(state)
    qtbot.addWidget(panel)
    panel.mode.setVisible(True)
    panel.show()
    panel.resize(725, 700)  # the Segmentation panel's width in a 1280-wide window
    qtbot.waitUntil(lambda: panel.legend.geometry().top() >= panel.counts.geometry().bottom())
    assert panel._legend_below and _text_lines(panel.counts) == 1  # the legend on a line of its own
    panel.resize(1400, 700)  # room for all three: the legend beside the counts again
    qtbot.waitUntil(lambda: panel.legend.geometry().top() < panel.counts.geometry().bottom())
    assert not panel._legend_below
    assert _text_lines(panel.counts) == 1


def test_a_long_word_scrolled_far_is_coloured_on_the_next_turn_not_a_line_count_of_ms_later(
    qtbot, panel, ko_bpe
):
    """The scroll bar's value went in as the recolouring timer's interval: a view at line 2,300
    of a 100,000-character word waited 2.3 s for its colours, and every edit that scrolled the
    view (or resized it) after that waited as long, the old colours out of view meanwhile."""
    panel.state.set_tokenizer(ko_bpe)
    word = long_korean_word(100_000)
    with qtbot.waitSignal(panel.segmented, timeout=60_000):
        panel.set_text(word)
    assert max(e for s, e, _ in coloured_in_view(panel)) < len(word) // 2
    place_cursor(panel, len(word))  # the view scrolls to the end
    assert panel.editor.verticalScrollBar().value() > 1000
    assert panel._view_timer.interval() == 0
    for _ in range(5):
        QApplication.processEvents()
    assert max(e for s, e, _ in coloured_in_view(panel)) == len(word)
    # typing there keeps the colours in view while the word is encoded again, then recolours
    with qtbot.waitSignal(panel.segmented, timeout=60_000):
        type_keys(qtbot, panel.editor, "영")
        panel.refresh()
        assert panel.busy() and max(e for s, e, _ in coloured_in_view(panel)) >= len(word)
    assert max(e for s, e, _ in coloured_in_view(panel)) == len(word) + 1


def test_the_header_is_two_lines_at_most_at_1280_the_ratios_in_the_tooltip(qtbot, hug_bpe):
    """At 1280x800 in English the header still took three lines: the tabs beside counts that
    wrapped to two, the legend under them. The counts keep one line; what does not fit (the
    ratios first) is in the counts' tooltip, and tokens and unknown always show."""
    state = AppState()
    state.set_full_tokenizer(hug_bpe)
    panel = SegmentationPanel(state)
    qtbot.addWidget(panel)
    panel.mode.setVisible(True)
    panel.show()
    panel.set_text("Hello world, 철수는 치킨을 먹고 👩🏽‍💻")
    panel.refresh()
    panel.resize(635, 700)  # the Segmentation panel's width in a 1280x800 window (TEXT_SHARE)
    qtbot.waitUntil(lambda: panel._legend_below)
    assert _text_lines(panel.counts) == 1
    shown = panel.counts.text()
    assert "tokens<" in shown and "unknown" in shown
    assert "tokens/\u2060word" not in shown and "tokens/\u2060word" in panel.counts.toolTip()
    panel.resize(1500, 700)  # room for everything: nothing hidden, no tooltip
    qtbot.waitUntil(lambda: not panel._legend_below)
    assert "tokens/\u2060word" in panel.counts.text() and panel.counts.toolTip() == ""
