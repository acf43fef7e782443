"""subword-nmt-style BPE application: codes with ``</w>``, ``@@`` separators, glossaries, vocabulary filter.

    >>> bpe = SubwordNmt([("u", "g</w>"), ("h", "ug</w>"), ("p", "u")])
    >>> bpe.segment_line("hug pug pun\\n")
    'hug p@@ ug pu@@ n\\n'

This reproduces ``subword_nmt.apply_bpe`` (0.3.8), the tool of the seed
``002_*``, output for output, in these steps:

1. A line keeps its leading and trailing ``\\r``, ``\\n`` and spaces; the rest is
   split on single spaces (not tabs: a tab stays inside a word); empty words vanish.
2. Glossaries (words or regular expressions) are cut out of each word, one glossary
   after another: with glossary ``USA``, ``1934USABUSA`` -> ``1934 USA B USA``.
   A segment that a glossary matches whole is never split.
3. Each other segment is split into characters, the last one marked ``</w>`` (codes
   version 0.2; version 0.1 appends a separate ``</w>`` symbol), and the merge with the
   best rank (earliest line of the codes file) among its adjacent pairs is applied
   everywhere, left to right, until no pair is a merge. ``</w>`` is then dropped.
4. With a vocabulary, every subword that is not in it (non-final subwords are looked
   up as ``subword@@``) is split back by reversing the merge that made it, recursively,
   until each part is in the vocabulary or is not the result of any merge.
5. Every subword but the last of a word gets the separator: ``p@@ ug``.

Results are cached per segment, as subword-nmt does. Where subword-nmt crashes
(a glossary split that leaves an empty segment, e.g. a word ending in ``USA\\r`` inside
a line), the empty segment is skipped instead. With an empty vocabulary subword-nmt
silently applies no vocabulary filter; here that is a :class:`ConfigError`.

Leaves out: BPE-dropout, and learning codes (use ``subword-nmt learn-bpe`` or our BPE trainer).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from core.errors import ConfigError

END_OF_WORD = "</w>"
SUPPORTED_VERSIONS = ((0, 1), (0, 2))
_CACHE_LIMIT = 1_000_000
_EDGE = "\r\n "  # what subword-nmt strips from lines and glossary endings


def count_vocabulary(lines: Iterable[str]) -> dict[str, int]:
    """Word counts as ``subword-nmt get-vocab`` makes them (space-split, most frequent first).

    >>> count_vocabulary(["a b a\\n", "b  c"])
    {'a': 2, 'b': 2, 'c': 1}
    """
    counts: dict[str, int] = {}
    for line in lines:
        for word in line.strip(_EDGE).split(" "):
            if word:
                counts[word] = counts.get(word, 0) + 1
    # subtle: sorted() is stable, so equal counts keep first-seen order, as get-vocab's does.
    return dict(sorted(counts.items(), key=lambda kv: kv[1], reverse=True))


class _Glossary:
    """One glossary regex, compiled the three ways subword-nmt uses it."""

    def __init__(self, pattern: str):
        try:
            self.whole = re.compile("^" + pattern + "$")
            self.search = re.compile(pattern)
            self.split = re.compile(f"({pattern})")
        except re.error as e:
            raise ConfigError(f"glossary {pattern!r} is not a valid regular expression: {e}") from e

    def isolate(self, word: str) -> list[str]:
        """The word cut around every match: ``1934USABUSA`` -> ``['1934', 'USA', 'B', 'USA']``."""
        if self.whole.match(word) or not self.search.search(word):
            return [word]
        parts = self.split.split(word)
        parts, ending = parts[:-1], parts[-1]
        parts = [p for p in parts if p]  # drops "" and None (groups inside the glossary)
        return parts + [ending.strip(_EDGE)] if ending != "" else parts


class SubwordNmt:
    """Apply subword-nmt BPE codes to text.

    ``merges``: the codes, best first (``("u", "g</w>")``); a pair listed twice keeps its
    first rank. ``version``: the codes file's version, ``(0, 2)`` or ``(0, 1)``.
    ``vocabulary``: subwords allowed in the output (as get-vocab writes them, with the
    separator on non-final ones), already filtered by a threshold; None: no filter.
    ``glossaries``: words or regular expressions never split.
    """

    def __init__(
        self,
        merges: Sequence[tuple[str, str]],
        version: tuple[int, ...] = (0, 2),
        separator: str = "@@",
        vocabulary: Iterable[str] | None = None,
        glossaries: Sequence[str] | None = None,
    ):
        version = tuple(version)
        if version not in SUPPORTED_VERSIONS:
            raise ConfigError(
                f"subword-nmt codes version {'.'.join(map(str, version))} is not supported (0.1 or 0.2)"
            )
        merges = [tuple(m) for m in merges]
        for n, m in enumerate(merges, 1):
            if len(m) != 2 or not all(isinstance(u, str) and u for u in m):
                raise ConfigError(f"merge {n} ({m!r}) is not a pair of non-empty subword units")
        self.version = version
        self.merges = merges
        # Rank of each pair: the first time it is listed.
        self.ranks: dict[tuple[str, str], int] = {}
        for rank in range(len(merges) - 1, -1, -1):
            self.ranks[merges[rank]] = rank
        # subtle: when two merges make the same string (a+bc, ab+c) the one listed *first*
        # in the codes is the one undone, because subword-nmt builds this map walking the
        # ranks dict, whose keys were inserted from the last line to the first.
        self.made_from: dict[str, tuple[str, str]] = {a + b: (a, b) for (a, b) in self.ranks}
        self.separator = separator
        if vocabulary is not None:
            vocabulary = set(vocabulary)
            if not vocabulary:
                raise ConfigError(
                    "the vocabulary is empty: every subword would be out of vocabulary "
                    "(is the threshold above every count?)"
                )
        self.vocabulary: set[str] | None = vocabulary
        self.glossaries = list(glossaries or [])
        self._glossaries = [_Glossary(g) for g in self.glossaries]
        self._glossary_whole = (
            re.compile("^({})$".format("|".join(self.glossaries))) if self.glossaries else None
        )
        self._cache: dict[str, tuple[str, ...]] = {}

    # -- lines ------------------------------------------------------------------------
    def segment_line(self, line: str) -> str:
        """One line of text in, one line out, leading/trailing ``\\r\\n`` and spaces kept.

        >>> SubwordNmt([("a", "b</w>")]).segment_line("  ab ac \\n")
        '  ab a@@ c \\n'
        """
        out = ""
        lead = len(line) - len(line.lstrip(_EDGE))
        if lead:
            out += line[:lead]
        out += self.segment(line)
        trail = len(line) - len(line.rstrip(_EDGE))
        if trail and trail != len(line):
            out += line[-trail:]
        return out

    def segment(self, sentence: str) -> str:
        """The words of a sentence, segmented and joined with single spaces."""
        return " ".join(self.segment_tokens(sentence.strip(_EDGE).split(" ")))

    def segment_tokens(self, words: Iterable[str]) -> list[str]:
        """Subwords of each word, the separator on all but a word's last one."""
        out: list[str] = []
        for word in words:
            if not word:
                continue  # double spaces
            pieces = self.segment_word(word)
            if not pieces:
                continue
            out.extend(p + self.separator for p in pieces[:-1])
            out.append(pieces[-1])
        return out

    def segment_word(self, word: str) -> list[str]:
        """Subwords of one word, without separators: ``pug`` -> ``['p', 'ug']``."""
        return [piece for segment in self.isolate_glossaries(word) for piece in self.encode(segment)]

    def isolate_glossaries(self, word: str) -> list[str]:
        """Cut every glossary out of ``word``, glossary after glossary."""
        segments = [word]
        for glossary in self._glossaries:
            segments = [part for segment in segments for part in glossary.isolate(segment)]
        return segments

    # -- one segment -----------------------------------------------------------------------
    def encode(self, segment: str) -> tuple[str, ...]:
        """The subwords of one glossary-free segment (cached)."""
        cached = self._cache.get(segment)
        if cached is not None:
            return cached
        if self._glossary_whole is not None and self._glossary_whole.match(segment):
            result: tuple[str, ...] = (segment,)
        elif len(segment) <= 1:
            # subword-nmt returns a single character as it is (and crashes on "").
            return (segment,) if segment else ()
        else:
            result = tuple(self._check_vocabulary(self._apply_merges(segment)))
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[segment] = result
        return result

    def _apply_merges(self, segment: str) -> list[str]:
        """Apply the best-ranked merge everywhere, repeatedly; drop ``</w>``.

        >>> SubwordNmt([("a", "a")])._apply_merges("aaa")      # overlapping: x x x -> xx x
        ['aa', 'a']
        """
        if self.version == (0, 1):
            word = list(segment) + [END_OF_WORD]
        else:
            word = list(segment[:-1]) + [segment[-1] + END_OF_WORD]
        ranks = self.ranks
        while len(word) > 1:
            # 1. The best-ranked pair present (its leftmost occurrence breaks nothing: all go).
            best = None
            for pair in zip(word, word[1:]):
                rank = ranks.get(pair)
                if rank is not None and (best is None or rank < best[0]):
                    best = (rank, pair)
            if best is None:
                break
            first, second = best[1]
            merged = first + second
            # 2. Merge every occurrence, left to right; an overlapping one (x x x) is skipped.
            new_word: list[str] = []
            i = 0
            while i < len(word):
                if i + 1 < len(word) and word[i] == first and word[i + 1] == second:
                    new_word.append(merged)
                    i += 2
                else:
                    new_word.append(word[i])
                    i += 1
            word = new_word
        # 3. Do not print the end-of-word mark.
        if word[-1] == END_OF_WORD:
            word = word[:-1]
        elif word[-1].endswith(END_OF_WORD):
            word[-1] = word[-1][: -len(END_OF_WORD)]
        return word

    def _check_vocabulary(self, word: list[str]) -> list[str]:
        """Split out-of-vocabulary subwords back into known parts (no vocabulary: as is)."""
        if not self.vocabulary or not word:
            return word
        out: list[str] = []
        for subword in word[:-1]:
            if subword + self.separator in self.vocabulary:
                out.append(subword)
            else:
                out.extend(self._split_back(subword, final=False))
        last = word[-1]
        if last in self.vocabulary:
            out.append(last)
        else:
            out.extend(self._split_back(last, final=True))
        return out

    def _split_back(self, subword: str, final: bool) -> list[str]:
        """Undo the merge that made ``subword``, recursively, until the parts are known.

        A part is known when it is in the vocabulary (with the separator unless it ends
        the word); a subword no merge made is kept as it is.

        >>> SubwordNmt([("u", "g</w>"), ("h", "ug</w>")], vocabulary={"h@@", "ug"})._split_back("hug", True)
        ['h', 'ug']
        """
        sep, vocab = self.separator, self.vocabulary
        try:
            if final:
                left, right = self.made_from[subword + END_OF_WORD]
                right = right[:-4]  # subtle: subword-nmt cuts 4 characters, whatever they are
            else:
                left, right = self.made_from[subword]
        except KeyError:
            return [subword]
        out = [left] if left + sep in vocab else self._split_back(left, final=False)
        if (final and right in vocab) or (not final and right + sep in vocab):
            out.append(right)
        else:
            out.extend(self._split_back(right, final))
        return out

    def __repr__(self) -> str:
        return f"SubwordNmt({len(self.merges)} merges, version={self.version}, separator={self.separator!r})"
