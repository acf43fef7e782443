"""Qt item models over engine data: the merge log, Unigram rounds, word and character tables.

    >>> from core.events import MergeEvent
    >>> log = MergeLogModel()
    >>> log.append_events([MergeEvent(1, "u", "g", "ug", 20, 4, 20.0)])   # the merges appended
    1
    >>> log.rowCount()
    1

Views read these; none of them owns engine state. Large tables stay fast:
- the merge log appends in batches (one ``beginInsertRows`` per flush);
- the word table sorts and filters *itself* from row orders precomputed off
  the GUI thread (``jobs.CorpusResult``) and hands rows to the view on demand
  (``canFetchMore``/``fetchMore``), so 500 k words never stall a repaint.
"""

from __future__ import annotations

import unicodedata

from PySide6.QtCore import QT_TRANSLATE_NOOP, QAbstractTableModel, QCoreApplication, QModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from subword_gui.engine_text import phase_label
from subword_gui.style import theme
from subword_gui.tokens.render import TokenStyle, is_superword, render_token

SORT_ROLE = Qt.ItemDataRole.UserRole + 1  # raw value for QSortFilterProxyModel
FETCH_BATCH = 2000

_GREY = QBrush(QColor("#9aa0a6"))
_ITALIC = QFont()
_ITALIC.setItalic(True)
_BOLD = QFont()
_BOLD.setBold(True)

_VISIBLE = {" ": "␣", "\t": "⇥", "\n": "⏎", "\r": "␍", "\u3000": "␣"}


def visible_token(token: str) -> str:
    """Make whitespace and invisible characters in a token visible.

    >>> visible_token("a b")
    'a␣b'
    """
    out = []
    for ch in token:
        if ch in _VISIBLE:
            out.append(_VISIBLE[ch])
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            out.append(f"<U+{ord(ch):04X}>")
        else:
            out.append(ch)
    return "".join(out)


def _align(column_is_number: bool):
    if column_is_number:
        return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)


class _Table(QAbstractTableModel):
    HEADERS: tuple[str, ...] = ()
    NUMERIC: tuple[bool, ...] = ()

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.HEADERS):
            if role == Qt.ItemDataRole.DisplayRole:
                return QCoreApplication.translate("Headers", self.HEADERS[section])
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return _align(self.NUMERIC[section])
        elif orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole:
            return section + 1
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemNeverHasChildren


# -- the merge log ---------------------------------------------------------------------


def score_text(score: float) -> str:
    """A merge's score as the log shows it: a count whole, a WordPiece score to three
    significant figures, its exponent short, so it fits its column (``"8.088e-05"`` was cut
    to ``"8.088e…"`` at 1280x800).

    >>> score_text(12345.0), score_text(0.010342), score_text(0.00080813), score_text(8.0881e-05)
    ('12,345', '0.0103', '0.000808', '8.09e-5')
    """
    if float(score).is_integer():
        return f"{score:,.0f}"
    return f"{score:.3g}".replace("e-0", "e-").replace("e+0", "e+")


# The widest text each numeric column of the merge log shows (a count of millions, a score,
# a vocabulary of tens of thousands): the columns are made wide enough for it.
MERGE_LOG_WIDEST = {0: "88,888 =", 4: "8,888,888", 5: "0.000888", 6: "888,888"}


#: Events the merge log shows as rows of their own between the merges.
MARK_EVENTS = ("StageStarted", "TokenRemoved")


def log_marks(tokenizer, options, merges) -> list:
    """The marks a finished run's merge log shows, rebuilt from its model and options (a run
    shown again from the Runs list, or a project reopened, has its merges but not the live
    events): SuperBPE's stage 2 after its transition, PickyBPE's removals (their IoS is not
    kept by the model: None).

    >>> from core.events import MergeEvent; from core.options import TrainOptions
    >>> log_marks(None, TrainOptions("superbpe", vocab_size=6, extra={"transition": 5}),
    ...           [MergeEvent(1, "a", "b", "ab", 3, 5, 3.0), MergeEvent(2, "ab", "c", "abc", 2, 6, 2.0)])
    [StageStarted(stage=2, description='superwords: merges across spaces', after_step=1, vocab_size=5)]
    """
    from core.events import StageStarted, TokenRemoved

    marks: list = []
    model = getattr(tokenizer, "model", None)
    if options is not None and options.algorithm == "superbpe" and merges:
        from core.errors import ConfigError
        from core.options import superbpe_settings

        try:
            t = superbpe_settings(options)[0]
        except ConfigError:
            t = None
        if t is not None:
            before = [e for e in merges if e.vocab_size <= t]
            if len(before) < len(merges):
                size = before[-1].vocab_size if before else merges[0].vocab_size - 1
                marks.append(StageStarted(2, "superwords: merges across spaces", len(before), size))
    removals = model.removals if model is not None else None
    if removals:
        parts_of = model.merge_parts
        sizes = {e.step: e.vocab_size for e in merges}
        for step, token in removals:
            marks.append(TokenRemoved(step, token, None, tuple(parts_of(token) or ()), sizes.get(step, 0)))
    return marks


