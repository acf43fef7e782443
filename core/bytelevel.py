"""GPT-2's byte-to-unicode alphabet: 256 printable characters, one per byte.

Printable Latin-1 bytes map to themselves; the others (control bytes, space,
0x7F-0xA0, 0xAD) map to U+0100 and up, in byte order. So a space is ``Ġ`` and
a newline ``Ċ``.

    >>> bytes_to_chars("한 a".encode())
    'íķľĠa'
    >>> chars_to_bytes('íķľĠa').decode()
    '한 a'
"""

from __future__ import annotations

from typing import Any


def _build_byte_alphabet() -> list[str]:
    printable = (
        list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    )
    chars = {}
    extra = 0
    for b in range(256):
        if b in printable:
            chars[b] = chr(b)
        else:
            chars[b] = chr(256 + extra)
            extra += 1
    return [chars[b] for b in range(256)]


BYTE_TO_CHAR: list[str] = _build_byte_alphabet()
CHAR_TO_BYTE: dict[str, int] = {c: b for b, c in enumerate(BYTE_TO_CHAR)}
# The 256-symbol alphabet, sorted by code point (the order ids are given in).
BYTE_ALPHABET: list[str] = sorted(BYTE_TO_CHAR)
# str.translate table from the latin-1 reading of bytes to the byte alphabet
BYTE_TRANSLATION = {b: ord(c) for b, c in enumerate(BYTE_TO_CHAR)}


def bytes_to_chars(data: bytes) -> str:
    return data.decode("latin-1").translate(BYTE_TRANSLATION)


def chars_to_bytes(text: str) -> bytes:
    """Inverse of :func:`bytes_to_chars`; characters outside the alphabet are encoded as UTF-8."""
    out = bytearray()
    for c in text:
        b = CHAR_TO_BYTE.get(c)
        if b is None:
            out += c.encode("utf-8")
        else:
            out.append(b)
    return bytes(out)


_MEMO_LIMIT = 100_000  # pieces; a memo of pieces_to_chars is emptied when it gets this big
_MEMO_MAX_PIECE = 64  # characters; longer pieces are converted every time


class BytePiecesMemo:
    """For splitters that write pieces in the byte alphabet (``ByteLevel``, ``TiktokenSplit``):
    :meth:`raw_to_words` over a per-splitter memo (see :func:`pieces_to_chars`), which pickling
    leaves out. The class defines ``split_raw`` (the pieces as they are) and ``_re`` (the pattern
    whose matches they are)."""

    @property
    def word_pattern(self) -> Any:
        """The compiled pattern whose matches are the raw pieces (see ``core.pre_tokenizers``)."""
        return self._re  # type: ignore[attr-defined]

    def split_raw(self, text: str) -> list[str]:
        """The pieces of ``text`` as they are, before the byte alphabet (each splitter defines it)."""
        raise NotImplementedError

    def raw_to_words(self, pieces: list[str]) -> list[str]:
        """Pieces of ``split_raw`` in the byte alphabet, as ``split_words`` gives them."""
        memo: dict[str, str] | None = self.__dict__.get("_memo")
        if memo is None:
            memo = self.__dict__["_memo"] = {}
        return pieces_to_chars(pieces, memo)

    def __getstate__(self) -> dict:
        """Pickle without the memo of converted pieces."""
        state = dict(self.__dict__)
        state.pop("_memo", None)
        return state


def pieces_to_chars(pieces: list[str], memo: dict[str, str]) -> list[str]:
    """``[bytes_to_chars(p.encode()) for p in pieces]``, remembering short pieces in ``memo``:
    the same words come back again and again, and a look-up is several times cheaper than
    encoding, decoding and translating a piece.

        >>> memo = {}
        >>> pieces_to_chars(["한", " a"], memo), memo["한"]
        (['íķľ', 'Ġa'], 'íķľ')
    """
    out = list(map(memo.get, pieces))
    if None in out:
        if len(memo) >= _MEMO_LIMIT:
            memo.clear()
        for k, chars in enumerate(out):
            if chars is None:
                piece = pieces[k]
                chars = out[k] = (
                    piece.encode("utf-8", "surrogatepass").decode("latin-1").translate(BYTE_TRANSLATION)
                )
                if len(piece) <= _MEMO_MAX_PIECE:
                    memo[piece] = chars
    return out  # type: ignore[return-value]
