"""What SentencePiece's trainers share (``trainer_interface.cc``): the options, the words a corpus
line becomes, the required characters, which pieces are valid and how the piece table is laid out.

    >>> settings = SentencePieceSettings.from_extra({"split_digits": True})
    >>> settings.is_valid_piece("▁ab"), settings.is_valid_piece("a▁b"), settings.is_valid_piece("12")
    (True, False, False)

The algorithms themselves live with their families: ``core.models.bpe.sentencepiece_trainer``
and ``core.models.unigram.sentencepiece_trainer``. Both start from the same word counts:
each corpus line normalized as ``spm_train --normalization_rule_name=identity`` does (extra
spaces dropped, a dummy ``▁`` in front, spaces as ``▁``), user-defined symbols cut out, then
split into words at ``▁`` (:class:`core.pre_tokenizers.SentencePieceWords`).

Leaves out: the ``nmt_nfkc`` character map (SentencePiece builds it from ICU data; a model
trained here says ``identity``), ``--split_by_whitespace=false``, sentence sampling
(``--input_sentence_size``) and differential privacy.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple

from core.errors import ConfigError
from core.records import frozen_record
from core.sentencepiece_pieces import (
    BYTE,
    CONTROL,
    NORMAL,
    SPACE,
    UNKNOWN,
    USER_DEFINED,
    Piece,
    byte_piece,
    f32,
)

UNK_CHAR = "\u2585"  # stands for a character outside the required ones (SentencePiece's kUNKChar)
LINE_END = "\x00"  # ends the last word of a line for Unigram seeding (never in a piece)
BOUNDARY = "\t"  # where a user-defined symbol was: no piece crosses it (kUPPBoundaryChar)
MAX_SENTENCE_BYTES = 4192  # longer lines are skipped, as spm_train's --max_sentence_length

# TrainOptions.extra keys of the SentencePiece trainers, with spm_train's defaults
DEFAULTS: dict[str, object] = {
    "byte_fallback": False,
    "character_coverage": 0.9995,
    "split_digits": False,
    "max_sentencepiece_length": 16,
    "user_defined_symbols": (),
    "treat_whitespace_as_suffix": False,
    "add_dummy_prefix": True,
}


@frozen_record
class SentencePieceSettings(NamedTuple):
    """spm_train's options that this explorer trains with (names as spm_train spells them).

    (A frozen record, not a dataclass: ``dataclasses`` and the ``inspect`` behind it were ~6 ms
    of CPU in every SentencePiece training process, see ``core.records``.)
    """

    byte_fallback: bool = False
    character_coverage: float = 0.9995
    split_digits: bool = False
    max_sentencepiece_length: int = 16
    user_defined_symbols: tuple[str, ...] = ()
    treat_whitespace_as_suffix: bool = False
    add_dummy_prefix: bool = True

    @classmethod
    def from_extra(cls, extra: dict) -> SentencePieceSettings:
        """The settings in ``TrainOptions.extra``; ConfigError for a value spm_train refuses."""
        values = {k: extra.get(k, v) for k, v in DEFAULTS.items()}
        for k in ("byte_fallback", "split_digits", "treat_whitespace_as_suffix", "add_dummy_prefix"):
            if not isinstance(values[k], bool):
                raise ConfigError(f"{k} is on or off (True/False), not {values[k]!r}")
        cov = values["character_coverage"]
        if isinstance(cov, bool) or not isinstance(cov, (int, float)) or not 0.98 <= cov <= 1.0:
            raise ConfigError(
                f"character coverage must be between 0.98 and 1.0 (spm_train's range), not {cov!r}"
            )
        n = values["max_sentencepiece_length"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 512:
            raise ConfigError(f"max sentencepiece length must be a whole number from 1 to 512, not {n!r}")
        symbols = values["user_defined_symbols"]
        if isinstance(symbols, str):
            symbols = [s for s in symbols.split(",") if s]
        if not all(isinstance(s, str) and s and " " not in s for s in symbols):
            raise ConfigError(
                f"user-defined symbols must be non-empty strings without spaces, not {symbols!r}"
            )
        values["user_defined_symbols"] = tuple(symbols)
        values["character_coverage"] = float(cov)
        return cls(**values)

    def is_valid_piece(self, piece: str) -> bool:
        """Whether spm_train may make ``piece`` (``IsValidSentencePiece``, with
        ``--split_by_whitespace --split_by_unicode_script --split_by_number`` on, as by default):
        not too long, no unknown or boundary character, ``▁`` only first (or only last with
        ``treat_whitespace_as_suffix``), one Unicode script (kana count as Han), digits alone
        with ``split_digits``."""
        n = len(piece)
        if not 0 < n <= self.max_sentencepiece_length:
            return False
        prev: str | None = None  # None: any script
        last = n - 1
        for pos, c in enumerate(piece):
            if c in (UNK_CHAR, "\0", BOUNDARY, " "):
                return False
            if c == SPACE:
                if (pos < last) if self.treat_whitespace_as_suffix else (pos > 0):
                    return False
                continue
            s: str | None = script_of(c)
            if s == "INHERITED":
                s = prev
            if self.split_digits and is_decimal(c) and n > 1:
                return False
            if s is not None and prev is not None and s != prev:
                return False
            prev = s
        return True

    def valid_pieces(self, codes, pos, length):
        """:meth:`is_valid_piece` of many substrings at once: substring ``j`` is the code points
        ``codes[pos[j] : pos[j] + length[j]]`` (a numpy array of them; values past Unicode are
        invalid). Returns a numpy array of bools.

            >>> import numpy as np
            >>> text = "▁ab▁a1カa"
            >>> codes = np.array([ord(c) for c in text])
            >>> SentencePieceSettings().valid_pieces(codes, np.array([0, 1, 4, 6]), np.array([3, 3, 2, 1])).tolist()
            [True, False, False, True]
        """
        import numpy as np

        codes = np.asarray(codes)
        pos = np.asarray(pos, dtype=np.int64)
        length = np.asarray(length, dtype=np.int64)
        present = np.flatnonzero(np.bincount(codes[codes >= 0], minlength=1))
        bad_code, ws_code, inherited, any_script = -3, -4, -2, -1
        table = np.full(int(present.max(initial=0)) + 1, bad_code, dtype=np.int32)
        is_digit = np.zeros(len(table), dtype=bool)
        names: dict[str, int] = {}
        for c in present.tolist():
            if c > 0x10FFFF or chr(c) in (UNK_CHAR, "\0", BOUNDARY, " "):
                continue
            ch = chr(c)
            if ch == SPACE:
                table[c] = ws_code
                continue
            name = script_of(ch)
            table[c] = inherited if name == "INHERITED" else names.setdefault(name, len(names))
            is_digit[c] = is_decimal(ch)
        ok = (length > 0) & (length <= self.max_sentencepiece_length)
        prev = np.full(len(pos), any_script, dtype=np.int32)
        last = len(codes) - 1
        for j in range(int(length.max(initial=0))):
            active = ok & (j < length)
            c = np.where(active, codes[np.minimum(pos + j, last)], 0)
            cls = np.where(active, table[np.clip(c, 0, len(table) - 1)], any_script)
            cls = np.where(active & (c >= len(table)), bad_code, cls)
            ok &= ~(active & (cls == bad_code))
            ws = active & (cls == ws_code)
            ok &= ~(ws & ((j < length - 1) if self.treat_whitespace_as_suffix else (j > 0)))
            if self.split_digits:
                ok &= ~(active & is_digit[np.clip(c, 0, len(table) - 1)] & (length > 1))
            letter = active & (cls != ws_code) & (cls != bad_code)
            script = np.where(cls == inherited, prev, cls)
            ok &= ~(letter & (script >= 0) & (prev >= 0) & (script != prev))
            prev = np.where(letter, script, prev)
        return ok

    def meta_pieces(self, unk: str, controls: list[str]) -> list[Piece]:
        """The pieces before the learned ones, in id order: ``<unk>``, the control symbols
        (``<s>``, ``</s>``), the user-defined symbols, then with byte fallback the 256 bytes."""
        out = [Piece(unk, 0.0, UNKNOWN)] + [Piece(c, 0.0, CONTROL) for c in controls]
        out += [Piece(s, 0.0, USER_DEFINED) for s in self.user_defined_symbols]
        if self.byte_fallback:
            out += [Piece(byte_piece(b), 0.0, BYTE) for b in range(256)]
        seen: set[str] = set()
        for p in out:
            if p.piece in seen:
                raise ConfigError(f"{p.piece} is defined twice (special tokens and user-defined symbols)")
            seen.add(p.piece)
        return out


def last_sentence(lines: list[str], split_words) -> list[str]:
    """The words (``split_words(line)``) of the sentence ``spm_train`` reads last, or ``[]``.

    It skips empty lines, lines over ``MAX_SENTENCE_BYTES`` and lines holding ``▅`` as it reads
    them, then drops the lines that normalize to nothing by swapping each with the last one
    (``trainer_interface.cc``): so its last sentence is not always the file's last line.

        >>> words = lambda t: ["▁" + w for w in t.split()]
        >>> last_sentence(["a b", "  ", "c", "d e"], words)   # "  " takes "d e"'s place
        ['▁c']
    """
    short = MAX_SENTENCE_BYTES // 4  # characters that fit whatever their UTF-8 size
    added = [
        t
        for t in lines
        if t
        and (len(t) <= short or len(t.encode("utf-8", "surrogatepass")) <= MAX_SENTENCE_BYTES)
        and UNK_CHAR not in t
    ]
    empty = {i for i, t in enumerate(added) if not t.strip() and not split_words(t)}
    size = len(added)
    moved: dict[int, int] = {}  # slot -> index of the sentence swapped into it
    for p in sorted(empty):
        if p >= size:
            break
        while True:  # the slot holds an empty sentence: the last one takes its place
            size -= 1
            if size == p:
                break
            moved[p] = size  # (a slot at or past the scan was never written: it holds its own)
            if size not in empty:
                break
    if not size:
        return []
    return split_words(added[moved.get(size - 1, size - 1)])


def is_decimal(c: str) -> bool:
    """Whether ``c`` is a digit ``--split_digits`` keeps alone (ASCII or full-width)."""
    return "0" <= c <= "9" or "\uff10" <= c <= "\uff19"


@lru_cache(maxsize=65536)
def script_of(c: str) -> str:
    """SentencePiece's script of ``c`` for piece validity: kana and ``ー`` are Han, a character
    of no script (or unassigned) is Common.

    >>> script_of("a"), script_of("カ"), script_of("1")
    ('LATIN', 'HAN', 'COMMON')
    """
    from core.pre_tokenizers import _unicode_script

    name = _unicode_script(c)
    if name in ("UNKNOWN", "ANY"):
        return "COMMON"
    return name


def required_chars(word_counts: dict[str, int], coverage: float) -> dict[str, int]:
    """The characters spm_train keeps, most frequent first (ties: lower code point), until
    ``coverage`` of all characters is covered; the boundary character never counts.

    >>> required_chars({"▁aab": 3, "▁c": 1}, 1.0)
    {'a': 6, '▁': 4, 'b': 3, 'c': 1}
    """
    counts: dict[str, int] = {}
    for word, n in word_counts.items():
        for c in word:
            counts[c] = counts.get(c, 0) + n
    return covering_chars(counts, coverage)


def covering_chars(char_counts: dict[str, int], coverage: float) -> dict[str, int]:
    """:func:`required_chars` from the characters' counts.

    >>> covering_chars({"a": 6, "▁": 4, "b": 3, "c": 1}, 0.9)
    {'a': 6, '▁': 4, 'b': 3}
    """
    counts = dict(char_counts)
    counts.pop(" ", None)
    total = sum(counts.values())
    kept: dict[str, int] = {}
    accumulated = 0
    target = f32(coverage)
    # (a share this far below the target cannot round up to it: f32 is asked near the end only)
    near = target - 1e-6
    ordered = sorted(counts.items())  # (by character, then a stable sort by count: no key per item)
    ordered.sort(key=itemgetter(1), reverse=True)
    # subtle: spm_train compares a float (not a double) share with the float option
    for c, n in ordered:
        if total and accumulated / total >= near and f32(accumulated / total) >= target:
            break
        accumulated += n
        if c != BOUNDARY:
            kept[c] = n
    return kept


def mask_rare_chars(word_counts: dict[str, int], chars: dict[str, int]) -> dict[str, int]:
    """Words with every character outside ``chars`` replaced by :data:`UNK_CHAR`."""
    out: dict[str, int] = {}
    for word, n in word_counts.items():
        if not all(c in chars for c in word):
            word = "".join(c if c in chars else UNK_CHAR for c in word)
        out[word] = out.get(word, 0) + n
    return out


def sorted_chars(chars: dict[str, int]) -> list[str]:
    """The required characters in the order spm_train appends them: most frequent first, ties by code point."""
    ordered = sorted(chars.items())
    ordered.sort(key=itemgetter(1), reverse=True)
    return [c for c, _ in ordered]


def piece_table(meta: list[Piece], learned: list[str], chars: list[str]) -> list[Piece]:
    """Meta pieces, then the learned pieces and the required characters scored ``-rank``."""
    return list(meta) + [Piece(piece, -float(rank), NORMAL) for rank, piece in enumerate(learned + chars)]
