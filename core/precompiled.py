"""SentencePiece's precompiled character map: a normalizer stored as data.

A SentencePiece model (and a ``tokenizer.json`` converted from one) carries its
normalization rules (``nmt_nfkc``, ``nfkc_cf``, ...) as one blob::

    <trie size: uint32 little-endian> <Darts double-array trie> <replacements, each NUL-terminated>

The trie's keys are UTF-8 strings to rewrite; a key's value is the byte offset
of its replacement in the third part. Normalizing scans the text left to right
and, at each position, rewrites the LONGEST key that starts there (no key: the
character is kept). So ``"ｶﾞ"`` (two half-width characters) becomes ``"ガ"``. With the
charsmap of a ``.model`` file trained with ``nmt_nfkc`` (the engine cannot build one, so this is
not a doctest; ``tests/formats/test_sentencepiece_precompiled.py`` runs it on SentencePiece's)::

    n = PrecompiledNormalizer(charsmap)
    n.normalize_str("ｶﾞ①")     # 'ガ1'

Every output character keeps the original span of the key it came from (see
:class:`core.text.NormalizedString`), so offsets survive.

Two ways to apply the map, because the two libraries differ:

- ``mode="sentencepiece"`` (the default, and what ``.model`` files get):
  longest match at each position, as SentencePiece's normalizer does; every
  output character spans the whole key it came from.
- ``mode="tokenizers"`` (what a ``tokenizer.json`` ``Precompiled`` gets, see
  :meth:`PrecompiledNormalizer.from_dict`): `tokenizers` walks grapheme
  clusters; a cluster shorter than 6 bytes is replaced whole by the SHORTEST
  key that starts it, else each character is looked up alone. So ``"ㅂㅐ"``
  stays two characters there while SentencePiece composes ``"배"``. Alignments
  follow `tokenizers`' change lists (:func:`core.normalizers.apply_changes`).

Leaves out: building a charsmap (we only read them).
"""

from __future__ import annotations

import base64
from array import array
from functools import lru_cache

from core.errors import FormatError
from core.text import NormalizedString

_NO_MATCH = object()


# -- the Darts-clone double array ---------------------------------------------
# Each unit is a uint32: bit 8 says "this node has a leaf child"; the low bits
# hold the label (the byte that leads here); the offset to the node's children
# sits in the high bits (scaled by 256 when bit 9 is set). A leaf unit holds the
# key's value in its low 31 bits.


def _has_leaf(unit: int) -> bool:
    return bool((unit >> 8) & 1)


def _value(unit: int) -> int:
    return unit & 0x7FFFFFFF


def _label(unit: int) -> int:
    return unit & 0x800000FF


def _offset(unit: int) -> int:
    return (unit >> 10) << ((unit & (1 << 9)) >> 6)


class DoubleArray:
    """A read-only Darts-clone double-array trie over bytes.

    ``DoubleArray(units).common_prefix_search("ab".encode())`` gives every key that is a prefix
    of ``ab``, as ``(value, length in bytes)``: ``[(value of a, 1), (value of ab, 2)]`` when both
    ``a`` and ``ab`` are keys.
    """

    def __init__(self, units: array):
        self.units = units

    def common_prefix_search(self, key: bytes) -> list[tuple[int, int]]:
        """``(value, length_in_bytes)`` for every key that is a prefix of ``key``."""
        units = self.units
        n = len(units)
        if n == 0:
            return []
        results = []
        node = _offset(units[0])
        for i, c in enumerate(key):
            node ^= c
            if node >= n:
                break
            unit = units[node]
            if _label(unit) != c:
                break
            node ^= _offset(unit)
            if _has_leaf(unit) and node < n:
                results.append((_value(units[node]), i + 1))
        return results

    def step(self, node: int, byte: int) -> tuple[int, int | None] | None:
        """Follow one byte from ``node``: ``(child, value_or_None)``, or None if no edge."""
        units = self.units
        child = node ^ byte
        if child >= len(units):
            return None
        unit = units[child]
        if _label(unit) != byte:
            return None
        child ^= _offset(unit)
        value = _value(units[child]) if _has_leaf(unit) and child < len(units) else None
        return child, value

    def children(self, node: int, low: int, high: int) -> list[tuple[int, int]]:
        """``(byte, child)`` for each byte in ``low <= byte < high`` that has an edge from
        ``node``: :meth:`step` over the range, all bytes at once (walking the trie's characters
        one :meth:`step` at a time cost ~65 µs a character, most of a fresh tokenizer's
        learning of the characters it meets)."""
        import numpy as np

        units = self.__dict__.get("_unit_array")
        if units is None:
            units = self._unit_array = np.frombuffer(self.units, np.uint32).astype(np.int64)
        labels = np.arange(low, high, dtype=np.int64)
        at = node ^ labels
        inside = at < len(units)
        labels, at = labels[inside], at[inside]
        found = units[at]
        edge = (found & 0x800000FF) == labels
        labels, at, found = labels[edge], at[edge], found[edge]
        children = at ^ ((found >> 10) << ((found & (1 << 9)) >> 6))
        return list(zip(labels.tolist(), children.tolist()))

    @property
    def root(self) -> int:
        return _offset(self.units[0]) if len(self.units) else 0