class MergeLogModel(_Table):
    """One row per MergeEvent: step, left, right, new token, count, score, vocab size; and
    between them, a row for each mark (:data:`MARK_EVENTS`): where SuperBPE's stage 2 begins,
    and each token PickyBPE removes ("removed ‹ould› (IoS 0.93)", right after its merge).

    ``rows`` holds the MergeEvents alone (what the rest of the explorer reads); the table's
    row ``r`` is ``_entries[r]``, a merge's index in ``rows`` or a mark event. Rows past the
    slider's cut (``set_cut``) are greyed and italic; ties are tinted and explained in a
    tooltip; a superword (a new token that spans a space) is drawn in its own colour.
    """

    HEADERS = (
        QT_TRANSLATE_NOOP("Headers", "Step"),
        QT_TRANSLATE_NOOP("Headers", "Left"),
        QT_TRANSLATE_NOOP("Headers", "Right"),
        QT_TRANSLATE_NOOP("Headers", "New token"),
        QT_TRANSLATE_NOOP("Headers", "Count"),
        QT_TRANSLATE_NOOP("Headers", "Score"),
        QT_TRANSLATE_NOOP("Headers", "Vocab"),
    )
    NUMERIC = (True, False, False, False, True, True, True)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list = []
        self.marks: list = []  # StageStarted and TokenRemoved events, in the order they came
        self._entries: list = []  # per table row: an index into ``rows`` or a mark event
        self._row_of_merge: list[int] = []  # per merge: its table row
        self.cut: int | None = None  # vocab size the slider stands at
        self.cut_step: int | None = None  # the last merge kept at that size, when the size alone cannot say
        self._display: dict[int, tuple] = {}
        # how the other panels draw tokens: a byte-level run's "Ġc" reads "␣c" here too
        self.style = TokenStyle()

    def set_style(self, style: TokenStyle) -> None:
        if style != self.style:
            self.style = style
            self._display = {}
            if self._entries:
                self.dataChanged.emit(self.index(0, 1), self.index(len(self._entries) - 1, 3))

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._entries)

    def clear(self) -> None:
        self.beginResetModel()
        self.rows = []
        self.marks = []
        self._entries = []
        self._row_of_merge = []
        self.cut = self.cut_step = None
        self._display = {}
        self.endResetModel()

    def append_events(self, events) -> int:
        """Append the MergeEvents (and marks) among ``events`` in one batch; returns how many
        merges. A stage that begins with the run (stage 1) gets no row."""
        new: list = []
        n_rows = len(self.rows)
        for e in events:
            name = type(e).__name__
            if name == "MergeEvent":
                new.append(e)
            elif name in MARK_EVENTS and not (name == "StageStarted" and e.after_step == 0):
                new.append(e)
        if new:
            n = len(self._entries)
            self.beginInsertRows(QModelIndex(), n, n + len(new) - 1)
            for e in new:
                if type(e).__name__ == "MergeEvent":
                    self._row_of_merge.append(len(self._entries))
                    self._entries.append(len(self.rows))
                    self.rows.append(e)
                else:
                    self.marks.append(e)
                    self._entries.append(e)
            self.endInsertRows()
        return len(self.rows) - n_rows

    def set_marks(self, marks) -> None:
        """Put ``marks`` (see :func:`log_marks`) between the merges already shown, each after
        the merge it follows (a finished run's log shown again)."""
        if not marks:
            return
        merges, events = self.rows, []
        by_step: dict[int, list] = {}
        for m in marks:
            after = m.after_step if type(m).__name__ == "StageStarted" else m.step
            by_step.setdefault(after, []).append(m)
        events.extend(by_step.get(0, []))
        for e in merges:
            events.append(e)
            events.extend(by_step.get(e.step, []))
        self.clear()
        self.append_events(events)

    def mark_rows(self) -> list[int]:
        """The table rows that are marks (the view spans them over the whole row)."""
        return [r for r, e in enumerate(self._entries) if not isinstance(e, int)]

    def table_row(self, merge_index: int) -> int:
        """The table row of merge ``merge_index`` (an index into ``rows``)."""
        return self._row_of_merge[merge_index] if 0 <= merge_index < len(self._row_of_merge) else 0

    def set_cut(self, vocab_size: int | None, step: int | None = None) -> None:
        """Grey the rows past the slider's cut at ``vocab_size``; ``step``, when given, is the
        last merge kept (PickyBPE: a size is reached, lost and reached again, so the cut is a
        step, not every merge below a size)."""
        if (vocab_size, step) == (self.cut, self.cut_step):
            return
        self.cut, self.cut_step = vocab_size, step
        if self._entries:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._entries) - 1, len(self.HEADERS) - 1))

    def is_cut(self, row: int) -> bool:
        if self.cut is None:
            return False
        e = self._entries[row]
        step = self.cut_step
        if isinstance(e, int):
            return self.rows[e].vocab_size > self.cut if step is None else self.rows[e].step > step
        if step is not None:
            return e.step > step if type(e).__name__ == "TokenRemoved" else e.after_step >= step
        # a mark is past the cut when the merge it follows is
        r = row - 1
        while r >= 0 and not isinstance(self._entries[r], int):
            r -= 1
        if type(e).__name__ == "StageStarted":
            return e.vocab_size >= self.cut
        return r >= 0 and self.rows[self._entries[r]].vocab_size > self.cut

    def mark_text(self, e) -> str:
        """What a mark row says (across the row)."""
        translate = QCoreApplication.translate
        if type(e).__name__ == "StageStarted":
            what = (
                translate("Tokens", "superwords (across spaces)")
                if "superword" in e.description
                else translate("Tokens", e.description)
            )
            return translate("Tokens", "stage {0}: {1} from vocab {2:,}").format(e.stage, what, e.vocab_size)
        token = render_token(e.token, self.style)
        parts = " + ".join(render_token(p, self.style) for p in e.parts)
        if e.ios is None:
            text = translate("Tokens", "removed ‹{0}›").format(token)
        else:
            text = translate("Tokens", "removed ‹{0}› (IoS {1:.2f})").format(token, e.ios)
        return text + (translate("Tokens", ": its uses become {0}").format(parts) if parts else "")

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not (0 <= index.row() < len(self._entries)):
            return None
        row, col = index.row(), index.column()
        entry = self._entries[row]
        if not isinstance(entry, int):
            return self._mark(entry, row, col, role)
        e = self.rows[entry]
        if role == Qt.ItemDataRole.DisplayRole:
            shown = self._display.get(row)
            if shown is None:  # formatted once per row: painting asks for every visible cell often
                shown = self._display[row] = (
                    f"{e.step} =" if e.tie else str(e.step),
                    render_token(e.left, self.style),
                    render_token(e.right, self.style),
                    render_token(e.new_token, self.style),
                    f"{e.count:,}",
                    score_text(e.score),
                    f"{e.vocab_size:,}",
                )
            return shown[col]
        elif role == SORT_ROLE:
            return (e.step, e.left, e.right, e.new_token, e.count, e.score, e.vocab_size)[col]
        elif role == Qt.ItemDataRole.TextAlignmentRole:
            return _align(self.NUMERIC[col])
        elif role == Qt.ItemDataRole.ForegroundRole:
            if self.is_cut(index.row()):
                return _GREY
            if col == 3 and is_superword(e.new_token, self.style):
                return QBrush(QColor(theme.current().superword))
        elif role == Qt.ItemDataRole.FontRole:
            if self.is_cut(index.row()):
                return _ITALIC
            if col == 3 and is_superword(e.new_token, self.style):
                return _BOLD
        elif role == Qt.ItemDataRole.BackgroundRole:
            if e.tie and not self.is_cut(index.row()):
                return QBrush(QColor(theme.current().tie))
        elif role == Qt.ItemDataRole.ToolTipRole:
            tip = f"step {e.step}: {e.left!r} + {e.right!r} -> {e.new_token!r}, pair count {e.count:,}"
            if is_superword(e.new_token, self.style):
                tip += "\n" + QCoreApplication.translate(
                    "Tokens", "A superword: this token spans a space (SuperBPE's stage 2)."
                )
            if e.tie:
                tip += "\nTie: another pair had the same score; the tie rule decided."
            if self.is_cut(index.row()):
                tip += f"\nBeyond the vocab-size cut ({self.cut:,}): not in the shown tokenizer."
            return tip
        return None

    def _mark(self, e, row: int, col: int, role):
        """A mark row's cells: its step in the first column, its text in the second (the view
        spans it over the rest), its own colours."""
        removal = type(e).__name__ == "TokenRemoved"
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return f"{e.step} ✂" if removal else "▶"
            if col == 1:
                return self.mark_text(e)
            return ""
        if role == SORT_ROLE:
            return (e.step if removal else e.after_step) if col == 0 else ""
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _align(col == 0)
        if role == Qt.ItemDataRole.ForegroundRole:
            if self.is_cut(row):
                return _GREY
            if removal:
                return QBrush(QColor(theme.current().removed))
        if role == Qt.ItemDataRole.FontRole:
            return _ITALIC if removal or self.is_cut(row) else _BOLD
        if role == Qt.ItemDataRole.BackgroundRole and not removal:
            return QBrush(QColor(theme.current().stage))
        if role == Qt.ItemDataRole.ToolTipRole:
            if removal:
                return QCoreApplication.translate(
                    "Tokens",
                    "PickyBPE removed this token right after merge {0}: almost all of its uses had "
                    "just been merged into a longer token (intersection over self above τ).",
                ).format(e.step)
            return QCoreApplication.translate(
                "Tokens",
                "Stage {0} begins after {1:,} merges (vocab {2:,}). From here on the merges may cross "
                "spaces: SuperBPE's superwords.",
            ).format(e.stage, e.after_step, e.vocab_size)
        return None


