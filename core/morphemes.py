"""Morpheme-aware pre-tokenization for Korean (``ko-morph``) and Japanese (``ja-morph``).

One verb, as every pre-tokenizer: ``pre_tokenize(NormalizedString) -> list[NormalizedString]``.
A real morphological analyser cuts each word into morphemes, so a model trained
on the pieces never learns a token that crosses a morpheme boundary (Park et al.
2020, "An Empirical Study of Tokenization Strategies for Various Korean NLP
Tasks", found BPE inside morphemes beat plain BPE on most tasks):

    >>> MorphemeSplit("ko").split_words("철수는 치킨을 먹고")
    ['▁철수', '는', '▁치킨', '을', '▁먹', '고']

**Word boundaries** are kept as SentencePiece and the ``metaspace`` pre-tokenizer
keep them: spaces become ``▁`` and each word's *first* piece starts with it;
morphemes inside a word carry no mark. The ``Metaspace`` decoder therefore
restores the spaces (``▁철수 는 ▁치킨 을`` -> ``철수는 치킨을``), and a
morpheme-aware model differs from a ``metaspace`` one only by the extra cuts.

**Offsets are exact**: pieces are slices of the text, never the analyser's
lemmas. Kiwi analyses 했 as 하 + 었; both share the one character, so no cut
falls there and 했 stays whole. A cut is made only where both neighbours are
non-space and one of them is in the language's script (Hangul for ``ko``; kana,
kanji and ``ー々`` for ``ja``), so text in other scripts (``hello,world``,
emoji, digits) passes through exactly as ``metaspace`` cuts it.

**Jamo**: after the ``jamo`` normalizer the text is conjoining jamo, which the
analysers do not read; the analyser is shown the text recomposed into
syllables (:func:`core.hangul.compose_spans`) and its cuts mapped back.

Analysers (runtime dependencies, see the README; nothing downloads at run time):

- ``ko``: kiwipiepy, whose model ships as the ``kiwipiepy_model`` package;
- ``ja``: SudachiPy with ``sudachidict_core``, split mode A (the shortest units).

Each process loads its analyser once, on first use (about a second for Kiwi).
If a package is missing, building the pre-tokenizer raises a ConfigError that
says which package to install.

Leaves out: part-of-speech tags (only the cuts are used), user dictionaries,
and `tokenizers` compatibility (it has no analyser; see ``core.formats.detect``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from core.errors import ConfigError
from core.hangul import compose_spans, is_conjoining_jamo, is_hangul
from core.pre_tokenizers import Metaspace
from core.text import NormalizedString

# language -> (import name, what to install, what the analyser is called in messages)
ANALYSERS: dict[str, tuple[str, str, str]] = {
    "ko": ("kiwipiepy", "pip install kiwipiepy kiwipiepy_model", "kiwipiepy (Kiwi)"),
    "ja": ("sudachipy", "pip install sudachipy sudachidict_core", "SudachiPy (core dictionary)"),
}
# subtle: Sudachi refuses inputs over 49,149 bytes; longer lines are analysed in
# pieces of this many characters, cut after 。 or a space when there is one.
_JA_CHUNK_CHARS = 4000


def _is_japanese(c: str) -> bool:
    o = ord(c)
    return (
        0x3040 <= o <= 0x30FF  # hiragana, katakana
        or 0x31F0 <= o <= 0x31FF
        or 0xFF66 <= o <= 0xFF9F  # half-width katakana
        or 0x4E00 <= o <= 0x9FFF  # CJK ideographs
        or 0x3400 <= o <= 0x4DBF
        or 0xF900 <= o <= 0xFAFF
        or 0x20000 <= o <= 0x3134F
        or c in "々〆ヶ"
    )


_SCRIPT = {"ko": is_hangul, "ja": _is_japanese}


class _Kiwi:
    def __init__(self) -> None:
        from kiwipiepy import Kiwi

        self._kiwi = Kiwi()  # one thread: the corpus counter runs processes, not threads

    def boundaries(self, text: str) -> set[int]:
        out: set[int] = set()
        for t in self._kiwi.tokenize(text):
            out.add(t.start)
            out.add(t.start + t.len)
        return out


class _Sudachi:
    def __init__(self) -> None:
        from sudachipy import Dictionary, SplitMode

        dictionary = Dictionary(dict="core")
        # SudachiPy 0.7 renamed create() to tokenizer() (and deprecated the old name)
        make = getattr(dictionary, "tokenizer", None)
        self._tok = make(mode=SplitMode.A) if make is not None else dictionary.create(SplitMode.A)

    def boundaries(self, text: str) -> set[int]:
        out: set[int] = set()
        start = 0
        while start < len(text):
            end = min(len(text), start + _JA_CHUNK_CHARS)
            if end < len(text):
                cut = max(text.rfind("。", start, end), text.rfind(" ", start, end))
                if cut > start:
                    end = cut + 1
            for m in self._tok.tokenize(text[start:end]):
                out.add(start + m.begin())
                out.add(start + m.end())
            start = end
        return out


_LOADERS = {"ko": _Kiwi, "ja": _Sudachi}
_loaded: dict[str, object] = {}
_lock = threading.Lock()


def check_analyser(language: str) -> None:
    """Raise a ConfigError naming the package to install if ``language``'s analyser is missing."""
    import importlib.util

    module, install, name = ANALYSERS[language]
    missing = [m for m in (module, "kiwipiepy_model" if language == "ko" else "sudachidict_core")]
    if any(importlib.util.find_spec(m) is None for m in missing):
        raise ConfigError(
            f"the {language}-morph pre-tokenizer needs the {name} analyser, which is not installed: {install}"
        )