def parse_charsmap(blob: bytes) -> tuple[DoubleArray, bytes]:
    """Split a precompiled charsmap into its trie and its replacements blob."""
    if not blob:
        return DoubleArray(array("I")), b""
    if len(blob) < 4:
        raise FormatError("precompiled_charsmap is shorter than its 4-byte header")
    trie_size = int.from_bytes(blob[:4], "little")
    if trie_size % 4 or 4 + trie_size > len(blob):
        raise FormatError(
            f"precompiled_charsmap is cut short: its trie claims {trie_size} bytes, {len(blob) - 4} present"
        )
    units = array("I")
    units.frombytes(blob[4 : 4 + trie_size])
    if array("I", [1]).tobytes() != b"\x01\x00\x00\x00":  # big-endian host
        units.byteswap()
    return DoubleArray(units), blob[4 + trie_size :]


class PrecompiledNormalizer:
    """Longest-match rewriting with a SentencePiece precompiled charsmap."""

    def __init__(self, charsmap: bytes, mode: str = "sentencepiece"):
        if mode not in ("sentencepiece", "tokenizers"):
            raise ValueError(f"mode must be 'sentencepiece' or 'tokenizers', not {mode!r}")
        self.mode = mode
        self.charsmap = bytes(charsmap)
        self.trie, self._replacements = parse_charsmap(self.charsmap)
        self._strings: dict[int, str] = {}
        # char -> _NO_MATCH when no key starts with it, else (node after it, value or None)
        self._first: dict[str, object] = {}

    # -- matching --------------------------------------------------------------
    def _replacement(self, value: int) -> str:
        s = self._strings.get(value)
        if s is None:
            if value >= len(self._replacements):
                raise FormatError(f"precompiled_charsmap points past its replacements (offset {value})")
            end = self._replacements.find(b"\x00", value)
            raw = self._replacements[value:] if end < 0 else self._replacements[value:end]
            s = self._strings[value] = raw.decode("utf-8", errors="replace")
        return s

    def _walk_char(self, node: int, c: str) -> tuple[int, int | None] | None:
        value = None
        for b in c.encode("utf-8", errors="surrogatepass"):
            nxt = self.trie.step(node, b)
            if nxt is None:
                return None
            node, value = nxt
        return node, value

    def followers(self, c: str) -> frozenset[str]:
        """The characters that may follow ``c`` inside a key (a key of several characters starts
        with ``c`` and goes on with one of them); found by walking the trie once per character.

        >>> PrecompiledNormalizer(b"").followers("a")
        frozenset()
        """
        known = self.__dict__.setdefault("_followers", {})
        found = known.get(c)
        if found is None:
            start = self._walk_char(self.trie.root, c) if self.trie.units else None
            chars = [] if start is None else char_ends(self.trie, start[0])
            found = known[c] = frozenset(ch for ch, _ in chars)
        return found

    def match(self, text: str, i: int) -> tuple[int, str] | None:
        """The longest key starting at ``text[i]``: ``(length_in_chars, replacement)``, or None.

        subtle: keys are whole UTF-8 strings, so a leaf can only be reached at a
        character boundary; we walk a character's bytes at once and look for a
        value only after its last byte.
        """
        if not self.trie.units:
            return None
        c = text[i]
        first = self._first.get(c)
        if first is None:
            first = self._walk_char(self.trie.root, c)
            first = self._first[c] = _NO_MATCH if first is None else first
        if first is _NO_MATCH:
            return None
        node, value = first
        best = (1, value) if value is not None else None
        j = i + 1
        n = len(text)
        while j < n:
            step = self._walk_char(node, text[j])
            if step is None:
                break
            node, value = step
            j += 1
            if value is not None:
                best = (j - i, value)
        if best is None:
            return None
        return best[0], self._replacement(best[1])

    # -- the normalizer interface -------------------------------------------------
    def normalize_str(self, text: str) -> str:
        return self.normalize(NormalizedString.from_str(text)).normalized

    def normalize(self, text: NormalizedString) -> NormalizedString:
        s = text.normalized
        if not self.trie.units or not s:
            return text
        if self.mode == "tokenizers":
            return self._normalize_as_tokenizers(text)
        out: list[str] = []
        aligns: list[tuple[int, int]] = []
        i = 0
        n = len(s)
        changed = False
        while i < n:
            m = self.match(s, i)
            if m is None:
                out.append(s[i])
                aligns.append(text.alignments[i])
                i += 1
                continue
            length, repl = m
            if repl != s[i : i + length]:
                changed = True
            out.append(repl)
            if repl == s[i : i + length]:
                aligns.extend(text.alignments[i : i + length])
            else:
                aligns.extend([text.span(i, i + length)] * len(repl))
            i += length
        if not changed:
            return text
        return NormalizedString("".join(out), aligns, text.original_length)

    # -- tokenizers' variant --------------------------------------------------------------
    def _shortest(self, chunk: str) -> str | None:
        """`tokenizers`' lookup: the replacement of the first (shortest) key that starts ``chunk``."""
        results = self.trie.common_prefix_search(chunk.encode("utf-8", errors="surrogatepass"))
        return self._replacement(results[0][0]) if results else None

    def _normalize_as_tokenizers(self, text: NormalizedString) -> NormalizedString:
        from core.normalizers import apply_changes

        changes: list[tuple[str, int]] = []
        modified = False
        for m in _grapheme().finditer(text.normalized):
            g = m.group()
            if len(g.encode("utf-8", errors="surrogatepass")) < 6:
                norm = self._shortest(g)
                if norm is not None:
                    _replace(changes, g, norm)
                    modified = True
                    continue
            for c in g:
                norm = self._shortest(c)
                if norm is not None:
                    _replace(changes, c, norm)
                    modified = True
                else:
                    changes.append((c, 0))
        return apply_changes(text, changes) if modified else text

    def to_dict(self) -> dict:
        return {
            "type": "Precompiled",
            "precompiled_charsmap": base64.b64encode(self.charsmap).decode("ascii"),
        }

    @classmethod
    def from_dict(cls, d: dict) -> PrecompiledNormalizer:
        raw = d.get("precompiled_charsmap") or ""
        try:
            blob = base64.b64decode(raw, validate=True) if isinstance(raw, str) else bytes(raw)
        except (ValueError, TypeError):
            raise FormatError("Precompiled normalizer: precompiled_charsmap is not valid base64") from None
        return cls(blob, mode="tokenizers")

    def __repr__(self) -> str:
        return f"PrecompiledNormalizer({len(self.charsmap)} bytes)"


