"""The Segmentation panel: type text, see it cut into coloured tokens as you type.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> from subword_gui.state import AppState
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> state = AppState(); state.set_full_tokenizer(drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=11))))
    >>> panel = SegmentationPanel(state); panel.set_text("hugs 철수는")
    >>> panel.stats.tokens, panel.stats.unknown      # hug s, and 철 수 는 unknown to this model
    (5, 3)

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

A line of ``LONG_LINE`` characters or more (a pasted 100,000-character word) is
encoded on a helper thread (:class:`~subword_gui.background.line_encoder.LineEncoder`)
while the editor stays live; the counts say so until it lands. Such a line is
coloured only where it is in view (extra selections, redone on scrolling), the
editor wraps it anywhere (Qt's search for a word boundary in a 100,000-letter
word costs seconds per keystroke), the strip lists its first ``STRIP_LIMIT``
tokens, and the why view explains the tokens around the cursor rather than the
whole word (``WHY_MAX_CHARS``).
"""

from __future__ import annotations

import bisect
import html
import math

from PySide6.QtCore import QEvent, QObject, QPoint, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QKeySequence,
    QPainter,
    QShortcut,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTabBar,
    QTextEdit,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from core.chat import chat_templates
from core.encoding import Encoding
from core.stats import EncodingStats
from core.text import NormalizedString
from subword_gui.background.beside import run_beside
from subword_gui.background.line_encoder import LineEncoder
from subword_gui.panels.chat import ChatView
from subword_gui.panels.samples import SamplesView
from subword_gui.style import theme
from subword_gui.tokens import palette
from subword_gui.tokens.render import render_html, style_for
from subword_gui.tokens.token_view import (
    LONG_LINE,
    TOKEN_INK,
    Chip,
    LineCache,
    LineTokens,
    TokenHighlighter,
    TokenStrip,
    chips_for_lines,
    cluster_at,
    joins_clusters,
    line_stats,
    span_formats,
    stats_of_lines,
    token_origin,
    token_tooltip,
)
from subword_gui.tokens.why_view import WhyView

SAMPLE_TEXT = "토크나이저는 문장을 작은 조각으로 나눕니다.\nTokenizers cut text into subword pieces."
EDITOR_POINT_SIZE = 14
CHAT_TAB, SAMPLES_TAB = 1, 2  # the mode bar's tabs after Text
EDITOR_MIN_LINES = 4  # pasting three lines never scrolls the first out of view
STRIP_LIMIT = 2000  # chips laid out at most (the text is coloured whatever its length)
# after a model lands (and after the slider's cut tables: VocabSizeSlider's WARM_DELAY_MS), the
# line cache's tables for the slider are built on a helper thread, not competing with the landing
FAMILY_TABLES_DELAY_MS = 700
STRIP_NOW_LIMIT = 500  # with a long line, more new chips are laid out on the next turn
WHY_DELAY_MS = 120  # the why view waits for a pause in typing (it is the slow part)
# A longer word is not explained merge by merge (BPE's steps each show the whole word: the
# cost grows with the square of its length); the why view lists the tokens around the cursor.
WHY_MAX_CHARS = 64
WHY_WINDOW_TOKENS = 12  # tokens listed either side of the cursor's, for such a word
TOOLTIP_MAX_TOKENS = 6  # tokens one hover explains at most (pieces of one character)
VIEW_MARGIN_CHARS = 60  # a long line is coloured this far beyond what is in view (a line or two)


def _html_width(text: str, font: QFont) -> float:
    """The width of rich ``text`` on one line."""
    doc = QTextDocument()
    doc.setDefaultFont(font)
    doc.setHtml(text)
    return doc.idealWidth()


def _count_html(value: str, label: str, colour: str | None = None) -> str:
    # subtle: a word joiner after "/" and breakable spaces only between counts, so a
    # narrow dock wraps whole counts, never "tokens/" apart from "word"
    label = label.replace("/", "/\u2060")
    colour = colour or theme.current().text
    return (
        f"<span style='font-size:15pt; font-weight:600; color:{colour}'>{value}</span>"
        f"<span style='color:{theme.current().muted}'>&nbsp;{label}</span>"
    )