def analyser(language: str):
    """The process's analyser for ``language``, loaded on first use."""
    found = _loaded.get(language)
    if found is None:
        with _lock:
            found = _loaded.get(language)
            if found is None:
                check_analyser(language)
                found = _loaded[language] = _LOADERS[language]()
    return found


class MorphemeSplit(Metaspace):
    """``metaspace`` cutting, plus a cut at every morpheme boundary the analyser finds.

    ``language``: ``"ko"`` (kiwipiepy) or ``"ja"`` (SudachiPy). ``replacement`` and
    ``prepend_scheme`` are Metaspace's (a ``▁`` on each word's first piece).

        >>> MorphemeSplit("ko").pre_tokenize_str("했어요")
        [('▁했', (0, 1)), ('어요', (1, 3))]
    """

    # Counting a corpus is worth both cores from this size on (core.corpus): the analyser reads
    # ~0.1-0.3 MB/s per core, so a worker's start-up (Python + the model, ~1-2 s) pays off early.
    parallel_min_bytes = 2 << 20

    def __init__(self, language: str = "ko", replacement: str = "▁", prepend_scheme: str = "always"):
        if language not in ANALYSERS:
            raise ConfigError(f"no morpheme analyser for {language!r}; choose from {', '.join(ANALYSERS)}")
        super().__init__(replacement, prepend_scheme, split=True)
        self.language = language
        self._in_script = _SCRIPT[language]
        check_analyser(language)

    @property
    def name(self) -> str:
        return f"{self.language}-morph"

    # -- where to cut ---------------------------------------------------------------
    def morpheme_cuts(self, text: str) -> list[int]:
        """Positions in ``text`` where a morpheme boundary cuts a word: ``"먹고 있다"`` -> ``[1, 4]``."""
        if not any(self._in_script(c) for c in text):
            return []  # other scripts pass through untouched (and the analyser is not even loaded)
        if self.language == "ko" and any(is_conjoining_jamo(c) for c in text):
            spans = compose_spans(text)
            found = analyser(self.language).boundaries("".join(c for c, _, _ in spans))
            points = {spans[b][1] if b < len(spans) else len(text) for b in found}
        else:
            points = analyser(self.language).boundaries(text)
        return sorted(b for b in points if 0 < b < len(text) and self._allows_cut(text, b))

    def _allows_cut(self, text: str, b: int) -> bool:
        before, after = text[b - 1], text[b]
        if before.isspace() or after.isspace():
            return False  # spaces already end words (and a ▁ must stay on its word)
        return self._in_script(before) or self._in_script(after)

    # -- the verb and its cheap views ----------------------------------------------------
    def pre_tokenize(self, text: NormalizedString, first_section: bool = True) -> list[NormalizedString]:
        cuts = self.morpheme_cuts(text.normalized)
        replaced = self._replaced(text, first_section)
        shift = len(replaced.normalized) - len(text.normalized)  # 1 if a ▁ was prepended
        return _cut(replaced, self.replacement, [c + shift for c in cuts])

    def split_words(self, text: str, first_section: bool = True) -> list[str]:
        # first_section: Metaspace's signature; a line of a corpus is always a first section here
        return self._pieces(text, self.morpheme_cuts(text))

    def split_lines(self, lines: Iterable[str]) -> list[str]:
        """The pieces of many lines at once (the corpus counter's path)."""
        out: list[str] = []
        for line in lines:
            out.extend(self._pieces(line, self.morpheme_cuts(line)))
        return out

    def _pieces(self, text: str, cuts: list[int]) -> list[str]:
        r = self.replacement
        s = text.replace(" ", r)
        shift = 0
        if s and not s.startswith(r) and self.prepend_scheme != "never":
            s, shift = r + s, 1
        bounds = sorted({i for i, c in enumerate(s) if c == r and i > 0} | {c + shift for c in cuts})
        bounds = [0, *bounds, len(s)]
        return [s[a:b] for a, b in zip(bounds, bounds[1:]) if b > a]

    def to_dict(self) -> dict:
        return {
            "type": "MorphemeSplit",
            "language": self.language,
            "analyser": ANALYSERS[self.language][0],
            "replacement": self.replacement,
            "prepend_scheme": self.prepend_scheme,
        }

    @classmethod
    def from_dict(cls, d: dict) -> MorphemeSplit:
        return cls(d.get("language", "ko"), d.get("replacement", "▁"), d.get("prepend_scheme", "always"))

    def portable_dict(self) -> dict:
        """What ``tokenizer.json`` can hold instead: the Metaspace cutting without the analyser."""
        return Metaspace(self.replacement, self.prepend_scheme).to_dict()

    def __repr__(self) -> str:
        return f"MorphemeSplit({self.language!r})"


def _cut(text: NormalizedString, replacement: str, cuts: list[int]) -> list[NormalizedString]:
    s = text.normalized
    bounds = sorted({i for i, c in enumerate(s) if c == replacement and i > 0} | set(cuts))
    bounds = [0, *bounds, len(s)]
    return [text.slice(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]
