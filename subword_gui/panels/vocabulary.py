"""The Vocabulary panel: every token, searchable, and how each one was built.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> from subword_gui.state import AppState
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
    >>> state = AppState(); panel = VocabularyPanel(state); panel.show()   # hidden, it waits until shown
    >>> state.set_full_tokenizer(drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=13))))
    >>> panel.search.setText("ug")
    >>> panel.count.text(), [panel.proxy.index(r, COL_TOKEN).data() for r in range(panel.proxy.rowCount())]
    ('3 of 13 tokens', ['ug', 'hug', 'pug'])
    >>> panel.select_token("hug"); panel.tree_text()
    True
    ['hug  #3', '  h', '  ug  #1', '    u', '    g']

The table (:class:`VocabModel` behind :class:`VocabFilter`) lists id, the token
rendered visibly (``␣``, ``▁``, ``##``, bytes), its length in characters, how
often encoding the corpus uses it, and its merge rank (BPE, or WordPiece
trained here) or its log-probability (Unigram). Rows reach the view on demand
(``fetchMore``); searching or sorting first loads them all, so a search always
covers the whole vocabulary.

Corpus frequency: the distinct words of the loaded corpus, most frequent
first (at most :data:`FREQUENCY_WORDS` of them, so a 500 k-word corpus stays
quick), are encoded with the shown tokenizer and each token's uses are summed,
weighted by word counts. The work runs in small slices on the event loop
(:data:`SLICE_SECONDS` each), so typing and the slider stay responsive, and
restarts when the tokenizer or the corpus changes.

Selecting a token shows its merge tree: the two tokens the merge that created
it joined, recursively down to characters.

Hygiene: a combo picks one list of :func:`core.measures.vocabulary_hygiene` (unreachable,
undecodable, never used on the corpus, intermediate-only, byte and control pieces; Land &
Bartolo 2024, PickyBPE), found in a worker process for the shown tokenizer; its tokens are
tinted in the table (an overlay) and "Only these" lists them alone, to browse.
"""

from __future__ import annotations

import heapq
import html
import time
from collections import Counter

import shiboken6
from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QTableView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from subword_gui.background.report_card import hygiene_job
from subword_gui.background.workers import Job
from subword_gui.state import on_screen
from subword_gui.style import theme
from subword_gui.tokens import palette
from subword_gui.tokens.render import TokenStyle, is_superword, render_token, style_for, token_bytes
from subword_gui.tokens.why_view import model_kind

FETCH_BATCH = 2000
FREQUENCY_WORDS = 50_000
SLICE_SECONDS = 0.012
FOLLOW_DELAY_MS = 40  # a slider move: the table follows this long after the Segmentation
SORT_ROLE = Qt.ItemDataRole.UserRole + 1

COL_ID, COL_TOKEN, COL_LENGTH, COL_FREQ, COL_RANK = range(5)


class _BpeSources:
    """A BPE model's own answer to "which merge built this token" (no table built:
    the model already keeps one, and a slider move must stay cheap)."""

    def __init__(self, model):
        self.model = model

    def get(self, token: str):
        rank = self.model.merge_rank(token)
        if rank is None:
            return None
        left, right = self.model.merge_list()[rank]
        return (left, right, rank + 1)

    def __bool__(self) -> bool:
        return bool(self.model.merge_list())


class _EventSources:
    """Which merge built each token, from a training run's MergeEvents (WordPiece keeps
    no merges in its vocabulary); tokens the shown (cut) vocabulary lacks are left out."""

    _cache: tuple | None = None  # (events list, table): one table per training run

    def __init__(self, model, events):
        self.model = model
        cached = _EventSources._cache
        if cached is not None and cached[0] is events:
            self.table = cached[1]
        else:
            self.table = {}
            for ev in events or ():
                new = getattr(ev, "new_token", None)
                if new is not None:
                    self.table.setdefault(new, (ev.left, ev.right, ev.step))
            _EventSources._cache = (events, self.table)

    def get(self, token: str):
        src = self.table.get(token)
        return src if src is not None and self.model.token_to_id(token) is not None else None

    def __bool__(self) -> bool:
        return bool(self.table)


def merge_sources(tokenizer, merge_events=()):
    """``sources.get(token) -> (left, right, 1-based merge step) | None`` for every token a merge built.

    BPE models know their merges; for WordPiece (whose vocab file keeps no
    merges) the training run's MergeEvents are used when there are any.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
    >>> hug_bpe = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=13)))
    >>> hug_bpe.model.merge_list()
    [('u', 'g'), ('u', 'n'), ('h', 'ug'), ('p', 'un'), ('p', 'ug')]
    >>> merge_sources(hug_bpe).get("hug")     # h + ug, the third merge
    ('h', 'ug', 3)
    """
    model = tokenizer.model
    if model.merge_list() is not None:
        return _BpeSources(model)
    return _EventSources(model, merge_events)


def merge_tree(token: str, sources, depth: int = 0, limit: int = 64):
    """``(token, step or None, [children])``: how ``token`` was built, down to base tokens.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
    >>> hug_bpe = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=13)))
    >>> merge_tree("hug", merge_sources(hug_bpe))
    ('hug', 3, [('h', None, []), ('ug', 1, [('u', None, []), ('g', None, [])])])
    """
    src = sources.get(token)
    if src is None or depth >= limit:
        return (token, None, [])
    left, right, step = src
    return (
        token,
        step,
        [merge_tree(left, sources, depth + 1, limit), merge_tree(right, sources, depth + 1, limit)],
    )


