"""Why a word was cut the way it was: merges, greedy matches or the Unigram lattice.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "hugs": 5}
    >>> tokenizer = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=10)))
    >>> view = WhyView(); view.show_piece(tokenizer, "hugs")
    >>> view.steps_text()      # BPE: the merges applied, in rank order (#3 p + ug is not one)
    'h u g s | #1 u + g → h ug s | #2 h + ug → hug s | #4 hug + s → hugs'

- **BPE**: the word's symbols at the start (characters, ``##``/``</w>`` forms,
  unknown ones marked), then one row per merge applied, in the order the
  encoder applies them (lowest rank first), each showing the whole symbol
  sequence with the new symbol highlighted.
  A rank file's model (tiktoken) starts from single bytes and joins,
  each step numbered by the joined token's rank (its id).
- **WordPiece**: the greedy longest-match-first walk: at each position, the
  longest vocabulary entry that matches; a position with no match turns the
  whole word into the unknown token.
- **Unigram**: the lattice drawn (:class:`LatticeView`): the characters on an
  axis, every candidate piece as a box spanning its characters with its
  log-probability, the best (Viterbi) path highlighted; the next best
  segmentations are listed below it, and a few sampled ones (subword
  regularization, what training with sampling would see).
"""

from __future__ import annotations

import html
import math
import random
import re