class TextEditor(QPlainTextEdit):
    """The Segmentation editor: a pasted or dropped text with a very long line switches to
    wrapping anywhere *before* Qt lays it out (see :meth:`SegmentationPanel._set_wrap`), and
    the tokens of a long line in view have their backgrounds painted here
    (:meth:`set_token_backgrounds`)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._backgrounds: list[tuple[QTextCursor, QColor]] = []
        self._inked = False  # the text is in the tokens' ink (see long_mode)
        self.inks_long_lines = False  # whether long lines get token colours (a tokenizer is shown)
        self.is_long = False  # in long mode (see long_mode)
        self._rects_key: tuple | None = None
        self._runs_version = 0  # counts set_token_backgrounds calls (part of the rects' key)
        self._rects: list[tuple[QRectF, QColor]] = []
        self.document().contentsChange.connect(self._text_added)

    def long_mode(self, on: bool, text: str = "") -> None:
        """Show text with a line of ``LONG_LINE`` characters or more (``on``) or not: wrap
        anywhere, the text in the tokens' ink behind which the panel paints token colours, and
        lighter shaping when ``text`` allows (see :func:`shape_lightly`). All before Qt lays
        the text out, so a paste or a landing lays the long paragraph out once, not three times.
        """
        mode = QTextOption.WrapMode.WrapAnywhere if on else QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
        if self.wordWrapMode() != mode:
            self.setWordWrapMode(mode)
        self.is_long = on
        inked = on and self.inks_long_lines
        if inked != self._inked:
            # the theme's style sheet sets the editor's text colour: only a sheet overrides it
            # (and a sheet resets the font: the shaping below comes after)
            self._inked = inked
            self.setStyleSheet(f"QPlainTextEdit {{ color: {TOKEN_INK.name()}; }}" if inked else "")
        shape_lightly(self, on and not joins_clusters(text))

    def set_token_backgrounds(self, runs: list[tuple[QTextCursor, QColor]]) -> None:
        """Paint each ``(cursor's selection, colour)`` behind the text, which is in the tokens'
        ink in long mode (what a plain token's format would give: see ``token_format``).

        subtle: extra selections did this before; Qt's drawing of each one walks every line of
        its paragraph, and a 100,000-character word has 2,300 lines: 230 tokens in view cost
        ~21 ms a paint (every keystroke). Here each token finds its line by bisection. The
        cursors follow edits, as extra selections do, until the panel colours the view again.
        """
        if not runs and not self._backgrounds:
            return
        self._backgrounds = runs
        self._runs_version += 1
        self.viewport().update()

    def _background_rects(self) -> list[tuple[QRectF, QColor]]:
        """Where each painted token is in the viewport, worked out once per text, scroll and
        width (the cursor's blinking repaints a few pixels many times a second)."""
        doc = self.document()
        offset = self.contentOffset()
        key = (self._runs_version, doc.revision(), offset.x(), offset.y(), self.viewport().width())
        if self._rects_key == key:
            return self._rects
        out = []
        block = layout = origin = None
        base = limit = -1
        for cursor, colour in self._backgrounds:
            start, end = cursor.selectionStart(), cursor.selectionEnd()
            if not base <= start < limit:  # the tokens come in order, most in one block
                block = doc.findBlock(start)
                if not block.isValid() or block.layout() is None:
                    base = limit = -1
                    continue
                layout = block.layout()
                origin = self.blockBoundingGeometry(block).translated(offset).topLeft()
                base, limit = block.position(), block.position() + block.length()
            if end <= start:
                continue
            line = layout.lineForTextPosition(start - base)
            while line.isValid() and base + line.textStart() < end:
                a = max(start - base, line.textStart())
                z = min(end - base, line.textStart() + line.textLength())
                # whole pixels, as Qt's own selections are cut (the column a boundary
                # falls in goes to the token on its right, painted after)
                x1 = math.floor(origin.x() + line.cursorToX(a)[0])
                x2 = math.ceil(origin.x() + line.cursorToX(z)[0])
                out.append((QRectF(min(x1, x2), origin.y() + line.y(), abs(x2 - x1), line.height()), colour))
                line = layout.lineAt(line.lineNumber() + 1)
        self._rects_key, self._rects = key, out
        return out

    def token_backgrounds(self) -> list[tuple[QTextCursor, QColor]]:
        return list(self._backgrounds)

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt override)
        if self._backgrounds:
            clip = QRectF(event.rect())
            painter = QPainter(self.viewport())
            for rect, colour in self._background_rects():
                if rect.intersects(clip):
                    painter.fillRect(rect, colour)
            painter.end()
        super().paintEvent(event)

    def insertFromMimeData(self, source) -> None:  # noqa: N802 (Qt override)
        if source.hasText() and any(len(line) >= LONG_LINE for line in source.text().split("\n")):
            self.long_mode(True, source.text() + self._text_kept_by_paste())
            keep_layout(self.textCursor().block())
        super().insertFromMimeData(source)

    def _text_kept_by_paste(self) -> str:
        """The text a paste at the cursor leaves in place (all of it but the selection)."""
        cursor = self.textCursor()
        before = QTextCursor(self.document())
        before.setPosition(cursor.selectionStart(), QTextCursor.MoveMode.KeepAnchor)
        after = QTextCursor(self.document())
        after.setPosition(cursor.selectionEnd())
        after.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        return before.selectedText() + after.selectedText()

    def _text_added(self, position: int, removed: int, added: int) -> None:
        """Shape fully again once a character that needs it is typed or pasted (see shape_lightly)."""
        # (a long paste was looked at whole by insertFromMimeData)
        if 0 < added < LONG_LINE and self.font().styleStrategy() == QFont.StyleStrategy.PreferNoShaping:
            cursor = QTextCursor(self.document())
            cursor.setPosition(position)
            end = min(position + added, self.document().characterCount() - 1)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            if joins_clusters(cursor.selectedText()):
                shape_lightly(self, False)


def shape_lightly(editor: QPlainTextEdit, on: bool) -> None:
    """Leave out the shaping Qt does not need for text without clusters (kerning and ligatures,
    which move Latin letters a pixel or so) while the text has a very long line and no
    character that joins a cluster (an accent, an emoji modifier: those are shaped as ever).

    subtle: Qt lays a paragraph out whole on every keystroke: in a 100,000-character word that
    took ~25 ms of shaping a key, ~12 ms without (measured offscreen), and the paste as much.
    """
    strategy = QFont.StyleStrategy.PreferNoShaping if on else QFont.StyleStrategy.PreferDefault
    if editor.font().styleStrategy() != strategy:
        font = QFont(editor.font())
        font.setStyleStrategy(strategy)
        editor.setFont(font)


def keep_layout(block) -> None:
    """Have Qt keep a long block's shaped text between edits.

    subtle: by default a block's ``QTextLayout`` throws its shaping away at the end of each
    layout, so after every keystroke in a 100,000-character word the cursor's position
    (twice) and its drawing each analysed and shaped the whole paragraph again (a gdb count:
    six passes a key instead of two). Kept, a key costs the one layout it needs.
    """
    layout = block.layout()
    if layout is not None and not layout.cacheEnabled():
        layout.setCacheEnabled(True)


class SegmentationPanel(QWidget):
    """Editor + coloured tokens + token strip + why view, all following ``state.tokenizer``."""

    segmented = Signal()  # the spans, counts and strip are up to date with the text

    def __init__(self, state, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.cache = LineCache()
        self.stats = EncodingStats(0, 0, 0, 0, 0, 0, 0)
        self.removed = 0  # characters of the text no token stands for (see dropped_characters)
        self._lines: list[LineTokens] = []
        self._chip_where: list[tuple[int, int]] = []
        self._strip_lines: list[LineTokens] = []  # the lines the strip's chips come from
        self._first_chip: list[int] = []
        self._announced: str | None = None  # the text last sent on state.text_changed
        self._pending: list[int] = []  # long lines being encoded on the helper thread
        self._has_long = False
        self._encoder = LineEncoder(self, prepare=self._prepare_long_line)
        self._encoder.encoded.connect(self._line_encoded)
        self._encoder.failed.connect(self._line_failed)
        self._build()
        self.highlighter = TokenHighlighter(self.editor.document(), self.cache)
        self._refresh_timer = QTimer(self, singleShot=True, interval=0)
        self._refresh_timer.timeout.connect(self.refresh)
        self.editor.textChanged.connect(self._refresh_timer.start)
        self._strip_next: tuple | None = None  # chips for the strip's next turn (see refresh)
        self._strip_timer = QTimer(self, singleShot=True, interval=0)
        self._strip_timer.timeout.connect(self._show_pending_chips)
        self._cursor_timer = QTimer(self, singleShot=True, interval=0)
        self._cursor_timer.timeout.connect(self._show_current_chip)
        self._why_timer = QTimer(self, singleShot=True, interval=WHY_DELAY_MS)
        self._why_timer.timeout.connect(self.explain_at_cursor)
        self.editor.cursorPositionChanged.connect(self._cursor_moved)
        self.editor.viewport().installEventFilter(self)
        # a long line is coloured where it is in view: again after a scroll or a resize
        self._view_timer = QTimer(self, singleShot=True, interval=0)
        self._view_timer.timeout.connect(self._colour_visible)
        # subtle: not connected to start() itself: valueChanged's value went in as start()'s
        # interval, so a view scrolled to line 1,500 of a 100,000-character word was coloured
        # 1.5 s later (and every later start() kept that interval)
        self.editor.verticalScrollBar().valueChanged.connect(lambda _value: self._view_timer.start())
        # Alt+Right / Alt+Left: walk the text token by token (the why view follows)
        for keys, step in (("Alt+Right", 1), ("Alt+Left", -1)):
            shortcut = QShortcut(QKeySequence(keys), self.editor, context=Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(lambda step=step: self.step_token(step))
        self.strip.chip_clicked.connect(self._chip_clicked)
        self.strip.tooltip_provider = self._chip_tooltip
        state.tokenizer_changed.connect(self.set_tokenizer)
        if hasattr(state, "analysers_loading_changed"):
            state.analysers_loading_changed.connect(self.refresh)
        self.editor.setPlainText(SAMPLE_TEXT)
        if state.tokenizer is not None:
            self.set_tokenizer(state.tokenizer)
        else:
            self.refresh()

    def _build(self) -> None:
        self.counts = QLabel()
        self._count_parts: list[str] = []  # the counts' html, all of them (see _fit_counts)
        self.counts.setTextFormat(Qt.TextFormat.RichText)
        self.legend = QLabel(
            self.tr(
                "<span style='background:#D7191C; color:white; font-weight:bold'>&nbsp;unknown&nbsp;</span>&nbsp; "
                "<span style='background:#3B4A5A; color:white'>&nbsp;special&nbsp;</span>&nbsp; "
                "<span style='color:#8A8A8A; text-decoration:line-through'>removed</span>&nbsp; "
                "<span style='text-decoration:underline'>split character</span>"
            )
        )
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        # in a narrow dock the counts wrap and the legend is clipped, rather than the
        # panel widening the whole window
        self.counts.setWordWrap(True)
        self.legend.setMinimumWidth(1)
        # Text / Chat / Samples: the chat tab appears when the tokenizer has a chat template
        # (panels/chat.py); Samples shows BPE-dropout or Unigram samples (panels/samples.py)
        self.mode = QTabBar()
        self.mode.addTab(self.tr("Text"))
        self.mode.addTab(self.tr("Chat"))
        self.mode.addTab(self.tr("Samples"))
        self.mode.setTabToolTip(
            SAMPLES_TAB, self.tr("Several segmentations of the text: BPE-dropout or Unigram sampling")
        )
        self.mode.setDrawBase(False)
        self.mode.setExpanding(False)
        self.mode.setVisible(False)
        self.mode.currentChanged.connect(self._show_mode)
        self._header_top = QHBoxLayout()
        self._header_top.addWidget(self.mode, 0)
        self._header_top.addWidget(self.counts, 1)
        self._header_top.addWidget(self.legend, 0)
        self._header_top.addStretch(0)  # keeps the tabs at their size while the counts are hidden (Chat)
        # where the legend goes when the tabs, counts and legend do not fit one line (see
        # _place_legend): at 1280x800 the counts wrapped beside it to four lines
        self._legend_row = QHBoxLayout()
        self._legend_row.addStretch(1)
        self._legend_below = False
        header = QVBoxLayout()
        header.setSpacing(2)
        header.addLayout(self._header_top)
        header.addLayout(self._legend_row)

        self.editor = TextEditor()
        font = QFont(self.editor.font())
        font.setPointSize(EDITOR_POINT_SIZE)
        self.editor.setFont(font)
        self.editor.setPlaceholderText(self.tr("Type or paste text here: it is tokenized as you type."))
        self.editor.setMouseTracking(True)

        self.strip = TokenStrip()
        self.strip.set_placeholder(self.tr("Train or open a tokenizer to see the tokens."))
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
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setStretchFactor(2, 3)
        self.splitter.setChildrenCollapsible(False)
        # subtle: at least two whole rows of chips, so the row with the cursor's token is
        # never the only (clipped) thing in view; the why view keeps room for a lattice (its own
        # minimum: the lattice and three rows of the n-best list).
        self.strip_scroll.setMinimumHeight(self.strip_min_height())
        # the text is the heart of the app: a pasted paragraph of a few lines stays in view
        self.editor.setMinimumHeight(self.editor_min_height())
        self.splitter.setSizes([260, 170, 330])

        self.chat = ChatView()
        self.samples = SamplesView()
        self.samples.share_document(self.editor.document())
        self.pages = QStackedWidget()
        self.pages.addWidget(self.splitter)
        self.pages.addWidget(self.chat)
        self.pages.addWidget(self.samples)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(header)
        layout.addWidget(self.pages, 1)

    def _show_mode(self, index: int) -> None:
        """0: the text editor; 1: the chat (rendered now, so it shows the current tokenizer);
        2: the samples of the text (drawn now)."""
        self.pages.setCurrentIndex(index)
        self.counts.setVisible(index == 0)
        self.legend.setVisible(index == 0)
        self._place_legend()
        if index == CHAT_TAB:
            self.chat.render()
        elif index == SAMPLES_TAB:
            self.samples.set_text(self.text())
            self.samples.resample_now()

    def show_samples(self, on: bool = True) -> None:
        """Switch to the Samples tab (or back to the text)."""
        self.mode.setCurrentIndex(SAMPLES_TAB if on and self.mode.isVisible() else 0)

    def show_chat(self, on: bool = True) -> None:
        """Switch to the Chat tab (when the tokenizer has a chat template) or back to the text."""
        self.mode.setCurrentIndex(CHAT_TAB if on and self.mode.isTabVisible(CHAT_TAB) else 0)

    # -- public ------------------------------------------------------------------
    def set_text(self, text: str) -> None:
        """Replace the text; the cursor goes to the first line's most merged word, so the
        why view starts on something worth explaining."""
        long_lines = any(len(line) >= LONG_LINE for line in text.split("\n"))
        # subtle: the long mode before a long text is laid out, and after a long text is gone
        # (word-boundary wrapping of a 100,000-character word took a second)
        if long_lines:
            self._set_wrap(True, text)
        self.editor.setPlainText(text)
        if not long_lines:
            self._set_wrap(False, text)
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
        self._encoder.forget()
        if (tokenizer is not None) != self.editor.inks_long_lines:
            self.editor.inks_long_lines = tokenizer is not None
            if self._has_long:
                self.editor.long_mode(True, self.editor.toPlainText())
        full = getattr(self.state, "full_tokenizer", None)
        self.cache.set_tokenizer(tokenizer, full)
        if tokenizer is full and full is not None:
            # worked out once per model off the GUI thread (about 20 ms at 32 k tokens), so
            # the slider's first move can already carry lines over
            QTimer.singleShot(FAMILY_TABLES_DELAY_MS, lambda t=full: self._warm_family_tables(t))
        self.why.clear()
        self.highlighter.rehighlight()
        has_template = tokenizer is not None and bool(chat_templates(tokenizer))
        if (self.mode.currentIndex() == CHAT_TAB and not has_template) or tokenizer is None:
            # subtle: before hiding the tab (hiding the current tab makes the next one current)
            self.mode.setCurrentIndex(0)
        self.mode.setTabVisible(CHAT_TAB, has_template)
        self.mode.setVisible(tokenizer is not None)
        self.samples.set_tokenizer(tokenizer)
        if has_template:
            self.chat.set_tokenizer(tokenizer)
        self.refresh()

    def _warm_family_tables(self, full) -> None:
        if self.cache.tokenizer is full:
            run_beside(self.cache.family_tables, name="cut-tables")

    def refresh(self) -> None:
        """Bring counts, strip and why view up to date with the text (the spans already are)."""
        self._refresh_timer.stop()
        self._strip_timer.stop()  # what it would have shown is older than what follows
        self._strip_next = None
        text = self.editor.toPlainText()
        if text != self._announced and hasattr(self.state, "text_changed"):
            self._announced = text
            self.state.text_changed.emit(text)
        if self.cache.tokenizer is None:
            self._lines = []
            self._pending = []
            self.stats = EncodingStats(0, 0, 0, 0, 0, 0, 0)
            loading = getattr(self.state, "analysers_loading", [])
            message = (
                self.tr("Loading the morpheme analyser {0}: the tokens show once it answers…").format(
                    html.escape(", ".join(loading))
                )
                if loading
                else self.tr("No tokenizer yet: train one or open a tokenizer file.")
            )
            self._count_parts = []
            self.counts.setText(f"<span style='color:{theme.current().muted}'>{message}</span>")
            self.strip.set_chips([])
            self.segmented.emit()
            return
        doc = self.editor.document()
        lines: list[LineTokens] = []
        pending: list[int] = []
        block = doc.begin()
        while block.isValid():
            text = block.text()
            if len(text) >= LONG_LINE:
                line = self.cache.peek(text)
                if line is None:  # encoded on the helper thread; no tokens until it lands
                    self._encoder.request(self.cache.tokenizer, text, key=len(lines))
                    pending.append(len(lines))
                    line = LineTokens(text, Encoding(), [], [], [])
                lines.append(line)
            else:
                lines.append(self.cache.get(text))
            block = block.next()
        self._lines = lines
        self._pending = pending
        self._set_wrap(any(len(ln.text) >= LONG_LINE for ln in lines))
        if self._has_long:
            block = doc.begin()
            for ln in lines:
                if len(ln.text) >= LONG_LINE:
                    keep_layout(block)
                block = block.next()
        if pending:
            self._count_parts = []
            waiting = sum(len(lines[n].text) for n in pending)
            self.counts.setText(
                "<span style='color:#667'>"
                + self.tr("Segmenting {0:,} characters in the background… (the text stays editable)").format(
                    waiting
                )
                + "</span>"
            )
            # the strip keeps the chips it shows (of ``_strip_lines``) until the line lands:
            # emptying it and laying 2,000 chips out again on every key would flicker and cost
            self._cursor_timer.stop()
            return  # ``segmented`` once the long lines have landed
        self.stats = stats_of_lines(self.cache.tokenizer, lines)
        self.removed = sum(len(ln.dropped) for ln in lines)
        self._show_counts()
        total = sum(len(ln.encoding.ids) for ln in lines)
        chips, where = chips_for_lines(lines, self.cache.style, self.cache.chips, STRIP_LIMIT)
        if total > STRIP_LIMIT:
            # subtle: a pasted book would make every keystroke lay out 100 k chips; the text
            # itself stays coloured throughout, the strip shows the beginning
            more = total - STRIP_LIMIT
            chips.append(
                Chip(
                    parts=[("…", "marker")],
                    caption=f"+{more:,}",
                    background=palette.SHARED_BACKGROUND,
                    new_word=True,
                    tooltip=f"{more:,} more tokens are coloured in the text, not listed here",
                )
            )
        self._colour_visible()
        if self._has_long and len(chips) > STRIP_NOW_LIMIT and chips != self.strip.chips():
            # subtle: laying 2,000 new chips out takes 15-25 ms, and the editor's colours and
            # counts with their repaint as much again: with a long line in the text the strip
            # follows on the next turn of the event loop (a 100,000-character word's tokens
            # landing was one 60 ms stall)
            self._strip_next = (chips, where, lines)
            self._strip_timer.start()
            return
        self._show_chips(chips, where, lines)

    def _show_pending_chips(self) -> None:
        if self._strip_next is not None:
            chips, where, lines = self._strip_next
            self._show_chips(chips, where, lines)

    def _show_chips(self, chips: list[Chip], where: list[tuple[int, int]], lines: list[LineTokens]) -> None:
        """The strip's part of :meth:`refresh`, then ``segmented``."""
        self._strip_next = None
        self._strip_timer.stop()
        self._chip_where = where
        self._strip_lines = lines
        self._first_chip = []
        n = 0
        for ln in lines:
            self._first_chip.append(n)
            n += len(ln.encoding.ids)
        if chips != self.strip.chips():
            # subtle: a slider move that leaves every line's tokens as they were (most small
            # moves: see LineCache) hands over the same chips: the strip keeps its layout
            self.strip.set_chips(chips)
        self._cursor_timer.stop()
        self._show_current_chip()
        self._why_timer.start()
        self.segmented.emit()

    def _prepare_long_line(self, tokenizer, line: LineTokens) -> None:
        """On the helper thread: what refresh() would otherwise do for the line on the GUI thread
        (its counts, and the chips the strip can show: ``line.chips`` holds only those)."""
        line_stats(tokenizer, line)
        line.chips = chips_for_lines([line], style_for(tokenizer), None, STRIP_LIMIT)[0]

    def busy(self) -> bool:
        """Whether a long line is still being encoded on the helper thread."""
        return bool(self._pending)

    def _line_encoded(self, tokenizer, text: str, line: LineTokens) -> None:
        if tokenizer is not self.cache.tokenizer:
            return  # the slider or a new model moved on meanwhile
        self.cache.put(text, line)
        if self._pending:
            self._refresh_timer.start()

    def _line_failed(self, tokenizer, text: str, message: str) -> None:
        if tokenizer is self.cache.tokenizer and self._pending:
            self._pending = []
            self._count_parts = []
            self.counts.setText(
                "<span style='color:#D7191C'>"
                + self.tr("Could not segment this text: {0}").format(message)
                + "</span>"
            )

    def _set_wrap(self, long_lines: bool, text: str | None = None) -> None:
        """Wrap anywhere while a line is ``LONG_LINE`` characters or more (Qt looks for a word
        boundary first, and in a long word without one that costs seconds per keystroke);
        otherwise at word boundaries, as an editor should."""
        if long_lines != self._has_long:
            self._has_long = long_lines
            if long_lines != self.editor.is_long:  # a paste switched the editor already
                text = self.editor.toPlainText() if text is None and long_lines else text or ""
                self.editor.long_mode(long_lines, text)
        elif long_lines and self.editor.wordWrapMode() != QTextOption.WrapMode.WrapAnywhere:
            self.editor.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)

    def _colour_visible(self) -> None:
        """Colour the long lines where they are in view (the highlighter leaves them out);
        extra selections are painted, not laid out, and follow edits until the next call."""
        self._view_timer.stop()
        if not self._has_long:
            if self.editor.extraSelections():
                self.editor.setExtraSelections([])
            self.editor.set_token_backgrounds([])
            return
        if self._pending:
            return  # the selections already there move with the text until the line lands
        viewport = self.editor.viewport()
        top = self.editor.cursorForPosition(QPoint(0, 0))
        bottom = self.editor.cursorForPosition(QPoint(viewport.width() - 1, viewport.height() - 1))
        selections = []
        painted = []  # plain tokens: their background painted by the editor (see TextEditor)
        block = top.block()
        last = bottom.blockNumber()
        while block.isValid() and block.blockNumber() <= last:
            n = block.blockNumber()
            ln = self._lines[n] if n < len(self._lines) else None
            if ln is not None and len(ln.text) >= LONG_LINE and ln.text == block.text():
                a = top.positionInBlock() if n == top.blockNumber() else 0
                z = bottom.positionInBlock() if n == last else len(ln.text)
                lo = max(0, ln.from_qt(a) - VIEW_MARGIN_CHARS)
                hi = ln.from_qt(z) + VIEW_MARGIN_CHARS
                base = block.position()
                for start, length, fmt in span_formats(ln, ln.tokens_between(lo, hi)):
                    cursor = QTextCursor(block)
                    cursor.setPosition(base + ln.to_qt(start))
                    cursor.setPosition(base + ln.to_qt(start + length), QTextCursor.MoveMode.KeepAnchor)
                    colour = plain_background(fmt)
                    if colour is not None:
                        painted.append((cursor, colour))
                        continue
                    selection = QTextEdit.ExtraSelection()
                    selection.cursor = cursor
                    selection.format = _painted_only(fmt)
                    selections.append(selection)
            block = block.next()
        self.editor.set_token_backgrounds(painted)
        self.editor.setExtraSelections(selections)

    def _show_counts(self) -> None:
        s = self.stats
        unk_colour = "#D7191C" if s.unknown else None
        # when the header is narrow the derived counts go to the tooltip (see _fit_counts);
        # tokens, unknown and removed always show
        self._count_parts = [
            _count_html(f"{s.tokens:,}", self.tr("tokens")),
            _count_html(f"{s.characters:,}", self.tr("characters")),
            _count_html(f"{s.chars_per_token:,.2f}", self.tr("chars/token")),
            _count_html(f"{s.tokens_per_word:,.2f}", self.tr("tokens/word")),
            _count_html(f"{s.unknown:,}", self.tr("unknown"), unk_colour),
        ]
        # characters no token stands for: text the tokenizer loses is never silent
        if self.removed:
            self._count_parts.append(_count_html(f"{self.removed:,}", self.tr("removed"), "#D7191C"))
        self._fit_counts()
        self._place_legend()

    def _fit_counts(self) -> None:
        """The counts on one line beside the tabs: when the panel is too narrow for all of them
        (a 1280-wide window), the ratios, then the character count, move to the tooltip."""
        parts = getattr(self, "_count_parts", None)
        if not parts:
            return
        room = self._header_room() - (self.mode.sizeHint().width() if self.mode.isVisibleTo(self) else 0)
        more = f"<span style='color:{theme.current().muted}'>&nbsp;&nbsp;…</span>"  # the rest: tooltip
        shown = list(parts)
        text = "&nbsp;&nbsp; ".join(shown)
        # dropped in this order: tokens/word, chars/token, characters
        for drop in (3, 2, 1):
            if _html_width(text, self.counts.font()) <= room:
                break
            shown = [p for p in shown if p is not parts[drop]]
            text = "&nbsp;&nbsp; ".join(shown) + more
        self.counts.setText(text)
        self.counts.setToolTip("<br>".join(parts) if len(shown) < len(parts) else "")

    def _header_room(self) -> int:
        margins = self.layout().contentsMargins() if self.layout() is not None else None
        return self.width() - (margins.left() + margins.right() if margins is not None else 0) - 12

    def _place_legend(self) -> None:
        """The legend beside the counts when the tabs, the counts on one line and the legend fit the
        panel's width, else on a line of its own under them (the counts then have the width)."""
        room = self._header_room()
        spacing = 3 * max(self._header_top.spacing(), 0)
        tabs = self.mode.sizeHint().width() if self.mode.isVisibleTo(self) else 0
        counts = _html_width(self.counts.text(), self.counts.font())
        below = tabs + counts + self.legend.sizeHint().width() + spacing > room
        if below == self._legend_below:
            return
        self._legend_below = below
        if below:
            self._header_top.removeWidget(self.legend)
            self._legend_row.addWidget(self.legend, 0)
        else:
            self._legend_row.removeWidget(self.legend)
            self._header_top.insertWidget(2, self.legend, 0)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_counts()
        self._place_legend()

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
        if ln.covering(pos):
            cs, ce = cluster_at(ln.text, pos)  # 👋🏽 is one character to a reader, two code points
            covering = sorted({i for p in range(cs, ce) for i in ln.covering(p)})
            # the earlier pieces of a split character have an empty span at its start (spans
            # never overlap, see core.tokenizer): they are pieces of it too
            offsets = ln.encoding.offsets
            k = covering[0] - 1
            while k >= 0 and offsets[k][0] == offsets[k][1] and cs <= offsets[k][0] < ce:
                covering.insert(0, k)
                k -= 1
        else:
            covering = []
        if len(covering) > 1:
            # byte-level or jamo pieces of one character, or an emoji's code points apart
            head = f"<b>this character is split across {len(covering)} tokens</b>"
            if len(covering) > TOOLTIP_MAX_TOKENS:  # a tooltip taller than the screen helps no one
                head += f" (the first {TOOLTIP_MAX_TOKENS} shown)"
            parts = [
                token_tooltip(self.cache.tokenizer, self.cache.style, ln, i)
                for i in covering[:TOOLTIP_MAX_TOKENS]
            ]
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
        ln = self._strip_lines[line]
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
        if obj is self.editor.viewport() and event.type() == QEvent.Type.Resize and self._has_long:
            self._view_timer.start()
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
        if self.cache.tokenizer is None or not self._lines or self._pending:
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

    def editor_min_height(self) -> int:
        """EDITOR_MIN_LINES lines of text, the document margins and the frame."""
        spacing = self.editor.fontMetrics().lineSpacing()
        margins = 2 * int(self.editor.document().documentMargin()) + 2 * self.editor.frameWidth() + 8
        return EDITOR_MIN_LINES * spacing + margins

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
        enc = ln.encoding
        word = enc.word_ids[i]
        if word is None:
            self.why.clear(
                self.tr("{0} is an added (special) token: it is matched as a whole.").format(enc.tokens[i])
            )
            return
        # the word's tokens are contiguous: walk out from the cursor's (a long line has 50 k)
        first, last = i, i
        while first > 0 and enc.word_ids[first - 1] == word:
            first -= 1
        while last + 1 < len(enc.ids) and enc.word_ids[last + 1] == word:
            last += 1
        # spans are in order and never nest: the word runs from its first token to its last
        start, end = enc.offsets[first][0], max(enc.offsets[last][1], enc.offsets[first][1])
        if self._explain_cut_cluster(ln, first, last, start, end):
            return
        if end - start > WHY_MAX_CHARS:
            self._explain_long_word(ln, i, first, last, end - start)
            return
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

    def _explain_cut_cluster(self, ln: LineTokens, first: int, last: int, start: int, end: int) -> bool:
        """When the word ``start``–``end`` (tokens ``first``–``last``) cuts a grapheme cluster,
        explain every pre-token of that cluster and return True.

        subtle: the whitespace pre-tokenizer's ``\\w`` counts U+200D as a word character, so
        👨‍👩‍👧 arrives as five words: the cursor (which moves by clusters) only ever reaches the
        first, and the view explained 👨 alone."""
        text, offsets = ln.text, ln.encoding.offsets
        if text.isascii() or end <= start:
            return False
        cs, ce = cluster_at(text, start)[0], cluster_at(text, end - 1)[1]
        if cs >= start and ce <= end:
            return False
        # the whole words the cluster touches, and the whole clusters those words touch, until
        # neither grows: pre-tokenizing that text gives the same pieces. subtle: one word may
        # join two clusters (💻👨 in 👩🏽‍💻👨‍👩‍👧), and the view then speaks of both
        words = ln.encoding.word_ids
        while True:
            while first > 0 and (offsets[first - 1][1] > cs or words[first - 1] == words[first] is not None):
                first -= 1
            while last + 1 < len(offsets) and (
                offsets[last + 1][0] < ce or words[last + 1] == words[last] is not None
            ):
                last += 1
            lo, hi = min(cs, offsets[first][0]), max(ce, offsets[last][1])
            grown = min(cs, cluster_at(text, lo)[0]), max(ce, cluster_at(text, hi - 1)[1])
            if grown == (cs, ce):
                break
            cs, ce = grown
        pieces = [p.normalized for p in _pieces(self.cache.tokenizer, text[lo:hi])]
        if len(pieces) < 2:
            return False
        self.why.show_pieces(self.cache.tokenizer, text[cs:ce], pieces)
        return True

    def _explain_long_word(self, ln: LineTokens, i: int, first: int, last: int, length: int) -> None:
        """The why view of a word longer than ``WHY_MAX_CHARS``: the tokens around the cursor's,
        each with how the model came to have it, and a line saying the view stops there."""
        enc = ln.encoding
        tok = self.cache.tokenizer
        lo, hi = max(first, i - WHY_WINDOW_TOKENS), min(last, i + WHY_WINDOW_TOKENS)
        rows = []
        for j in range(lo, hi + 1):
            s, e = enc.offsets[j]
            origin = (
                "" if ln.unknown[j] else token_origin(tok.model, enc.tokens[j], enc.ids[j], self.cache.style)
            )
            mark = " style='background:#F6C85F'" if j == i else ""
            rows.append(
                f"<tr{mark}><td style='color:#555'>{s:,}–{e:,}</td><td>{render_html(enc.tokens[j], self.cache.style)}</td>"
                f"<td style='color:#555'>{enc.ids[j]}</td><td>{html.escape(origin)}</td></tr>"
            )
        note = self.tr(
            "This word is {0:,} characters long ({1:,} tokens): the why view explains words of up to {2} "
            "characters step by step. Tokens {3:,} to {4:,} of the word, around the cursor:"
        ).format(length, last - first + 1, WHY_MAX_CHARS, lo - first + 1, hi - first + 1)
        self.why.show_html(
            self.tr("Why this long word was cut this way"),
            f"<p style='color:#444'>{html.escape(note)}</p><table cellspacing=0 cellpadding=2>{''.join(rows)}</table>",
            key=(id(ln), lo, hi),
        )

    def step_token(self, step: int) -> None:
        """Move the text cursor to the start of the next (``step`` = 1) or previous (-1) token."""
        if not self._lines:
            return
        cursor = self.editor.textCursor()
        line, pos = self._line_and_pos(cursor)
        target = None
        n = line
        while target is None and 0 <= n < len(self._lines):
            target = _next_start(self._lines[n], pos if n == line else None, step)
            n += step
        if target is None:
            return
        n -= step
        s = target
        block = self.editor.document().findBlockByNumber(n)
        cursor.setPosition(block.position() + self._lines[n].to_qt(s))
        self.editor.setTextCursor(cursor)

    def _chip_clicked(self, index: int) -> None:
        if index >= len(self._chip_where) or self._pending:
            return  # the "… +N more" chip, or the strip is older than the text
        line, i = self._chip_where[index]
        s, e = self._lines[line].encoding.offsets[i]
        block = self.editor.document().findBlockByNumber(line)
        ln = self._lines[line]
        cursor = QTextCursor(block)
        cursor.setPosition(block.position() + ln.to_qt(s))
        cursor.setPosition(block.position() + ln.to_qt(e), QTextCursor.MoveMode.KeepAnchor)
        self.editor.setTextCursor(cursor)


def _next_start(line: LineTokens, pos: int | None, step: int) -> int | None:
    """The first token start after ``pos`` (``step`` = 1) or the last before it (-1) in ``line``;
    with ``pos`` None, its first (last) token start. Empty tokens have no start to go to."""
    offsets = line.encoding.offsets
    if not offsets:
        return None
    starts = line.starts()
    if step > 0:
        j = 0 if pos is None else bisect.bisect_right(starts, pos)
        while j < len(offsets) and offsets[j][1] <= offsets[j][0]:
            j += 1
        return offsets[j][0] if j < len(offsets) else None
    j = len(offsets) - 1 if pos is None else bisect.bisect_left(starts, pos) - 1
    while j >= 0 and offsets[j][1] <= offsets[j][0]:
        j -= 1
    return offsets[j][0] if j >= 0 else None


def plain_background(fmt: QTextCharFormat) -> QColor | None:
    """The background of a plain token's format (a colour behind the tokens' ink, nothing
    else), which the editor can paint itself; None for any other look (unknown, special,
    split, dropped), which stays an extra selection."""
    props = fmt.properties()
    if set(props) != _PLAIN_PROPERTIES or fmt.foreground().color() != TOKEN_INK:
        return None
    return fmt.background().color()


_PLAIN_PROPERTIES = {QTextCharFormat.Property.BackgroundBrush, QTextCharFormat.Property.ForegroundBrush}


def _painted_only(fmt: QTextCharFormat) -> QTextCharFormat:
    """``fmt`` without what would change the layout (bold): an extra selection is painted over
    text already laid out."""
    out = QTextCharFormat(fmt)
    out.clearProperty(QTextCharFormat.Property.FontWeight)
    return out


def _pieces(tokenizer, text: str) -> list[NormalizedString]:
    try:
        return tokenizer.pieces(text)
    except Exception:  # noqa: BLE001 - the why view is an extra; the spans are already shown
        return []