class UnigramRoundModel(_Table):
    """One row per UnigramRound: phase, round, vocab size, loss, pieces removed."""

    HEADERS = (
        QT_TRANSLATE_NOOP("Headers", "Phase"),
        QT_TRANSLATE_NOOP("Headers", "Round"),
        QT_TRANSLATE_NOOP("Headers", "Vocab"),
        QT_TRANSLATE_NOOP("Headers", "Loss"),
        QT_TRANSLATE_NOOP("Headers", "Removed"),
    )
    NUMERIC = (False, True, True, True, False)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list = []

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def clear(self) -> None:
        self.beginResetModel()
        self.rows = []
        self.endResetModel()

    def append_events(self, events) -> int:
        rounds = [e for e in events if type(e).__name__ == "UnigramRound"]
        if rounds:
            n = len(self.rows)
            self.beginInsertRows(QModelIndex(), n, n + len(rounds) - 1)
            self.rows.extend(rounds)
            self.endInsertRows()
        return len(rounds)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not (0 <= index.row() < len(self.rows)):
            return None
        e = self.rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return phase_label(e.phase)
            if col == 1:
                return str(e.round)
            if col == 2:
                return f"{e.vocab_size:,}"
            if col == 3:
                return f"{e.loss:,.2f}"
            if col == 4:
                shown = ", ".join(visible_token(p) for p, _ in e.removed[:6])
                more = len(e.removed) - 6
                return (
                    f"{len(e.removed)}: {shown}" + (f", … +{more}" if more > 0 else "") if e.removed else ""
                )
        elif role == Qt.ItemDataRole.TextAlignmentRole:
            return _align(self.NUMERIC[col])
        return None