import regex
from PySide6.QtCore import QCoreApplication, QObject, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter, QPen, QTextDocument, QTextTable
from PySide6.QtWidgets import (
    QLabel,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from core.bytelevel import CHAR_TO_BYTE
from subword_gui.style import theme
from subword_gui.tokens import palette
from subword_gui.tokens.render import TokenStyle, is_superword, render_html, render_token, style_for

_MAX_LATTICE_ROWS = 14
TITLE_CHARACTERS, TITLE_TOKENS = 24, 12  # of a piece and its tokens in the title (the rest: tooltip)
LATTICE_MIN_HEIGHT = 140  # axis, characters, best path and one row of candidates
_NBEST = 5
NBEST_MIN_ROWS = 3  # segmentations the n-best list keeps in view under the lattice
WHY_MIN_HEIGHT = 240  # the floor of the whole view, whatever it shows
SAMPLES, SAMPLE_ALPHA, SAMPLE_SEED = 3, 0.1, 0
# subtle: the left-to-right mark keeps symbols in the order they are read. Chips, list items
# and merge operands are separated by neutral characters (spaces, commas, "+"), which the
# Unicode bidirectional algorithm gives to the strong characters around them: between two
# Arabic or Hebrew symbols they read right to left, and the row came out reversed
# ("ا ل س" for "سلا"); a cell starting with one became a right-to-left paragraph.
LRM = "\u200e"


def model_kind(model) -> str:
    """``"bpe"``, ``"wordpiece"``, ``"unigram"`` or ``"other"``, from what the model can explain."""
    return _KIND_OF_EXPLAINS.get(model.explains(), "other")


# what ModelBase.explains() says -> the view that shows it
# (a rank file's joins are merges too, numbered by the joined token's rank: bpe_steps_html)
_KIND_OF_EXPLAINS = {"lattice": "unigram", "merges": "bpe", "ranks": "bpe", "longest match": "wordpiece"}


def initial_symbols(model, piece: str) -> list[tuple[str, bool]]:
    """BPE's starting symbols of ``piece``: ``(symbol, known)``; the continuing prefix
    on non-first characters and the end-of-word suffix on the last, as the encoder does.

    >>> from core.models.bpe.model import BPE
    >>> bpe = BPE({"h": 0, "u": 1, "g": 2, "s</w>": 3}, [], end_of_word_suffix="</w>")
    >>> initial_symbols(bpe, "hugs")
    [('h', True), ('u', True), ('g', True), ('s</w>', True)]
    >>> initial_symbols(bpe, "hus")    # "u" known, then "s" in its end-of-word form
    [('h', True), ('u', True), ('s</w>', True)]
    >>> initial_symbols(bpe, "gush")   # no "h</w>" in the vocabulary
    [('g', True), ('u', True), ('s', False), ('h</w>', False)]
    """
    prefix = model.continuing_subword_prefix or ""
    suffix = model.end_of_word_suffix or ""
    out = []
    for i, c in enumerate(piece):
        s = (prefix if i else "") + c + (suffix if i == len(piece) - 1 else "")
        out.append((s, model.token_to_id(s) is not None))
    return out


def _chip_cells(
    symbols, style: TokenStyle, highlight: int | None = None, unknown: set[int] = frozenset()
) -> str:
    """Symbols as inline chips. (Inline spans, not a nested table per row: QTextDocument
    lays nested tables out slowly, and this view is refilled while the user types.)"""
    cells = []
    for i, sym in enumerate(symbols):
        if i in unknown:
            bg, fg = palette.UNKNOWN_BACKGROUND.name(), "#FFFFFF"
        elif i == highlight:
            bg, fg = "#F6C85F", "#111111"
        else:
            bg, fg = "#E3E9F0", "#111111"
        weight = "bold" if i == highlight or i in unknown else "normal"
        body = (
            render_html(sym, style)
            if i not in unknown
            else html.escape(render_token(sym, style)).replace(" ", "&nbsp;")
        )
        cells.append(
            f"<span style='background-color:{bg}; color:{fg}; font-weight:{weight}'>&nbsp;{body}&nbsp;</span>"
        )
    # subtle: a line breaks between chips (a zero-width space after the gap), never inside one:
    # with only non-breaking gaps the one break left was inside a byte chip, "⟨EC" / "9D⟩"
    return LRM + f"&nbsp;\u200b{LRM}".join(cells)


def bpe_steps_html(model, piece: str, style: TokenStyle) -> tuple[str, list[str]]:
    """HTML for the BPE walk-through, and the same as plain lines (for tests and copying)."""
    start_label = QCoreApplication.translate("Tokens", "start")
    start = initial_symbols(model, piece)
    symbols = [s for s, _ in start]
    unknown = {i for i, (_, known) in enumerate(start) if not known}
    # a character a byte-fallback model lacks is written as its UTF-8 bytes, not as the unknown
    # token (the why view called them unknown while the chips showed <0xEC> <0xB2> <0xA0>)
    as_bytes = {i for i in unknown if _byte_pieces(model, symbols[i])}
    unknown -= as_bytes
    steps = model.explain(piece)
    by_rank = model.explains() == "ranks"  # a rank file's: each step names the joined token's rank
    plain = [" ".join(render_token(s, style) for s in symbols)]
    rows = [
        f"<tr><td style='color:{theme.current().muted}; padding-right:8px'>{start_label}</td>"
        f"<td>{_chip_cells(symbols, style, None, unknown)}</td></tr>"
    ]
    for step in steps:
        seq = list(step.symbols)
        # The new symbol is the one starting at step.position: count characters to find it.
        hi = _symbol_at(seq, step.position, model)
        number = (
            QCoreApplication.translate("Tokens", "rank {0}").format(step.rank)
            if by_rank
            else f"#{step.rank + 1}"
        )
        label = (
            f"{LRM}{number}&nbsp;&nbsp;{render_html(step.left, style)}{LRM} + {render_html(step.right, style)}"
            f"{LRM} → <b>{render_html(step.merged, style)}</b>"
        )
        rows.append(
            f"<tr><td style='color:{theme.current().muted}; padding-right:8px'>{label}</td><td>{_chip_cells(seq, style, hi)}</td></tr>"
        )
        plain.append(
            (f"rank {step.rank}" if by_rank else f"#{step.rank + 1}")
            + f" {render_token(step.left, style)} + {render_token(step.right, style)} → "
            + " ".join(render_token(s, style) for s in seq)
        )
    whole = model.token_to_id(piece) if by_rank and len(symbols) > 1 else None
    if not steps and whole is not None:
        # tiktoken looks the whole piece up before joining: a token the joins do not reach
        line = QCoreApplication.translate(
            "Tokens", "the whole piece is a token (rank {0}), so it is taken whole, without joining its bytes"
        ).format(whole)
        rows.append(f"<tr><td colspan=2 style='color:{theme.current().muted}'>{line}</td></tr>")
        plain.append(f"whole: rank {whole} → {render_token(piece, style)}")
    elif not steps:
        no_merge = QCoreApplication.translate("Tokens", "no merge applies to this word")
        rows.append(f"<tr><td colspan=2 style='color:{theme.current().muted}'>{no_merge}</td></tr>")
    if unknown:
        # say why they are <unk>: training never saw these characters (the chips only show red)
        missing = LRM + f",{LRM} ".join(
            dict.fromkeys(render_html(symbols[i], style) for i in sorted(unknown))
        )
        line = QCoreApplication.translate(
            "Tokens", "not in the vocabulary (never seen in training), so each becomes the unknown token: {0}"
        ).format(missing)
        rows.append(f"<tr><td colspan=2 style='color:{palette.UNKNOWN_BACKGROUND.name()}'>{line}</td></tr>")
        plain.append(f"unknown: {', '.join(render_token(symbols[i], style) for i in sorted(unknown))}")
    if as_bytes:
        chars = LRM + f",{LRM} ".join(dict.fromkeys(render_html(symbols[i], style) for i in sorted(as_bytes)))
        line = QCoreApplication.translate(
            "Tokens", "not in the vocabulary, so each is written as its UTF-8 bytes (byte fallback): {0}"
        ).format(chars)
        rows.append(f"<tr><td colspan=2 style='color:{theme.current().muted}'>{line}</td></tr>")
        plain.append(f"bytes: {', '.join(render_token(symbols[i], style) for i in sorted(as_bytes))}")
    # SentencePiece BPE merges by its pieces' scores: its ranks are their places, best first
    counts = MergeCounts()
    if by_rank:
        applied = counts.by_rank(len(steps))
    elif model.merge_list() is not None:
        applied = counts.applied(len(steps))
    else:
        applied = counts.by_score(len(steps))
    head = f"<p style='color:{theme.current().muted}'>{applied}</p>"
    supers_html, supers_plain = superword_merges_html(model, [t.value for t in model.tokenize(piece)], style)
    plain.extend(supers_plain)
    return head + supers_html + "<table cellspacing=0 cellpadding=2>" + "".join(rows) + "</table>", plain


class MergeCounts(QObject):
    """The why view's sentences that count merges, in the plural form their number takes ("1 merge",
    "2 merges": the English catalogue's numerus forms). subtle: pyside6-lupdate reads the count of
    ``self.tr(text, None, n)`` but not of ``QCoreApplication.translate``, hence a QObject."""

    def applied(self, n: int) -> str:
        return self.tr(
            "{0} merge(s) applied, lowest rank first (rank = the order training learned them).", None, n
        ).format(n)

    def by_score(self, n: int) -> str:
        return self.tr(
            "{0} merge(s) applied, each time the pair whose merged piece scores highest "
            "(# = the place of its score among the model's scores, best first).",
            None,
            n,
        ).format(n)

    def by_rank(self, n: int) -> str:
        return self.tr(
            "{0} merge(s) applied, starting from single bytes: each time the adjacent pair whose joined "
            "bytes have the lowest rank in the rank file (rank = the joined token's id).",
            None,
            n,
        ).format(n)

    def built(self, token: str, n: int) -> str:
        return self.tr(
            "{0} spans a space (a superword): built by {1} merge(s), in the order learned", None, n
        ).format(token, n)


def build_merges(model, token: str, limit: int = 256) -> list[tuple[int, str, str, str]]:
    """The merges that built ``token`` from its base symbols, ``(rank, left, right, merged)`` in
    rank order (the order training learned them), from the model's own merge list.

    >>> from core.models.bpe.model import BPE
    >>> build_merges(BPE({"a": 0, "b": 1, "ab": 2, "abb": 3}, [("a", "b"), ("ab", "b")]), "abb")
    [(0, 'a', 'b', 'ab'), (1, 'ab', 'b', 'abb')]
    """
    merges = model.merge_list()
    if merges is None:
        return []
    rank_of = model.merge_rank
    out: list[tuple[int, str, str, str]] = []
    todo, seen = [token], set()
    while todo and len(out) < limit:
        t = todo.pop()
        rank = rank_of(t)
        if rank is None or t in seen:
            continue
        seen.add(t)
        left, right = merges[rank]
        out.append((rank, left, right, t))
        todo.extend((left, right))
    return sorted(out)


def superword_merges_html(model, tokens: list[str], style: TokenStyle) -> tuple[str, list[str]]:
    """For each superword among ``tokens`` (a token that spans a space, SuperBPE's), the merges
    that built it: its stage-2 merges across spaces on top of the stage-1 merges of its words."""
    supers = list(dict.fromkeys(t for t in tokens if is_superword(t, style)))
    if not supers:
        return "", []
    muted = theme.current().muted
    parts, plain = [], []
    for token in supers:
        merges = build_merges(model, token)
        if not merges:
            continue
        title = MergeCounts().built(f"<b>{LRM}{render_html(token, style)}{LRM}</b>", len(merges))
        items = []
        for rank, left, right, merged in merges:
            across = is_superword(merged, style)
            label = (
                f"{LRM}#{rank + 1}&nbsp;&nbsp;{render_html(left, style)}{LRM} + {render_html(right, style)}"
                f"{LRM} → {render_html(merged, style)}"
            )
            colour = theme.current().superword if across else muted
            items.append(f"<li style='color:{colour}'>{label}</li>")
        parts.append(f"<p>{title}</p><ul style='margin-top:0'>{''.join(items)}</ul>")
        plain.append(
            f"superword {render_token(token, style)}: "
            + "; ".join(
                f"#{rank + 1} {render_token(left, style)} + {render_token(right, style)} → {render_token(merged, style)}"
                for rank, left, right, merged in merges
            )
        )
    return "".join(parts), plain


def _byte_pieces(model, char: str) -> bool:
    """Whether ``model`` writes ``char`` as byte pieces ``<0xEC>`` (byte fallback)."""
    try:
        tokens = model.tokenize(char)
    except Exception:  # noqa: BLE001 - an explanation must not break the view
        return False
    return bool(tokens) and all(re.fullmatch(r"<0x[0-9A-F]{2}>", t.value) for t in tokens)


def _symbol_at(symbols: list[str], position: int, model) -> int | None:
    """Index of the symbol that starts at character ``position`` of the piece."""
    prefix = model.continuing_subword_prefix or ""
    suffix = model.end_of_word_suffix or ""
    pos = 0
    for i, s in enumerate(symbols):
        if pos == position:
            return i
        body = s
        if prefix and i and body.startswith(prefix):
            body = body[len(prefix) :]
        if suffix and i == len(symbols) - 1 and body.endswith(suffix):
            body = body[: -len(suffix)]
        pos += len(body)
    return None


def wordpiece_steps_html(model, piece: str, style: TokenStyle) -> tuple[str, list[str]]:
    """HTML for WordPiece's greedy longest-match-first walk, and plain lines."""
    matches = list(model.explain(piece))
    plain, rows = [], []
    failed = False
    muted = theme.current().muted
    longest = QCoreApplication.translate("Tokens", "longest match")
    for m in matches:
        start, end, token = m[0], m[1], m[2]
        where = html.escape(piece[start:]) if token is None else html.escape(piece[start:end])
        at = QCoreApplication.translate("Tokens", "at {0}").format(start)
        if token is None:
            failed = True
            plain.append(f"{start}: no match")
            rows.append(
                f"<tr><td style='color:{muted}'>{at}</td><td>{where}</td>"
                f"<td style='color:{palette.UNKNOWN_BACKGROUND.name()}'><b>"
                + QCoreApplication.translate("Tokens", "no vocabulary entry matches here")
                + "</b></td></tr>"
            )
        else:
            plain.append(f"{start}-{end}: {render_token(token, style)}")
            longer = _longer_misses(model, piece, start, end)
            after = (
                QCoreApplication.translate("Tokens", "after 1 longer string not in the vocabulary")
                if longer == 1
                else QCoreApplication.translate(
                    "Tokens", "after {0} longer strings not in the vocabulary"
                ).format(longer)
            )
            tried = f"<span style='color:{muted}'> {after}</span>" if longer else ""
            rows.append(
                f"<tr><td style='color:{muted}'>{at}</td><td>{where}</td>"
                f"<td>{longest} {_chip_cells([token], style, 0)}{tried}</td></tr>"
            )
    unk = model.unk_token
    note = ""
    if failed:
        note = (
            "<p>"
            + QCoreApplication.translate(
                "Tokens", "<b style='color:{0}'>So the whole word becomes {1}</b>, as BERT does."
            ).format(palette.UNKNOWN_BACKGROUND.name(), html.escape(str(unk)))
            + "</p>"
        )
        plain.append(f"→ {unk}")
    head = (
        f"<p style='color:{muted}'>"
        + QCoreApplication.translate("Tokens", "Greedy longest match first, left to right.")
        + "</p>"
    )
    return head + "<table cellspacing=4 cellpadding=2>" + "".join(rows) + "</table>" + note, plain


def _longer_misses(model, piece: str, start: int, end: int, limit: int = 64) -> int:
    """How many longer candidates at ``start`` the greedy matcher tried before ``piece[start:end]``
    (the prefix ``##`` on non-initial ones, as the model adds it), counted up to ``limit``.

    >>> from core.models.wordpiece.model import WordPiece
    >>> wp = WordPiece({"[UNK]": 0, "h": 1, "hug": 2, "##s": 3, "##g": 4})
    >>> _longer_misses(wp, "hugs", 0, 3)   # "hugs" is not in the vocabulary, "hug" is
    1
    >>> _longer_misses(wp, "hux", 0, 1)    # "hux" and "hu" before "h"
    2
    >>> _longer_misses(wp, "hugs", 3, 4)   # "##s" is the last character: nothing longer
    0
    """
    prefix = model.continuing_subword_prefix or ""
    longest = min(len(piece), start + limit)
    misses = 0
    for stop in range(longest, end, -1):
        candidate = (prefix if start else "") + piece[start:stop]
        if model.token_to_id(candidate) is None:
            misses += 1
    return misses


# -- Unigram lattice ------------------------------------------------------------------


class LatticeView(QWidget):
    """Draws a Unigram lattice: characters on top, the best path under them in colour,
    every other candidate piece below, packed in rows, each with its log-probability."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.lattice = None
        self.best: list = []
        self.rows: list[list] = []  # other nodes packed into rows that do not overlap
        self.hidden = 0
        self.style_ = TokenStyle()
        self.unk_id: int | None = None  # the unknown token's nodes are drawn as unknown
        self._cell = 36
        self._small = QFont(self.font())
        self._small.setPointSizeF(max(6.0, self.font().pointSizeF() * 0.75))

    def set_lattice(self, lattice, style: TokenStyle = TokenStyle()) -> None:
        self.lattice = lattice
        self.style_ = style
        self.best = lattice.best_path() if lattice is not None else []
        best_ids = {(n.start, n.end, n.id) for n in self.best}
        others = [
            n
            for n in (lattice.nodes if lattice is not None else [])
            if (n.start, n.end, n.id) not in best_ids
        ]
        # Longer pieces first, then by score, so the interesting candidates come up top.
        others.sort(key=lambda n: (-(n.end - n.start), -n.score, n.start))
        rows: list[list] = []
        hidden = 0
        for node in others:
            for row in rows:
                if all(node.end <= m.start or node.start >= m.end for m in row):
                    row.append(node)
                    break
            else:
                if len(rows) < _MAX_LATTICE_ROWS:
                    rows.append([node])
                else:
                    hidden += 1
        self.rows, self.hidden = rows, hidden
        fm = QFontMetrics(self.font())
        text = lattice.text if lattice is not None else ""
        widest = max([fm.horizontalAdvance(render_token(c, style)) for c in text] + [10])
        # a one-character piece of the best path (an unknown character's <unk>) is drawn bold
        # in one cell: the cell fits its label, which read "<u…" before
        bold = QFont(self.font())
        bold.setBold(True)
        bold_fm = QFontMetrics(bold)
        single = [render_token(n.piece, style) for n in self.best if n.end - n.start == 1]
        widest = max([widest] + [bold_fm.horizontalAdvance(label) for label in single])
        self._cell = max(38, widest + 14)
        self.setMinimumSize(self.sizeHint())
        self.updateGeometry()
        self.update()

    def content_height(self) -> int:
        """The height :meth:`paintEvent` draws: axis, characters, best path, candidate rows."""
        return 10 + 14 + 34 + 44 + 40 * len(self.rows) + (18 if self.hidden else 0) + 6

    def sizeHint(self) -> QSize:  # noqa: N802
        n = len(self.lattice.text) if self.lattice is not None else 0
        return QSize(20 + n * self._cell + 110, self.content_height())

    def _box(
        self, p: QPainter, x0: float, y: float, node, fill: QColor, border: QColor, bold: bool, ink=None
    ) -> None:
        w = (node.end - node.start) * self._cell
        r = QRectF(x0 + node.start * self._cell + 2, y, w - 4, 34)
        p.setPen(QPen(border, 2 if bold else 1))
        p.setBrush(QBrush(fill))
        p.drawRoundedRect(r, 4, 4)
        font = QFont(self.font())
        font.setBold(bold)
        p.setFont(font)
        p.setPen(ink or QColor("#111111"))
        label = render_token(node.piece, self.style_)
        p.drawText(
            r.adjusted(2, 1, -2, -14),
            Qt.AlignmentFlag.AlignCenter,
            QFontMetrics(font).elidedText(label, Qt.TextElideMode.ElideRight, int(r.width()) - 4),
        )
        p.setFont(self._small)
        p.setPen(ink or QColor("#444444"))
        p.drawText(r.adjusted(2, 19, -2, 0), Qt.AlignmentFlag.AlignCenter, f"{node.score:.2f}")

    def paintEvent(self, event) -> None:  # noqa: N802
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        colours = theme.current()
        p.fillRect(self.rect(), QColor(colours.base))
        if self.lattice is None:
            return
        text = self.lattice.text
        x0, y = 20.0, 10.0
        # 1. the character axis, with positions between characters
        p.setFont(self._small)
        p.setPen(QColor("#888888"))
        for i in range(len(text) + 1):
            p.drawText(QRectF(x0 + i * self._cell - 15, y, 30, 12), Qt.AlignmentFlag.AlignCenter, str(i))
        y += 14
        for i, c in enumerate(text):
            r = QRectF(x0 + i * self._cell, y, self._cell, 26)
            p.setPen(QPen(QColor("#B0B0B0"), 1))
            p.setBrush(QBrush(QColor("#F4F4F4")))
            p.drawRect(r)
            p.setFont(self.font())
            p.setPen(QColor("#111111"))
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, render_token(c, self.style_))
        y += 34
        # 2. the best path, in token colours
        keys = palette.colour_keys([n.id for n in self.best])
        for node, key in zip(self.best, keys):
            unknown = node.id == self.unk_id
            fill = palette.UNKNOWN_BACKGROUND if unknown else palette.colour_of(key)
            ink = palette.UNKNOWN_FOREGROUND if unknown else None  # dark red on red was unreadable
            self._box(p, x0, y, node, fill, QColor("#202020"), True, ink)
        if self.best:
            total = sum(n.score for n in self.best)
            p.setFont(self._small)
            p.setPen(QColor(colours.text))
            p.drawText(
                QRectF(x0 + len(text) * self._cell + 4, y, 200, 34),
                Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                QCoreApplication.translate("Tokens", "best  {0:.2f}").format(total),
            )
        y += 44
        # 3. every other candidate
        for row in self.rows:
            for node in row:
                self._box(p, x0, y, node, QColor("#F7F7F7"), QColor("#9A9A9A"), False)
            y += 40
        if self.hidden:
            p.setFont(self._small)
            p.setPen(QColor(colours.muted))
            p.drawText(
                QRectF(x0, y, 400, 16),
                Qt.AlignmentFlag.AlignLeft,
                QCoreApplication.translate("Tokens", "… and {0} more candidates").format(self.hidden),
            )
        p.end()


def _nbest_table_html(best: list[tuple[list[str], float]], style: TokenStyle) -> str:
    """The n-best list's heading and table: one row per segmentation, best first."""
    muted = theme.current().muted
    rows = [
        f"<tr><td style='color:{muted}'>{rank}.</td><td>{_chip_cells(tokens, style)}</td>"
        f"<td style='color:{muted}'>{score:.2f} &nbsp;(p ∝ {math.exp(score - best[0][1]):.2g})</td></tr>"
        for rank, (tokens, score) in enumerate(best, 1)
    ]
    heading = QCoreApplication.translate(
        "Tokens", "The best segmentations (sum of log-probabilities; relative probability to the best):"
    )
    return f"<p style='color:{muted}'>{heading}</p><table cellspacing=2>{''.join(rows)}</table>"


def table_rows_height(doc: QTextDocument, rows: int) -> int:
    """Pixels from the top of ``doc`` to the bottom of row ``rows`` of its first table (of its
    last row if it has fewer), document margin included: the height that shows them whole."""
    table = next((f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable)), None)
    if table is None or table.rows() == 0:
        return math.ceil(doc.size().height())
    cell = table.cellAt(min(rows, table.rows()) - 1, 1)
    bottom = doc.documentLayout().blockBoundingRect(cell.lastCursorPosition().block()).bottom()
    return math.ceil(
        bottom + table.format().cellSpacing() + table.format().cellPadding() + doc.documentMargin()
    )