SIDE_BY_SIDE_MIN_WIDTH = 760  # narrower, the merge tree goes under the table
HYGIENE_DELAY_MS = 300  # a slider drag: the hygiene of the shown cut is found once it pauses
HYGIENE_TINT = QColor(230, 159, 0, 80)  # Okabe-Ito orange, translucent: readable on both themes
# (key, label): the hygiene lists of core.measures.Hygiene ("pieces": byte and control pieces)
HYGIENE_LISTS = [
    ("", QT_TRANSLATE_NOOP("Hygiene", "Hygiene: none")),
    ("unreachable", QT_TRANSLATE_NOOP("Hygiene", "unreachable")),
    ("undecodable", QT_TRANSLATE_NOOP("Hygiene", "undecodable")),
    ("unused", QT_TRANSLATE_NOOP("Hygiene", "never used on the corpus")),
    ("intermediate_only", QT_TRANSLATE_NOOP("Hygiene", "intermediate-only")),
    ("pieces", QT_TRANSLATE_NOOP("Hygiene", "byte and control pieces")),
]
HYGIENE_TIPS = {
    "": QT_TRANSLATE_NOOP("Hygiene", "Tint the tokens of one vocabulary-hygiene list"),
    "unreachable": QT_TRANSLATE_NOOP(
        "Hygiene",
        "Tokens that encoding their own text never produces (Land & Bartolo 2024, “Fishing for Magikarp”)",
    ),
    "undecodable": QT_TRANSLATE_NOOP(
        "Hygiene", "Tokens that do not decode to whole characters (a part of a UTF-8 character)"
    ),
    "unused": QT_TRANSLATE_NOOP(
        "Hygiene", "Tokens the corpus's most frequent words never use (the Frequency column's count)"
    ),
    "intermediate_only": QT_TRANSLATE_NOOP(
        "Hygiene",
        "Unused tokens that are a part of some merge: steps towards other tokens (PickyBPE, Chizhov et al. 2024)",
    ),
    "pieces": QT_TRANSLATE_NOOP(
        "Hygiene", "Byte-fallback pieces <0xNN>, bytes of a character, and control or private-use characters"
    ),
}