@lru_cache(maxsize=1)
def _grapheme():
    """The pattern of one grapheme cluster (``regex``'s ``\\X``), compiled at its first use: a
    SentencePiece training or a ``.model``'s encoding never needs it, and ``regex``'s import costs
    a short job ~10 ms."""
    import regex

    return regex.compile(r"\X")


def _replace(changes: list[tuple[str, int]], old: str, new: str) -> None:
    """Append `tokenizers`' change list for ``old -> new`` (extra characters are insertions;
    fewer characters fold the removal into the last change, even a previous one's).

    >>> c = []; _replace(c, "ｶﾞ", "ガ"); c
    [('ガ', -1)]
    """
    diff = len(new) - len(old)
    changes.extend((c, 0) for c in new)
    if diff > 0:
        for k in range(len(changes) - diff, len(changes)):
            changes[k] = (changes[k][0], 1)
    elif diff < 0 and changes:
        c, change = changes[-1]
        changes[-1] = (c, change + diff)


def _lead_needs(lead: int) -> int:
    """How many continuation bytes follow the UTF-8 lead byte ``lead`` (-1: not a lead byte)."""
    if lead < 0x80:
        return 0
    if 0xC2 <= lead < 0xE0:
        return 1
    if 0xE0 <= lead < 0xF0:
        return 2
    if 0xF0 <= lead < 0xF5:
        return 3
    return -1


def char_ends(trie: DoubleArray, start: int) -> list[tuple[str, int]]:
    """``(character, node)`` for each whole UTF-8 character the trie can follow from ``start``
    (from ``trie.root``: the characters that start a key)."""
    out = []
    stack: list[tuple[int, bytes, int]] = []
    for lead, node in trie.children(start, 0, 0xF5):
        need = _lead_needs(lead)
        if need >= 0:
            stack.append((node, bytes([lead]), need))
    while stack:
        node, head, need = stack.pop()
        if need == 0:
            try:
                out.append((head.decode("utf-8"), node))
            except UnicodeDecodeError:  # an overlong or surrogate form: no text has it
                pass
            continue
        for byte, child in trie.children(node, 0x80, 0xC0):
            stack.append((child, head + bytes([byte]), need - 1))
    return out