def unigram_nbest_html(model, piece: str, style: TokenStyle, k: int = _NBEST) -> tuple[str, list[str]]:
    try:
        best = model.nbest(piece, k)
    except Exception:  # noqa: BLE001 - an optional extra must not break the view
        return "", []
    plain = []
    for rank, (tokens, score) in enumerate(best, 1):
        shown = " ".join(render_token(t, style) for t in tokens)
        plain.append(f"{rank}. {shown} ({score:.2f})")
    body = _nbest_table_html(best, style)
    # Subword regularization: what training with sampling would feed the model. A fixed
    # seed, so the view does not flicker between repaints of the same word.
    if model.can_sample():
        sampler = model.sample
        rng = random.Random(SAMPLE_SEED)
        try:
            samples = [[t.value for t in sampler(piece, SAMPLE_ALPHA, rng)] for _ in range(SAMPLES)]
        except Exception:  # noqa: BLE001 - an optional extra must not break the view
            samples = []
        if samples:
            body += (
                f"<p style='color:{theme.current().muted}'>"
                + QCoreApplication.translate(
                    "Tokens", "Sampled segmentations (subword regularization, α = {0}):"
                ).format(SAMPLE_ALPHA)
                + "</p>"
                + "<br>".join(_chip_cells(t, style) for t in samples)
            )
            plain.extend("sample: " + " ".join(render_token(t, style) for t in toks) for toks in samples)
    return body, plain