# -- corpus tables ------------------------------------------------------------------------


class WordFrequencyModel(_Table):
    """Word, count and share of a corpus; sorts and filters itself, fetches rows on demand.

    Built from ``jobs.CorpusResult`` (words, frequencies and two precomputed orders).
    Sorting picks an order (or walks it backwards); filtering keeps the words that
    contain the search text. Neither touches more than one pass over the indices.
    """

    HEADERS = (
        QT_TRANSLATE_NOOP("Headers", "Word"),
        QT_TRANSLATE_NOOP("Headers", "Count"),
        QT_TRANSLATE_NOOP("Headers", "Share"),
    )
    NUMERIC = (False, True, True)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.words: list[str] = []
        self.freqs: list[int] = []
        self._orders: dict[int, list[int]] = {}
        self._total = 1
        self._sort = (1, Qt.SortOrder.DescendingOrder)
        self._filter = ""
        self._rows: list[int] = []  # indices into words, in display order, filtered
        self._shown = 0  # rows handed to the view so far

    def set_result(self, result) -> None:
        self.beginResetModel()
        self.words = result.words
        self.freqs = result.frequencies
        self._orders = {0: result.order_by_word, 1: result.order_by_count}
        self._total = max(sum(self.freqs), 1)
        self._rebuild()
        self.endResetModel()

    @property
    def matching_rows(self) -> int:
        """Rows that match the filter (the view may have fetched fewer)."""
        return len(self._rows)

    def _rebuild(self) -> None:
        column, order = self._sort
        # Column 2 (share) orders like column 1 (count).
        base = self._orders.get(0 if column == 0 else 1, [])
        # order_by_count is most-frequent-first, i.e. already "descending".
        forward = (
            (order == Qt.SortOrder.AscendingOrder) if column == 0 else (order == Qt.SortOrder.DescendingOrder)
        )
        rows = base if forward else base[::-1]
        if self._filter:
            needle, words = self._filter, self.words
            rows = [i for i in rows if needle in words[i]]
        self._rows = rows
        self._shown = min(FETCH_BATCH, len(rows))

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        if column < 0 or column >= len(self.HEADERS):
            return
        self.beginResetModel()
        self._sort = (column, order)
        self._rebuild()
        self.endResetModel()

    def set_filter(self, text: str) -> None:
        if text == self._filter:
            return
        self.beginResetModel()
        self._filter = text
        self._rebuild()
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else self._shown

    def canFetchMore(self, parent=QModelIndex()) -> bool:
        return not parent.isValid() and self._shown < len(self._rows)

    def fetchMore(self, parent=QModelIndex()) -> None:
        if parent.isValid():
            return
        n = min(FETCH_BATCH, len(self._rows) - self._shown)
        if n <= 0:
            return
        self.beginInsertRows(QModelIndex(), self._shown, self._shown + n - 1)
        self._shown += n
        self.endInsertRows()

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not (0 <= index.row() < self._shown):
            return None
        i = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return visible_token(self.words[i])
            if col == 1:
                return f"{self.freqs[i]:,}"
            if col == 2:
                return f"{self.freqs[i] / self._total:.3%}"  # as Compare writes shares: "64.706%"
        elif role == SORT_ROLE:
            return (self.words[i], self.freqs[i], self.freqs[i])[col]
        elif role == Qt.ItemDataRole.TextAlignmentRole:
            return _align(self.NUMERIC[col])
        return None


