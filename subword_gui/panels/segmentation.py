"""The Segmentation panel: type text, see it cut into coloured tokens as you type.

    >>> panel = SegmentationPanel(state); panel.set_text("hugs 철수는")
    >>> panel.stats.tokens, panel.stats.unknown

Top to bottom: live counts; the editor, whose text is coloured token by token
(:class:`~subword_gui.tokens.token_view.TokenHighlighter`: colour from the token id,
neighbours always distinct, unknown tokens red with a yellow wavy underline,
characters the normalizer removed grey and struck through); the token strip
(each token as a chip with its visible rendering and id); and the "why" view
of the word under the cursor. Hovering a token, in the text or in the strip,
shows its id, offsets, bytes and how the model came to have it. Alt+Right and
Alt+Left walk the text token by token.

Only lines whose text changed are re-encoded (results and chips are cached per
line), so a keystroke in 2,000 characters of Korean costs one line's encoding
plus the chip layout; the why view waits for a pause in typing.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from core.stats import EncodingStats, stats_of_encodings
from core.text import NormalizedString
from subword_gui.tokens import palette
from subword_gui.tokens.token_view import (
    Chip,
    LineCache,
    LineTokens,
    TokenHighlighter,
    TokenStrip,
    chips_for_lines,
    cluster_at,
    token_tooltip,
)
from subword_gui.tokens.why_view import WhyView

SAMPLE_TEXT = "토크나이저는 문장을 작은 조각으로 나눕니다.\nTokenizers cut text into subword pieces."
EDITOR_POINT_SIZE = 14
STRIP_LIMIT = 5000  # chips laid out at most (the text is coloured whatever its length)
WHY_DELAY_MS = 120  # the why view waits for a pause in typing (it is the slow part)
WHY_MIN_HEIGHT = 240  # a Unigram lattice (axis, characters, best path, candidates) and the n-best list


def _count_html(value: str, label: str, colour: str = "#1F2D3D") -> str:
    # subtle: a word joiner after "/" and breakable spaces only between counts, so a
    # narrow dock wraps whole counts, never "tokens/" apart from "word"
    label = label.replace("/", "/\u2060")
    return (
        f"<span style='font-size:15pt; font-weight:600; color:{colour}'>{value}</span>"
        f"<span style='color:#667'>&nbsp;{label}</span>"
    )


class SegmentationPanel(QWidget):
    """Editor + coloured tokens + token strip + why view, all following ``state.tokenizer``."""

    segmented = Signal()  # the spans, counts and strip are up to date with the text

    def __init__(self, state, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.cache = LineCache()
        self.stats = EncodingStats(0, 0, 0, 0, 0, 0, 0)
        self._lines: list[LineTokens] = []
        self._chip_where: list[tuple[int, int]] = []
        self._first_chip: list[int] = []
        self._announced: str | None = None  # the text last sent on state.text_changed
        self._build()
        self.highlighter = TokenHighlighter(self.editor.document(), self.cache)
        self._refresh_timer = QTimer(self, singleShot=True, interval=0)
        self._refresh_timer.timeout.connect(self.refresh)
        self.editor.textChanged.connect(self._refresh_timer.start)
        self._cursor_timer = QTimer(self, singleShot=True, interval=0)
        self._cursor_timer.timeout.connect(self._show_current_chip)
        self._why_timer = QTimer(self, singleShot=True, interval=WHY_DELAY_MS)
        self._why_timer.timeout.connect(self.explain_at_cursor)
        self.editor.cursorPositionChanged.connect(self._cursor_moved)
        self.editor.viewport().installEventFilter(self)
        # Alt+Right / Alt+Left: walk the text token by token (the why view follows)
        for keys, step in (("Alt+Right", 1), ("Alt+Left", -1)):
            shortcut = QShortcut(QKeySequence(keys), self.editor, context=Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(lambda step=step: self.step_token(step))
        self.strip.chip_clicked.connect(self._chip_clicked)
        self.strip.tooltip_provider = self._chip_tooltip
        state.tokenizer_changed.connect(self.set_tokenizer)
        self.editor.setPlainText(SAMPLE_TEXT)
        if state.tokenizer is not None:
            self.set_tokenizer(state.tokenizer)
        else:
            self.refresh()

    def _build(self) -> None:
        self.counts = QLabel()
        self.counts.setTextFormat(Qt.TextFormat.RichText)
        self.legend = QLabel(
            "<span style='background:#D7191C; color:white; font-weight:bold'>&nbsp;unknown&nbsp;</span>&nbsp; "
            "<span style='background:#3B4A5A; color:white'>&nbsp;special&nbsp;</span>&nbsp; "
            "<span style='color:#8A8A8A; text-decoration:line-through'>removed</span>&nbsp; "
            "<span style='text-decoration:underline'>split character</span>"
        )
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        # in a narrow dock the counts wrap and the legend is clipped, rather than the
        # panel widening the whole window
        self.counts.setWordWrap(True)
        self.legend.setMinimumWidth(1)
        header = QHBoxLayout()
        header.addWidget(self.counts, 1)
        header.addWidget(self.legend, 0)

        self.editor = QPlainTextEdit()
        font = QFont(self.editor.font())
        font.setPointSize(EDITOR_POINT_SIZE)
        self.editor.setFont(font)
        self.editor.setPlaceholderText("Type or paste text here: it is tokenized as you type.")
        self.editor.setMouseTracking(True)

        self.strip = TokenStrip()
        self.strip.set_placeholder("Train or open a tokenizer to see the tokens.")
        strip_font = QFont(self.strip.font())
        strip_font.setPointSize(EDITOR_POINT_SIZE - 2)
        self.strip.setFont(strip_font)
        self.strip_scroll = QScrollArea()
        self.strip_scroll.setWidget(self.strip)
        self.strip_scroll.setWidgetResizable(True)
        self.strip_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

        self.why = WhyView()

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.editor)
        self.splitter.addWidget(self.strip_scroll)
        self.splitter.addWidget(self.why)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setStretchFactor(2, 3)
        self.splitter.setChildrenCollapsible(False)
        # subtle: at least two whole rows of chips, so the row with the cursor's token is
        # never the only (clipped) thing in view; the why view keeps room for a lattice.
        self.strip_scroll.setMinimumHeight(self.strip_min_height())
        self.why.setMinimumHeight(WHY_MIN_HEIGHT)
        self.editor.setMinimumHeight(60)
        self.splitter.setSizes([110, 170, 360])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(header)
        layout.addWidget(self.splitter, 1)

    # -- public ------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Replace the text; the cursor goes to the first line's most merged word, so the
        why view starts on something worth explaining."""
        self.editor.setPlainText(text)
        self.refresh()
        first = self._lines[0].encoding if self._lines else None
        words = [i for i, w in enumerate(first.word_ids) if w is not None] if first is not None else []
        if words:
            enc = self._lines[0].encoding
            longest = max(words, key=lambda i: (enc.offsets[i][1] - enc.offsets[i][0], -i))
            cursor = self.editor.textCursor()
            cursor.setPosition(self._lines[0].to_qt(enc.offsets[longest][0]))
            self.editor.setTextCursor(cursor)
            self.explain_at_cursor()

    def text(self) -> str:
        return self.editor.toPlainText()

    def lines(self) -> list[LineTokens]:
        """The encoded lines of the editor (one per text block)."""
        return list(self._lines)

    def set_tokenizer(self, tokenizer) -> None:
        self.cache.set_tokenizer(tokenizer)
        self.why.clear()
        self.highlighter.rehighlight()
        self.refresh()

    def refresh(self) -> None:
        """Bring counts, strip and why view up to date with the text (the spans already are)."""
        self._refresh_timer.stop()
        text = self.editor.toPlainText()
        if text != self._announced and hasattr(self.state, "text_changed"):
            self._announced = text
            self.state.text_changed.emit(text)
        if self.cache.tokenizer is None:
            self._lines = []
            self.stats = EncodingStats(0, 0, 0, 0, 0, 0, 0)
            self.counts.setText(
                "<span style='color:#888'>No tokenizer yet: train one or open a tokenizer file.</span>"
            )
            self.strip.set_chips([])
            self.segmented.emit()
            return
        doc = self.editor.document()
        lines: list[LineTokens] = []
        block = doc.begin()
        while block.isValid():
            lines.append(self.cache.get(block.text()))
            block = block.next()
        self._lines = lines
        self.stats = stats_of_encodings(self.cache.tokenizer, [(ln.text, ln.encoding) for ln in lines])
        self._show_counts()
        chips, where = chips_for_lines(lines, self.cache.style, self.cache.chips)
        if len(chips) > STRIP_LIMIT:
            # subtle: a pasted book would make every keystroke lay out 100 k chips; the text
            # itself stays coloured throughout, the strip shows the beginning
            more = len(chips) - STRIP_LIMIT
            chips, where = chips[:STRIP_LIMIT], where[:STRIP_LIMIT]
            chips.append(
                Chip(
                    parts=[("…", "marker")],
                    caption=f"+{more:,}",
                    background=palette.SHARED_BACKGROUND,
                    new_word=True,
                    tooltip=f"{more:,} more tokens are coloured in the text, not listed here",
                )
            )
        self._chip_where = where
        self._first_chip = []
        n = 0
        for ln in lines:
            self._first_chip.append(n)
            n += len(ln.encoding.ids)
        self.strip.set_chips(chips)
        self._cursor_timer.stop()
        self._show_current_chip()
        self._why_timer.start()
        self.segmented.emit()

    def _show_counts(self) -> None:
        s = self.stats
        unk_colour = "#D7191C" if s.unknown else "#1F2D3D"
        self.counts.setText(
            "&nbsp;&nbsp; ".join(
                [
                    _count_html(f"{s.tokens:,}", "tokens"),
                    _count_html(f"{s.characters:,}", "characters"),
                    _count_html(f"{s.chars_per_token:.2f}", "chars/token"),
                    _count_html(f"{s.tokens_per_word:.2f}", "tokens/word"),
                    _count_html(f"{s.unknown:,}", "unknown", unk_colour),
                ]
            )
        )

    # -- where things are ------------------------------------------------------------
    def _line_and_pos(self, cursor: QTextCursor) -> tuple[int, int]:
        """(line, Python character index) of a cursor (Qt counts UTF-16 units)."""
        line, pos = cursor.blockNumber(), cursor.positionInBlock()
        if 0 <= line < len(self._lines):
            pos = self._lines[line].from_qt(pos)
        return line, pos

    def token_at(self, line: int, pos: int) -> int | None:
        if not 0 <= line < len(self._lines):
            return None
        return self._lines[line].token_at(pos)

    def tooltip_for(self, line: int, pos: int) -> str:
        """What hovering character ``pos`` of ``line`` shows."""
        if not 0 <= line < len(self._lines):
            return ""
        ln = self._lines[line]
        offsets = ln.encoding.offsets
        if any(s <= pos < e for s, e in offsets):
            cs, ce = cluster_at(ln.text, pos)  # 👋🏽 is one character to a reader, two code points
            covering = [i for i, (s, e) in enumerate(offsets) if s < ce and cs < e and s < e]
        else:
            covering = []
        if len(covering) > 1:
            # byte-level or jamo pieces of one character, or an emoji's code points apart
            head = f"<b>this character is split across {len(covering)} tokens</b>"
            parts = [token_tooltip(self.cache.tokenizer, self.cache.style, ln, i) for i in covering[:6]]
            return head + "<hr>".join(parts)
        if covering:
            return token_tooltip(self.cache.tokenizer, self.cache.style, ln, covering[0])
        if pos in ln.dropped:
            return "<b>removed</b> by the normalizer or pre-tokenizer: no token covers this character"
        return ""

    def _chip_tooltip(self, index: int) -> str:
        if index >= len(self._chip_where):  # the "… +N more" chip
            return self.strip.chips()[index].tooltip
        line, i = self._chip_where[index]
        ln = self._lines[line]
        return token_tooltip(self.cache.tokenizer, self.cache.style, ln, i)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802
        if obj is self.editor.viewport() and event.type() == QEvent.Type.ToolTip:
            cursor = self.editor.cursorForPosition(event.pos())
            rect = self.editor.cursorRect(cursor)
            line, pos = self._line_and_pos(cursor)
            if event.pos().x() < rect.x():
                pos -= 1  # the cursor is right of the character under the mouse
            text = self.tooltip_for(line, pos) if pos >= 0 else ""
            if text:
                QToolTip.showText(event.globalPos(), text, self.editor.viewport())
            else:
                QToolTip.hideText()
            return True
        return super().eventFilter(obj, event)

    def _cursor_moved(self) -> None:
        """Coalesced: the current chip follows at once, the why view once typing pauses."""
        self._cursor_timer.start()
        self._why_timer.start()

    def _current_token(self) -> tuple[int, int, int | None]:
        """(line, character, token index or None) at the text cursor."""
        line, pos = self._line_and_pos(self.editor.textCursor())
        if not 0 <= line < len(self._lines):
            return line, pos, None
        ln = self._lines[line]
        i = ln.token_at(pos)
        if i is None and pos > 0:
            i = ln.token_at(pos - 1)  # the cursor just after a word explains that word
        return line, pos, i

    def _show_current_chip(self) -> None:
        if self.cache.tokenizer is None or not self._lines:
            return
        line, _pos, i = self._current_token()
        if i is None or line >= len(self._first_chip):
            self.strip.set_current(-1)
            return
        index = self._first_chip[line] + i
        if index >= len(self._chip_where):
            self.strip.set_current(-1)
            return
        if index != self.strip.current():
            focused = getattr(self.state, "token_focused", None)
            if focused is not None:
                focused.emit(self._lines[line].encoding.tokens[i])
        self.strip.set_current(index)
        self._scroll_strip_to(index)

    def strip_min_height(self) -> int:
        """Two whole rows of chips, their margins and the scroll area's frame."""
        frame = 2 * self.strip_scroll.frameWidth()
        return 2 * self.strip.row_height() + 5 + 2 * 6 + frame + 2

    def _scroll_strip_to(self, index: int) -> None:
        """Show chip ``index`` whole; while it fits in the first screenful, stay at the top
        (the strip reads from its first row, like the text)."""
        rect = self.strip.chip_rect(index)
        bar = self.strip_scroll.verticalScrollBar()
        view_h = self.strip_scroll.viewport().height()
        if rect.bottom() + 6 <= view_h:
            bar.setValue(0)
        elif rect.top() < bar.value() or rect.bottom() + 6 > bar.value() + view_h:
            # the chip's row at the top of the view, whole
            bar.setValue(max(0, rect.top() - 4))

    def explain_at_cursor(self) -> None:
        """Fill the why view with the word (pre-token) under the text cursor."""
        self._why_timer.stop()
        tok = self.cache.tokenizer
        if tok is None or not self._lines:
            return
        line, pos, i = self._current_token()
        if i is None or line >= len(self._lines):
            return
        ln = self._lines[line]
        word = ln.encoding.word_ids[i]
        if word is None:
            self.why.clear(f"{ln.encoding.tokens[i]} is an added (special) token: it is matched as a whole.")
            return
        spans = [off for off, w in zip(ln.encoding.offsets, ln.encoding.word_ids) if w == word]
        start, end = min(s for s, _ in spans), max(e for _, e in spans)
        # subtle: pre-tokenize just this word's text (a whole 2,000-character line costs
        # tens of milliseconds); the pieces' spans are relative to ``start``.
        pieces = _pieces(tok, ln.text[start:end])
        rel = pos - start
        for piece in pieces:
            s, e = piece.span()
            if s <= rel < e or (rel == e and e > s):
                self.why.show_piece(tok, piece.normalized)
                return
        if pieces:
            self.why.show_piece(tok, pieces[0].normalized)

    def step_token(self, step: int) -> None:
        """Move the text cursor to the start of the next (``step`` = 1) or previous (-1) token."""
        if not self._lines:
            return
        cursor = self.editor.textCursor()
        line, pos = self._line_and_pos(cursor)
        starts = [
            (n, s)
            for n, ln in enumerate(self._lines)
            for s in sorted({o[0] for o in ln.encoding.offsets if o[1] > o[0]})
        ]
        here = (line, pos)
        target = (
            next((t for t in starts if t > here), None)
            if step > 0
            else next((t for t in reversed(starts) if t < here), None)
        )
        if target is None:
            return
        n, s = target
        block = self.editor.document().findBlockByNumber(n)
        cursor.setPosition(block.position() + self._lines[n].to_qt(s))
        self.editor.setTextCursor(cursor)

    def _chip_clicked(self, index: int) -> None:
        if index >= len(self._chip_where):
            return
        line, i = self._chip_where[index]
        s, e = self._lines[line].encoding.offsets[i]
        block = self.editor.document().findBlockByNumber(line)
        ln = self._lines[line]
        cursor = QTextCursor(block)
        cursor.setPosition(block.position() + ln.to_qt(s))
        cursor.setPosition(block.position() + ln.to_qt(e), QTextCursor.MoveMode.KeepAnchor)
        self.editor.setTextCursor(cursor)


def _pieces(tokenizer, text: str) -> list[NormalizedString]:
    try:
        return tokenizer.pieces(text)
    except Exception:  # noqa: BLE001 - the why view is an extra; the spans are already shown
        return []