def title_cut(piece: str, limit: int, byte_level: bool) -> str:
    """The start of ``piece`` that the why view's title shows: whole graphemes (an emoji's ZWJ
    sequence, a syllable with its marks) of at most ``limit`` characters, and for a byte-level
    piece whole UTF-8 characters of at most ``limit`` bytes; a cut inside one showed a stray
    byte chip (``⟨F0⟩…``). At least one grapheme, unless that one alone is over four limits.

    >>> title_cut("👩🏽‍💻👩🏽‍💻", 6, byte_level=False)
    '👩🏽‍💻'
    >>> from core.bytelevel import bytes_to_chars
    >>> title_cut(bytes_to_chars("a😀".encode()), 3, byte_level=True) == bytes_to_chars(b"a")
    True
    """
    if len(piece) <= limit:
        return piece
    as_bytes = byte_level and all(c in CHAR_TO_BYTE for c in piece)
    # surrogateescape: a byte that is no whole character stays one grapheme of one byte
    text = bytes(CHAR_TO_BYTE[c] for c in piece).decode("utf-8", "surrogateescape") if as_bytes else piece

    def size(g: str) -> int:
        return len(g.encode("utf-8", "surrogateescape")) if as_bytes else len(g)

    n = 0
    for grapheme in regex.finditer(r"\X", text):
        step = size(grapheme.group())
        if n and n + step > limit:
            break
        n += step
        if n >= limit:
            break
    return piece[:n] if n <= 4 * limit else piece[:limit]