class CharTableModel(_Table):
    """Character, code point, Unicode name and count; sorts itself (a few thousand rows).

    subtle: not behind a QSortFilterProxyModel: a proxy re-sorting on every reset asks
    ``data()`` for every row several times, which costs more than sorting here.
    """

    HEADERS = (
        QT_TRANSLATE_NOOP("Headers", "Char"),
        QT_TRANSLATE_NOOP("Headers", "Code point"),
        QT_TRANSLATE_NOOP("Headers", "Name"),
        QT_TRANSLATE_NOOP("Headers", "Count"),
    )
    NUMERIC = (False, False, False, True)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[tuple[str, int]] = []
        self._sort = (3, Qt.SortOrder.DescendingOrder)

    def set_counts(self, chars: dict[str, int]) -> None:
        self.beginResetModel()
        self.rows = list(chars.items())
        self._sort_rows()
        self.endResetModel()

    def _sort_rows(self) -> None:
        column, order = self._sort
        keys = {
            0: lambda kv: kv[0],
            1: lambda kv: kv[0],
            2: lambda kv: (unicodedata.name(kv[0], "") if len(kv[0]) == 1 else "", kv[0]),
            3: lambda kv: (kv[1], kv[0]),
        }
        self.rows.sort(key=keys.get(column, keys[3]), reverse=order == Qt.SortOrder.DescendingOrder)

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self.HEADERS):
            return
        self.layoutAboutToBeChanged.emit()
        old = self.persistentIndexList()
        chars = [self.rows[i.row()][0] if i.isValid() and i.row() < len(self.rows) else None for i in old]
        self._sort = (column, order)
        self._sort_rows()
        where = {ch: r for r, (ch, _) in enumerate(self.rows)}
        new = [
            self.index(where[ch], i.column()) if ch in where else QModelIndex() for ch, i in zip(chars, old)
        ]
        self.changePersistentIndexList(old, new)
        self.layoutChanged.emit()

    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not (0 <= index.row() < len(self.rows)):
            return None
        ch, n = self.rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return visible_token(ch)
            if col == 1:
                return f"U+{ord(ch):04X}" if len(ch) == 1 else ""
            if col == 2:
                return unicodedata.name(ch, "").title() if len(ch) == 1 else ""
            if col == 3:
                return f"{n:,}"
        elif role == SORT_ROLE:
            return (ch, ord(ch[0]) if ch else 0, unicodedata.name(ch, "") if len(ch) == 1 else "", n)[col]
        elif role == Qt.ItemDataRole.TextAlignmentRole:
            return _align(self.NUMERIC[col])
        return None


__all__ = [
    "MergeLogModel",
    "UnigramRoundModel",
    "WordFrequencyModel",
    "CharTableModel",
    "visible_token",
    "SORT_ROLE",
]