class VocabModel(QAbstractTableModel):
    """The shown tokenizer's vocabulary by id, loaded into the view in batches."""

    HEADERS = (
        QT_TRANSLATE_NOOP("Headers", "ID"),
        QT_TRANSLATE_NOOP("Headers", "Token"),
        QT_TRANSLATE_NOOP("Headers", "Length"),
        QT_TRANSLATE_NOOP("Headers", "Frequency"),
        QT_TRANSLATE_NOOP("Headers", "Merge"),
    )

    def __init__(self, parent=None):
        super().__init__(parent)
        self._entries: list[tuple[int, str]] = []  # (id, token) sorted by id
        self._rendered: dict[int, str] = {}
        self._loaded = 0
        self.style = TokenStyle()
        self.kind = "other"
        self.tokenizer = None
        self.sources = {}  # .get(token) -> (left, right, step) | None (see merge_sources)
        self.frequencies: dict[int, int] | None = None
        self._scores: list | None = None
        self._special: set[int] = set()
        self._added: dict = {}  # id -> AddedToken (its flags)
        self._names: dict[str, list[str]] = {}  # token -> the config's names for it (bos_token...)
        self._unk: int | None = None
        self._sort: tuple[int, Qt.SortOrder] = (COL_ID, Qt.SortOrder.AscendingOrder)
        self._row_index: dict[str, int] | None = None
        # PickyBPE's removed tokens: rows after the vocabulary, with ids -1, -2, ... (none in
        # the model) -> the merge step after which each was (last) removed
        self._removed: dict[int, int] = {}
        self.marked: frozenset[int] = frozenset()  # a hygiene list's ids: tinted rows

    # -- data --------------------------------------------------------------------
    def set_marked(self, ids) -> None:
        """Tint the rows of ``ids`` (a hygiene list), all columns; an empty set clears the tint."""
        self.marked = frozenset(ids)
        if self._loaded:
            self.dataChanged.emit(
                self.index(0, 0),
                self.index(self._loaded - 1, len(self.HEADERS) - 1),
                [Qt.ItemDataRole.BackgroundRole],
            )

    def set_tokenizer(self, tokenizer, merge_events=()) -> None:
        self.beginResetModel()
        self.tokenizer = tokenizer
        if tokenizer is None:
            self._entries = []
            self._removed = {}
            self.style, self.kind, self.sources = TokenStyle(), "other", {}
        else:
            vocab = tokenizer.get_vocab()
            self._entries = sorted(zip(vocab.values(), vocab.keys()))  # ids are unique: by id
            self._removed = {}
            removed_tokens = tokenizer.model.removed_tokens()
            if removed_tokens:
                last_step = {t: step for step, t in tokenizer.model.removals}
                for j, token in enumerate(removed_tokens, start=1):
                    self._entries.append((-j, token))
                    self._removed[-j] = last_step.get(token, 0)
            self.style = style_for(tokenizer)
            self.kind = model_kind(tokenizer.model)
            self.sources = merge_sources(tokenizer, merge_events)
            self._scores = tokenizer.model.pieces if self.kind == "unigram" else None
            self._special = {t.id for t in tokenizer.added_tokens}
            self._added = {t.id: t for t in tokenizer.added_tokens}
            self._names = added_token_names(tokenizer)
            unk = tokenizer.model.unk_token
            self._unk = tokenizer.model.token_to_id(unk) if unk is not None else None
        self._rendered = {}
        self._row_index = None
        self.frequencies = None
        if self._sort != (COL_ID, Qt.SortOrder.AscendingOrder):
            self._sort_entries(*self._sort)
        self._loaded = min(FETCH_BATCH, len(self._entries))
        self.endResetModel()
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, COL_RANK, COL_RANK)

    def set_frequencies(self, frequencies: dict[int, int] | None) -> None:
        if frequencies is None and self.frequencies is None:
            return
        self.frequencies = frequencies
        if self._sort[0] == COL_FREQ:
            self.sort(*self._sort)  # the order depends on what just arrived
        elif self._loaded:
            self.dataChanged.emit(self.index(0, COL_FREQ), self.index(self._loaded - 1, COL_FREQ))

    # -- sorting: here, on the whole vocabulary, with Python keys --------------------
    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        """Sort every entry, loaded or not (so "most frequent first" needs no fetching).

        subtle: a QSortFilterProxyModel would sort only the fetched rows, calling
        ``data()`` from C++ for each comparison: seconds for a 30 k vocabulary, and
        again after every slider move.
        """
        if column < 0 or column >= len(self.HEADERS):
            return
        self._sort = (column, order)
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        ids = [self._entries[i.row()][0] for i in persistent]
        self._sort_entries(column, order)
        row_of_id = {tid: r for r, (tid, _) in enumerate(self._entries)}
        for index, tid in zip(persistent, ids):
            row = row_of_id[tid]
            self.changePersistentIndex(
                index, self.index(row, index.column()) if row < self._loaded else QModelIndex()
            )
        self.layoutChanged.emit()

    def _sort_entries(self, column: int, order) -> None:
        self._row_index = None
        reverse = order == Qt.SortOrder.DescendingOrder
        if column == COL_ID:
            # removed tokens (negative ids) after the vocabulary, in the order removed
            self._entries.sort(key=lambda e: (e[0] < 0, abs(e[0])), reverse=reverse)
            return
        rows = range(len(self._entries))
        if column == COL_TOKEN:
            keys = [self.rendered(r) for r in rows]
        elif column == COL_LENGTH:
            keys = [self._length_key(tid, t) for tid, t in self._entries]
        elif column == COL_FREQ:
            freq = self.frequencies or {}
            keys = [freq.get(i, 0) for i, _ in self._entries]
        else:
            ranks = [self._rank(r) for r in rows]
            missing = float("-inf") if reverse else float("inf")  # tokens without a rank go last
            keys = [missing if k is None else k for k in ranks]
        order_ = sorted(
            range(len(self._entries)), key=lambda r: (keys[r], self._entries[r][0]), reverse=reverse
        )
        self._entries = [self._entries[r] for r in order_]

    def _length(self, token: str) -> int:
        return len(token_bytes(token, self.style).decode("utf-8", errors="replace"))

    def _length_key(self, tid: int, token: str) -> int:
        """The Length column's sort key: a special token stands for no text of its own, so it
        sorts before every real token (-1) rather than by the characters of ``<unk>``."""
        return -1 if tid in self._special else self._length(token)

    def total(self) -> int:
        """Tokens in the vocabulary (removed ones listed after it are not counted)."""
        return len(self._entries) - len(self._removed)

    def is_removed(self, row: int) -> bool:
        """Is this row a token PickyBPE removed during training (not in the vocabulary)?"""
        return self._entries[row][0] in self._removed

    def entry(self, row: int) -> tuple[int, str]:
        return self._entries[row]

    def row_of(self, token: str) -> int | None:
        if self._row_index is None:  # built on first use after each reset or sort
            self._row_index = {t: row for row, (_, t) in enumerate(self._entries)}
        return self._row_index.get(token)

    def rendered(self, row: int) -> str:
        tid, token = self._entries[row]
        shown = self._rendered.get(tid)
        if shown is None:
            shown = self._rendered[tid] = render_token(token, self.style)
        return shown

    def _rank(self, row: int):
        tid, token = self._entries[row]
        if self.kind == "unigram" and self._scores is not None and tid < len(self._scores):
            return self._scores[tid][1]
        src = self.sources.get(token)
        return src[2] if src is not None else None

    # -- the Qt model ----------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else self._loaded

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.HEADERS)

    def canFetchMore(self, parent=QModelIndex()) -> bool:  # noqa: N802
        return not parent.isValid() and self._loaded < len(self._entries)

    def fetchMore(self, parent=QModelIndex()) -> None:  # noqa: N802
        if parent.isValid():
            return
        n = min(FETCH_BATCH, len(self._entries) - self._loaded)
        if n <= 0:
            return
        self.beginInsertRows(QModelIndex(), self._loaded, self._loaded + n - 1)
        self._loaded += n
        self.endInsertRows()

    def fetch_all(self) -> None:
        if self._loaded < len(self._entries):
            self.beginInsertRows(QModelIndex(), self._loaded, len(self._entries) - 1)
            self._loaded = len(self._entries)
            self.endInsertRows()

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self.HEADERS):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if section == COL_RANK:
                return QCoreApplication.translate("Headers", "Score" if self.kind == "unigram" else "Merge")
            return QCoreApplication.translate("Headers", self.HEADERS[section])
        if role == Qt.ItemDataRole.ToolTipRole:
            translate = QCoreApplication.translate  # the headers' tooltips speak the interface's language
            return {
                COL_LENGTH: translate(
                    "Headers", "characters of the text the token stands for (##, </w> left out)"
                ),
                COL_FREQ: translate(
                    "Headers", "uses when encoding the corpus's {0:,} most frequent words, times their counts"
                ).format(FREQUENCY_WORDS),
                COL_RANK: translate("Headers", "Unigram log-probability")
                if self.kind == "unigram"
                else translate("Headers", "the merge step that created the token (1 = first learned)"),
            }.get(section)
        return None

    def flags(self, index):
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid() or not (0 <= index.row() < self._loaded) or not 0 <= index.column() < 5:
            return None
        row, col = index.row(), index.column()
        tid, token = self._entries[row]
        if tid in self._removed:
            return self._removed_data(tid, token, row, col, role)
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(HYGIENE_TINT) if tid in self.marked else None
        if role in (Qt.ItemDataRole.DisplayRole, SORT_ROLE):
            sort = role == SORT_ROLE
            if col == COL_ID:
                return tid if sort else str(tid)
            if col == COL_TOKEN:
                return self.rendered(row)
            if col == COL_LENGTH:
                n = self._length_key(tid, token)
                if sort:
                    return n
                return "—" if n < 0 else str(n)
            if col == COL_FREQ:
                if self.frequencies is None:
                    return -1 if sort else ""
                f = self.frequencies.get(tid, 0)
                return f if sort else f"{f:,}"
            if col == COL_RANK:
                r = self._rank(row)
                if sort:
                    return r if r is not None else float("inf")
                if r is None:
                    return ""
                return f"{r:.3f}" if isinstance(r, float) else str(r)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if col == COL_TOKEN:
                return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_TOKEN:
            tip = f"{token!r}\nbytes: {token_bytes(token, self.style).hex(' ').upper()}"
            if is_superword(token, self.style):
                tip += "\n" + QCoreApplication.translate(
                    "Tokens", "A superword: this token spans a space (SuperBPE's stage 2)."
                )
            added = self._added.get(tid)
            return tip if added is None else f"{tip}\n{added_token_flags(added, self._names.get(token))}"
        if role == Qt.ItemDataRole.FontRole and col == COL_TOKEN and tid in self._added:
            if self._added[tid].special:
                return None  # dark, as in the segmentation (the foreground below)
            font = QFont()
            font.setItalic(True)  # an added token that is not special: matched whole, read as text
            return font
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_LENGTH and tid in self._special:
            return QCoreApplication.translate(
                "Tokens", "a special token: it stands for no text of its own, so it has no length"
            )
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_TOKEN:
            if tid == self._unk:
                return QBrush(palette.UNKNOWN_BACKGROUND)
            if tid in self._special and self._added[tid].special:
                return QBrush(palette.SPECIAL_BACKGROUND)
            if is_superword(token, self.style):  # spans a space (SuperBPE): as in the merge log
                return QBrush(QColor(theme.current().superword))
        if role == Qt.ItemDataRole.DecorationRole and col == COL_TOKEN:
            return palette.colour_of((palette.hue_index(tid), 0))  # its colour in the segmentation
        return None

    def _removed_data(self, tid: int, token: str, row: int, col: int, role):
        """A removed token's cells: no id, its text struck through in the removal colour."""
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_ID:
                return "—"
            if col == COL_TOKEN:
                return self.rendered(row)
            if col == COL_LENGTH:
                return str(self._length(token))
            return ""
        if role == SORT_ROLE:
            return {COL_ID: len(self._entries) - tid, COL_TOKEN: self.rendered(row)}.get(col, -1)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if col == COL_TOKEN:
                return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and col == COL_TOKEN:
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole:
            return QBrush(QColor(theme.current().removed))
        if role == Qt.ItemDataRole.ToolTipRole:
            return QCoreApplication.translate(
                "Tokens",
                "{0!r}: removed during training, right after merge {1} (PickyBPE: nearly all of its uses "
                "had become part of a longer token); not in the vocabulary",
            ).format(token, self._removed[tid])
        return None