def _steps_html(model, kind: str, piece: str, style: TokenStyle) -> tuple[str, list[str]]:
    """The step-by-step explanation of one piece as HTML and plain lines; for Unigram, the
    n-best list (the lattice is drawn only for a piece shown alone)."""
    if kind == "bpe":
        return bpe_steps_html(model, piece, style)
    if kind == "wordpiece":
        return wordpiece_steps_html(model, piece, style)
    if kind == "unigram":
        return unigram_nbest_html(model, piece, style)
    return "<p>" + QCoreApplication.translate(
        "Tokens", "This model does not explain its choices."
    ) + "</p>", []


class WhyView(QWidget):
    """The "why" view of one pre-token; :meth:`show_piece` fills it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.title = QLabel(self.tr("Put the cursor in a word to see why it was cut that way."))
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.steps = QTextBrowser()
        self.steps.setOpenLinks(False)
        self.lattice_view = LatticeView()
        self.lattice_scroll = QScrollArea()
        self.lattice_scroll.setWidget(self.lattice_view)
        self.lattice_scroll.setWidgetResizable(False)
        self.lattice_scroll.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.nbest = QTextBrowser()
        # subtle: the lattice needs its characters, the best path and a row or two of
        # candidates in view to be read; the n-best list yields height first.
        self.lattice_scroll.setMinimumHeight(LATTICE_MIN_HEIGHT)
        # ...but not below NBEST_MIN_ROWS rows: one row (what 1280x800 showed) is no list
        self._fit_nbest(_nbest_table_html([(["▁un", "hug"], -6.0)] * NBEST_MIN_ROWS, TokenStyle()))
        unigram_page = QSplitter(Qt.Orientation.Vertical)
        unigram_page.setChildrenCollapsible(False)
        unigram_page.addWidget(self.lattice_scroll)
        unigram_page.addWidget(self.nbest)
        unigram_page.setStretchFactor(0, 3)
        unigram_page.setStretchFactor(1, 1)
        unigram_page.setSizes([300, 90])
        self.unigram_page = unigram_page
        self.stack = QStackedWidget()
        self.stack.addWidget(self.steps)
        self.stack.addWidget(unigram_page)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.stack, 1)
        self.piece: object = None  # what is explained: a piece, or a key of what is shown
        self.kind = "other"
        self._plain: list[str] = []

    def _fit_nbest(self, body: str) -> None:
        """Show ``body`` in the n-best list, with room for its first NBEST_MIN_ROWS rows.

        subtle: measured on the document (fonts, chips and a wrapped heading differ between
        machines and languages); the probe in ``__init__`` sizes the view before the first
        lattice, so the layout does not jump when one arrives."""
        self.nbest.setHtml(body)
        doc = self.nbest.document()
        if doc.textWidth() <= 0:  # not laid out yet: measure as wide as the view will be
            doc.setTextWidth(max(self.nbest.viewport().width(), 400))
        need = table_rows_height(doc, NBEST_MIN_ROWS) + 2 * self.nbest.frameWidth()
        if need != self.nbest.minimumHeight():
            self.nbest.setMinimumHeight(need)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        """The layout's minimum (the lattice and NBEST_MIN_ROWS rows of the n-best list), at
        least WHY_MIN_HEIGHT: a splitter holding the view keeps that much for it."""
        hint = super().minimumSizeHint()
        return QSize(hint.width(), max(hint.height(), WHY_MIN_HEIGHT))

    def clear(self, message: str | None = None) -> None:
        self.piece = None
        self._plain = []
        self.title.setText(message or self.tr("Put the cursor in a word to see why it was cut that way."))
        self.steps.clear()
        self.stack.setCurrentIndex(0)

    def show_html(self, title: str, body: str, key: object = None) -> None:
        """Show a prepared explanation (``key`` identifies it: the same key again does nothing)."""
        if key is not None and self.piece == ("html", key):
            return
        self.piece = ("html", key) if key is not None else None
        self._tokenizer = None
        self.kind = "other"
        self._plain = []
        self.title.setText(html.escape(title))
        self.steps.setHtml(body)
        self.stack.setCurrentIndex(0)

    def _take(self, tokenizer, key) -> bool:
        """Make ``key`` (a piece, or what a split cluster shows) what the view explains for
        ``tokenizer``; False when it already is (nothing to redo)."""
        if key == self.piece and getattr(self, "_tokenizer", None) is tokenizer:
            return False
        self._tokenizer = tokenizer
        self.piece = key
        self.kind = model_kind(tokenizer.model)
        return True

    def show_piece(self, tokenizer, piece: str) -> None:
        """Explain how ``tokenizer``'s model cuts one pre-token (normalized text)."""
        if tokenizer is None or not piece:
            self.clear()
            return
        if not self._take(tokenizer, piece):
            return
        model = tokenizer.model
        style = style_for(tokenizer)
        final = [t.value for t in model.tokenize(piece)]
        # subtle: a SentencePiece model's piece is a whole sentence; its title took four lines of
        # the view at 1280x800. The title shows the start of both, the tooltip all of them.
        shown_piece = title_cut(piece, TITLE_CHARACTERS, style.byte_level)
        shown_piece += "…" if shown_piece != piece else ""
        shown = final if len(final) <= TITLE_TOKENS else final[:TITLE_TOKENS]
        final_html = LRM + f"{LRM} ".join(f"<b>{render_html(t, style)}</b>" for t in shown)
        if len(shown) < len(final):
            final_html += f"{LRM} " + self.tr("… (+{0:,} more)").format(len(final) - len(shown))
        template = (
            self.tr("Why <span style='background:#EEF2F7'>&nbsp;{0}&nbsp;</span> → {1}")
            # the piece's light label keeps dark text in the dark theme too
            .replace("background:#EEF2F7'", "background:#EEF2F7; color:#111111'")
        )
        self.title.setText(template.format(render_html(shown_piece, style) + LRM, final_html))
        whole = LRM + f"{LRM} ".join(f"<b>{render_html(t, style)}</b>" for t in final)
        self.title.setToolTip(
            template.format(render_html(piece, style) + LRM, whole)
            if shown_piece != piece or len(shown) < len(final)
            else ""
        )
        if self.kind == "unigram":
            lat = model.lattice(piece)
            unk = model.unk_token
            self.lattice_view.unk_id = None if unk is None else model.token_to_id(unk)
            self.lattice_view.set_lattice(lat, style)
            # the lattice takes the height it draws (and a scroll bar), the n-best list the rest
            self.lattice_scroll.setMaximumHeight(
                max(
                    LATTICE_MIN_HEIGHT,
                    self.lattice_view.content_height() + 2 * self.lattice_scroll.frameWidth() + 16,
                )
            )
            best = " ".join(render_token(n.piece, style) for n in lat.best_path())
            body, plain = unigram_nbest_html(model, piece, style)
            self._fit_nbest(body)
            self._plain = [f"best path: {best}"] + plain
            self.stack.setCurrentIndex(1)
            return
        body, self._plain = _steps_html(model, self.kind, piece, style)
        self.steps.setHtml(body)
        self.stack.setCurrentIndex(0)

    def show_pieces(self, tokenizer, cluster: str, pieces: list[str]) -> None:
        """Explain each piece of a grapheme cluster the pre-tokenizer cut apart.

        A ``\\w``-style split cuts 👨‍👩‍👧 (three emoji joined by U+200D, which counts as a word
        character) into five pre-tokens; the reader sees one character, and the cursor cannot
        stop inside it, so the view says so and walks through every piece, never only the first.

        >>> from core.events import drain
        >>> from core.options import TrainOptions
        >>> from core.training import train_from_counts
        >>> tokenizer = drain(train_from_counts({"hug": 10, "pug": 5}, TrainOptions("bpe", vocab_size=6)))
        >>> view = WhyView()
        >>> view.show_pieces(tokenizer, "👨\u200d👩\u200d👧", ["👨", "\u200d", "👩", "\u200d", "👧"])
        >>> view.steps_text().count("piece ")
        5
        """
        if not self._take(tokenizer, ("pieces", cluster, tuple(pieces))):
            return
        model = tokenizer.model
        style = style_for(tokenizer)
        muted = theme.current().muted
        self.title.setText(
            self.tr("Why {0} was cut into {1} pieces").format(render_html(cluster, style), len(pieces))
        )
        # the words the cursor's cluster touches may hold more clusters: 👩🏽‍💻👨‍👩‍👧 is two
        characters = len(regex.findall(r"\X", cluster))
        if characters == 1:
            intro = self.tr(
                "{0} is one character to a reader (a grapheme cluster), but the pre-tokenizer split it "
                "into {1} pieces before the model saw it; each piece is tokenized on its own:"
            ).format(render_html(cluster, style), len(pieces))
        else:
            intro = self.tr(
                "{0} is {2} characters to a reader (grapheme clusters), but the pre-tokenizer split "
                "them into {1} pieces before the model saw them; each piece is tokenized on its own:"
            ).format(render_html(cluster, style), len(pieces), characters)
        parts = [f"<p style='color:{muted}'>{intro}</p>"]
        self._plain = []
        for piece in pieces:
            final = [t.value for t in model.tokenize(piece)]
            final_html = LRM + f"{LRM} ".join(f"<b>{render_html(t, style)}</b>" for t in final)
            body, plain = _steps_html(model, self.kind, piece, style)
            parts.append(f"<h4>{LRM}{render_html(piece, style)}{LRM} → {final_html}</h4>{body}")
            self._plain.append(f"piece {render_token(piece, style)} → {' '.join(final)}")
            self._plain.extend(plain)
        self.steps.setHtml("".join(parts))
        self.stack.setCurrentIndex(0)

    def steps_text(self) -> str:
        """The explanation as plain text, one step per ``|`` (tests, copy)."""
        return " | ".join(self._plain)