def added_token_names(tokenizer) -> dict[str, list[str]]:
    """Token -> the names a model folder gives it (``bos_token``, ``eos_token``...)."""
    from core.chat import special_tokens_map

    names: dict[str, list[str]] = {}
    for name, value in special_tokens_map(tokenizer).items():
        for content in value if isinstance(value, list) else [value]:
            if isinstance(content, str):
                names.setdefault(content, []).append(name)
    return names


def added_token_flags(token, names: list[str] | None = None) -> str:
    """One line saying what an added token is and how it is matched.

    >>> from core.tokenizer import AddedToken
    >>> added_token_flags(AddedToken("<|im_start|>", 5, special=True, lstrip=True), ["bos_token"])
    'added token (special; lstrip) — bos_token'
    """
    flags = [name for name in ("lstrip", "rstrip", "single_word", "normalized") if getattr(token, name)]
    kind = (
        QCoreApplication.translate("Tokens", "special")
        if token.special
        else QCoreApplication.translate("Tokens", "not special")
    )
    text = QCoreApplication.translate("Tokens", "added token") + f" ({'; '.join([kind, *flags])})"
    return text + (f" — {', '.join(names)}" if names else "")


class VocabFilter(QSortFilterProxyModel):
    """Search by text (raw or as shown, case-insensitive) or by id; sorts on raw values."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._needle = ""
        self._id: int | None = None
        self._only: frozenset[int] | None = None  # show only these ids (a hygiene list)
        self.setSortRole(SORT_ROLE)

    def set_only(self, ids) -> None:
        """Show only the rows of ``ids`` (None: every row)."""
        source = self.sourceModel()
        if ids is not None and source is not None:
            source.fetch_all()
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            self._only = None if ids is None else frozenset(ids)
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._only = None if ids is None else frozenset(ids)
            self.invalidateFilter()

    def set_search(self, text: str) -> None:
        source = self.sourceModel()
        if text and source is not None:
            source.fetch_all()  # a search covers the whole vocabulary, not the rows shown so far
        if hasattr(self, "beginFilterChange"):  # Qt >= 6.9 (invalidateFilter is deprecated there)
            self.beginFilterChange()
            self._set_needle(text)
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self._set_needle(text)
            self.invalidateFilter()

    def _set_needle(self, text: str) -> None:
        self._needle = text.casefold()
        self._id = int(text) if text.strip().isdigit() else None

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        """Hand sorting to the source model (see VocabModel.sort); this proxy only filters."""
        source = self.sourceModel()
        if source is not None:
            source.sort(column, order)

    def filterAcceptsRow(self, row: int, parent) -> bool:  # noqa: N802
        source = self.sourceModel()
        if self._only is not None and source.entry(row)[0] not in self._only:
            return False
        if not self._needle:
            return True
        tid, token = source.entry(row)
        if self._id is not None and tid == self._id:
            return True
        return self._needle in token.casefold() or self._needle in source.rendered(row).casefold()


def count_token_uses(tokenizer, corpus, limit: int = FREQUENCY_WORDS, top_words=None):
    """Generator: token id -> uses when encoding the corpus's ``limit`` most frequent words,
    weighted by their counts. Yields ``None`` every few hundred words (a point where
    the caller may pause or stop) and returns ``(counts, top_words)``; pass
    ``top_words`` back in to skip choosing them again for the same corpus.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
    >>> hug_bpe = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=13)))
    >>> from core.corpus import count_lines
    >>> hug_id = hug_bpe.token_to_id("hug")
    >>> drain(count_token_uses(hug_bpe, count_lines(["hugs bug mug", "hug"])))[0][hug_id]   # hug s, hug
    2
    """
    if top_words is None:
        # 1. the most frequent words: a bounded heap, a slice at a time (500 k words take ~0.3 s)
        heap: list[tuple[int, str]] = []
        for n, (word, count) in enumerate(corpus.words.items()):
            if len(heap) < limit:
                heapq.heappush(heap, (count, word))
            elif count > heap[0][0]:
                heapq.heapreplace(heap, (count, word))
            if n % 2000 == 1999:
                yield None
        top_words = [(w, c) for c, w in sorted(heap, reverse=True)]
    # 2. encode each and add up its tokens
    # subtle: a byte-level model learned "Ġwords" from running text, where a word follows a
    # space; encoded alone, "words" never meets that token (Frequency 0 for every Ġ-token).
    # So words are encoded as most of their uses occur: after a space.
    lead = " " if style_for(tokenizer).byte_level else ""
    counts: Counter = Counter()
    for n, (word, count) in enumerate(top_words):
        for tid in tokenizer.encode(lead + word).ids:
            counts[tid] += count
        if n % 200 == 199:
            yield None
    return dict(counts), top_words


class CorpusFrequencies:
    """Runs :func:`count_token_uses` on the event loop in slices of ``SLICE_SECONDS``."""

    def __init__(self, on_done, parent=None, owner=None):
        self._on_done = on_done
        # subtle: parented, so the timer dies with the panel; and when the panel or the
        # model ``on_done`` feeds (``owner``) is destroyed, the run stops there: a slice
        # queued during teardown must not call into a deleted C++ object.
        self._timer = QTimer(parent, interval=0)
        self._timer.timeout.connect(self._work)
        self._top: tuple | None = None  # (corpus, its top words) of the last run
        self._job = None
        self._corpus = None
        self._owners = [o for o in (parent, owner) if o is not None]
        for obj in self._owners:
            obj.destroyed.connect(self.stop)

    def _alive(self) -> bool:
        return all(shiboken6.isValid(o) for o in self._owners) and shiboken6.isValid(self._timer)

    def stop(self, *_args) -> None:
        """Drop the run for good (its panel or model is going away)."""
        self._job = None
        if shiboken6.isValid(self._timer):
            self._timer.stop()

    def start(self, tokenizer, corpus) -> None:
        """Start over (a new tokenizer or corpus); an unfinished run is dropped."""
        self.stop()
        if not self._alive():
            return
        if tokenizer is None or corpus is None or not getattr(corpus, "words", None):
            return
        top = self._top[1] if self._top is not None and self._top[0] is corpus else None
        self._corpus = corpus
        self._job = count_token_uses(tokenizer, corpus, top_words=top)
        self._timer.start()

    def running(self) -> bool:
        return self._job is not None and shiboken6.isValid(self._timer) and self._timer.isActive()

    def finish_now(self) -> None:
        """Run to the end synchronously (tests, screenshots)."""
        while self._job is not None:
            self._work(deadline=None)

    def _work(self, deadline: float | None = SLICE_SECONDS) -> None:
        if self._job is None or not self._alive():
            self.stop()
            return
        stop = None if deadline is None else time.perf_counter() + deadline
        try:
            while stop is None or time.perf_counter() < stop:
                next(self._job)
        except StopIteration as done:
            counts, top = done.value
            self.stop()
            self._top = (self._corpus, top)
            if self._alive():
                self._on_done(counts)


def base_token_kind(tokenizer, token: str) -> str:
    """What a token no merge built is, in words (the Vocabulary panel's side label).

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}   # the Hugging Face course's table
    >>> hug_bpe = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=13)))
    >>> base_token_kind(hug_bpe, "<unk>")
    'the unknown token: it stands for any text the vocabulary cannot spell'
    """
    vocab = tokenizer.get_vocab()
    if token not in vocab:
        return ""
    unk = tokenizer.model.unk_token
    if token == unk:
        return QCoreApplication.translate(
            "Tokens", "the unknown token: it stands for any text the vocabulary cannot spell"
        )
    if any(t.content == token for t in tokenizer.added_tokens):
        return QCoreApplication.translate(
            "Tokens", "a special token: added whole, never built by merges nor split"
        )
    return QCoreApplication.translate(
        "Tokens", "a base token: one of the alphabet's characters (or bytes), present before the first merge"
    )


class VocabularyPanel(QWidget):
    """Searchable vocabulary table + the merge tree of the selected token."""

    token_selected = Signal(str)

    def __init__(self, state, parent: QWidget | None = None):
        super().__init__(parent)
        self.state = state
        self.model = VocabModel(self)
        self.proxy = VocabFilter(self)
        self.proxy.setSourceModel(self.model)
        self.frequencies = CorpusFrequencies(self._frequencies_found, self, owner=self.model)
        self._pending_tokenizer: tuple | None = None  # (tokenizer,) waiting to be shown
        self._full_shown = None  # state.full_tokenizer when the table was last rebuilt
        self._follow_pending: str | None = None  # the token to select once the table is rebuilt
        self._applying = False
        # subtle: not 0 ms, so the Segmentation's repaint (a posted event) goes first
        self._apply_timer = QTimer(self, singleShot=True, interval=FOLLOW_DELAY_MS)
        self._apply_timer.timeout.connect(self.apply_pending)
        self.hygiene_found = None  # core.measures.Hygiene of the shown tokenizer, once found
        self._hygiene_of: tuple | None = None  # (tokenizer, with corpus uses) it was found for
        self.hygiene_job: Job | None = None
        self._hygiene_timer = QTimer(self, singleShot=True, interval=HYGIENE_DELAY_MS)
        self._hygiene_timer.timeout.connect(self._start_hygiene)
        self._build()
        state.tokenizer_changed.connect(self.set_tokenizer)
        state.corpus_changed.connect(lambda _c: self._start_frequencies())
        if hasattr(state, "token_focused"):
            state.token_focused.connect(self._follow_token)
        if state.tokenizer is not None:
            self.set_tokenizer(state.tokenizer)
        else:
            self._update_count()

    def _build(self) -> None:
        self.search = QLineEdit()
        self.search.setPlaceholderText(self.tr("Search tokens: text, ##, ▁, ␣, or an id"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._search_changed)
        self.count = QLabel()
        self.count.setObjectName("hint")
        self.hygiene = QComboBox()
        for key, label in HYGIENE_LISTS:
            self.hygiene.addItem(QCoreApplication.translate("Hygiene", label), key)
            self.hygiene.setItemData(
                self.hygiene.count() - 1,
                QCoreApplication.translate("Hygiene", HYGIENE_TIPS[key]),
                Qt.ItemDataRole.ToolTipRole,
            )
        self.hygiene.setToolTip(QCoreApplication.translate("Hygiene", HYGIENE_TIPS[""]))
        self.hygiene.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.hygiene.setMinimumContentsLength(12)
        self.hygiene.currentIndexChanged.connect(lambda _i: self._hygiene_changed())
        self.only_marked = QCheckBox(self.tr("Only these"))
        self.only_marked.setToolTip(self.tr("List only the tokens of the chosen hygiene list"))
        self.only_marked.setEnabled(False)
        self.only_marked.toggled.connect(lambda _on: self._show_marked())
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.hygiene)
        top.addWidget(self.only_marked)
        top.addWidget(self.count)

        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setProperty("sortable", True)  # room for the arrow (explorer.qss)
        self.table.sortByColumn(COL_ID, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.setAlternatingRowColors(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(COL_TOKEN, QHeaderView.ResizeMode.Stretch)
        font = QFont(self.table.font())
        font.setPointSizeF(font.pointSizeF() + 1)
        self.table.setFont(font)
        header.ensurePolished()  # the style sheet's padding and the font count in the hints below
        for col, width in ((COL_ID, 70), (COL_LENGTH, 72), (COL_FREQ, 102), (COL_RANK, 82)):
            # room for the title and its sort arrow (explorer.qss pads sortable headers on the right)
            self.table.setColumnWidth(col, max(width, header.sectionSizeHint(col)))
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)

        self.tree_title = QLabel(self.tr("Select a token to see how it was built."))
        self.tree_title.setTextFormat(Qt.TextFormat.RichText)
        self.tree_title.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels([self.tr("token"), self.tr("merge")])
        self.tree.setColumnWidth(0, 200)
        self.tree.setFont(font)
        right = QWidget()
        rl = QVBoxLayout(right)
        rl.setContentsMargins(0, 0, 0, 0)
        rl.addWidget(self.tree_title)
        rl.addWidget(self.tree, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        # a narrow tab (the default layout's right column) stacks the merge tree under the
        # table: side by side, the Token column was squeezed to nothing
        wide = self.width() >= SIDE_BY_SIDE_MIN_WIDTH
        orientation = Qt.Orientation.Horizontal if wide else Qt.Orientation.Vertical
        if self.splitter.orientation() != orientation:
            self.splitter.setOrientation(orientation)

    # -- state ------------------------------------------------------------------
    def set_tokenizer(self, tokenizer) -> None:
        """Show ``tokenizer``'s vocabulary; while the panel is hidden (a closed dock or a tab
        behind another) the table waits, and is rebuilt once when shown."""
        if not on_screen(self):
            self._pending_tokenizer = (tokenizer,)
            self.frequencies.start(None, None)  # a count for the old tokenizer is moot
            return
        full = getattr(self.state, "full_tokenizer", None)
        if (
            self.model.tokenizer is not None
            and full is not None
            and full is self._full_shown
            and not self._applying
        ):
            # subtle: a slider move (same trained model, another cut): the Segmentation
            # repaints first, the table follows on the next event-loop turn, once per drag.
            self._pending_tokenizer = (tokenizer,)
            self._apply_timer.start()
            return
        self._apply_timer.stop()
        self._pending_tokenizer = None
        self._full_shown = full
        selected = self._follow_pending or self.selected_token()
        self._follow_pending = None
        self.model.set_tokenizer(tokenizer, getattr(self.state, "merge_events", ()))
        if self.search.text():
            self.proxy.set_search(self.search.text())
        self.hygiene_found, self._hygiene_of = None, None
        self._hygiene_changed()
        self._update_count()
        self._start_frequencies()
        if selected is not None and self.select_token(selected):
            return
        self._show_tree(None)

    def _start_frequencies(self) -> None:
        """Recount corpus frequencies for the shown tokenizer; while the panel is hidden
        (a tab behind Compare) the count waits until it is shown."""
        self.model.set_frequencies(None)
        self.frequencies.start(None, None)  # drop a run for the previous tokenizer
        self._frequencies_stale = True
        if on_screen(self):
            self._frequencies_stale = False
            self.frequencies.start(self.model.tokenizer, getattr(self.state, "corpus", None))

    def apply_pending(self) -> None:
        """Rebuild the table for the latest tokenizer that arrived while it waited."""
        pending, self._pending_tokenizer = self._pending_tokenizer, None
        self._apply_timer.stop()
        if pending is not None:
            self._applying = True
            try:
                self.set_tokenizer(pending[0])
            finally:
                self._applying = False

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        self.catch_up()

    def catch_up(self) -> None:
        """Shown (or its dock tab selected): rebuild and count what waited while hidden."""
        if not self.isVisible():
            return
        if self._pending_tokenizer is not None:
            self.apply_pending()
        elif getattr(self, "_frequencies_stale", False):
            self._start_frequencies()

    # -- hygiene --------------------------------------------------------------------
    def _frequencies_found(self, counts) -> None:
        self.model.set_frequencies(counts)
        if self.hygiene.currentData() in ("unused", "intermediate_only"):
            self._hygiene_changed()  # these two need the corpus's uses, which just arrived

    def _hygiene_changed(self) -> None:
        """The chosen list (or the tokenizer) changed: tint what is known, find what is not."""
        key = self.hygiene.currentData()
        tokenizer = self.model.tokenizer
        self.only_marked.setEnabled(bool(key))
        if not key or tokenizer is None:
            self._hygiene_timer.stop()
            self._show_marked()
            return
        wanted = (tokenizer, self.model.frequencies is not None)
        if self._hygiene_of == wanted and self.hygiene_found is not None:
            self._show_marked()
            return
        self._show_marked()  # cleared until found
        self._hygiene_timer.start()

    def _start_hygiene(self) -> None:
        tokenizer = self.model.tokenizer
        if tokenizer is None or not self.hygiene.currentData():
            return
        if self.hygiene_job is not None and self.hygiene_job.running:
            self.hygiene_job.cancel()
        used = self.model.frequencies
        key = (tokenizer, used is not None)
        job = Job(hygiene_job, tokenizer, used, parent=self)
        self.hygiene_job = job
        job.finished.connect(lambda found: self._hygiene_found(key, found))
        job.failed.connect(lambda message: self.count.setText(self.tr("⚠ {0}").format(message)))
        self.count.setText(self.tr("checking the vocabulary…"))
        job.start()

    def _hygiene_found(self, key: tuple, found) -> None:
        if key[0] is not self.model.tokenizer:
            return  # another tokenizer is shown by now
        self.hygiene_found, self._hygiene_of = found, key
        self._show_marked()

    def hygiene_ids(self) -> tuple[int, ...] | None:
        """The ids of the chosen hygiene list for the shown tokenizer (None: not found yet, or
        a list the model or the corpus cannot give)."""
        key, found = self.hygiene.currentData(), self.hygiene_found
        if not key or found is None:
            return None
        if key == "pieces":
            return tuple(sorted(set(found.byte_pieces) | set(found.control_pieces)))
        return getattr(found, key)

    def _show_marked(self) -> None:
        ids = self.hygiene_ids()
        self.model.set_marked(ids or ())
        self.proxy.set_only(ids if ids is not None and self.only_marked.isChecked() else None)
        self._update_count()

    def _search_changed(self, text: str) -> None:
        self.proxy.set_search(text)
        self._update_count()

    def _update_count(self) -> None:
        total = self.model.total()
        key = self.hygiene.currentData()
        if self.model.tokenizer is None:
            self.count.setText(self.tr("no tokenizer yet"))
        elif key and self.hygiene_found is not None:
            ids = self.hygiene_ids()
            if ids is None:
                self.count.setText(
                    self.tr("needs a merge model")
                    if key == "intermediate_only" and self.model.frequencies is not None
                    else self.tr("needs a corpus")
                )
            else:
                self.count.setText(self.tr("{0:,} of {1:,} tokens tinted").format(len(ids), total))
        elif self.search.text():
            self.count.setText(self.tr("{0:,} of {1:,} tokens").format(self.proxy.rowCount(), total))
        else:
            self.count.setText(self.tr("{0:,} tokens").format(total))

    # -- selection and the merge tree -------------------------------------------------
    def selected_token(self) -> str | None:
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        return self.model.entry(self.proxy.mapToSource(index).row())[1]

    def select_token(self, token: str) -> bool:
        row = self.model.row_of(token)
        if row is None:
            return False
        while row >= self.model.rowCount():
            self.model.fetchMore()
        index = self.proxy.mapFromSource(self.model.index(row, COL_TOKEN))
        if not index.isValid():
            return False
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)
        self._show_tree(token)
        return True

    def _follow_token(self, token: str) -> None:
        """The Segmentation cursor moved onto ``token``: select it (unless a search hides it)."""
        if self._pending_tokenizer is not None:
            self._follow_pending = token  # selected once the table is rebuilt
            return
        if token != self.selected_token():
            self._following = True
            try:
                self.select_token(token)
            finally:
                self._following = False

    def _row_changed(self, current, _previous) -> None:
        if not current.isValid():
            self._show_tree(None)
            return
        token = self.model.entry(self.proxy.mapToSource(current).row())[1]
        self._show_tree(token)
        if not getattr(self, "_following", False):
            self.token_selected.emit(token)

    def _show_tree(self, token: str | None) -> None:
        self.tree.clear()
        if token is None or self.model.tokenizer is None:
            self.tree_title.setText(self.tr("Select a token to see how it was built."))
            return
        style = self.model.style
        # subtle: the label is rich text, so "<unk>" must be escaped or it vanishes as a tag
        shown = html.escape(render_token(token, style))
        if self.model.kind == "unigram":
            tid = self.model.tokenizer.model.token_to_id(token)
            score = self.model.tokenizer.model.score(tid) if tid is not None else float("nan")
            self.tree_title.setText(
                self.tr(
                    "<b>{0}</b>: a Unigram piece (log-probability {1:.3f}). Unigram keeps the pieces that best explain the corpus; no piece is built from others by merges."
                ).format(shown, score)
            )
            return
        root = merge_tree(token, self.model.sources)
        if not root[2]:
            tok = self.model.tokenizer
            why = base_token_kind(tok, token)
            special = token == tok.model.unk_token or any(t.content == token for t in tok.added_tokens)
            if self.model.kind == "wordpiece" and not self.model.sources and not special:
                why = self.tr("this WordPiece vocabulary carries no merges (train it here to see them)")
            self.tree_title.setText(self.tr("<b>{0}</b>: {1}").format(shown, why))
        else:
            self.tree_title.setText(
                self.tr("How <b>{0}</b> was built, merge by merge (numbers: merge step)").format(shown)
            )
        item = self._tree_item(root, style)
        self.tree.addTopLevelItem(item)
        self.tree.expandAll()

    def _tree_item(self, node, style: TokenStyle) -> QTreeWidgetItem:
        token, step, children = node
        item = QTreeWidgetItem([render_token(token, style), f"#{step}" if step is not None else ""])
        item.setData(0, Qt.ItemDataRole.UserRole, token)
        tid = self.model.tokenizer.token_to_id(token) if self.model.tokenizer is not None else None
        if tid is not None:  # the token's colour in the segmentation
            item.setData(0, Qt.ItemDataRole.DecorationRole, palette.colour_of((palette.hue_index(tid), 0)))
        if step is None:
            item.setForeground(0, QBrush(QColor(theme.current().muted)))
        for child in children:
            item.addChild(self._tree_item(child, style))
        return item

    def tree_text(self) -> list[str]:
        """The merge tree as indented lines: ``token  #step`` (tests, copying)."""
        out: list[str] = []

        def walk(item: QTreeWidgetItem, depth: int) -> None:
            step = item.text(1)
            out.append("  " * depth + item.text(0) + (f"  {step}" if step else ""))
            for i in range(item.childCount()):
                walk(item.child(i), depth + 1)

        for i in range(self.tree.topLevelItemCount()):
            walk(self.tree.topLevelItem(i), 0)
        return out
