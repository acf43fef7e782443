"""Build SentencePiece ``.model`` files by hand: a tiny protobuf writer the format tests share.

>>> data = model_bytes([("<unk>", 0.0, 2), ("▁a", -1.0, 1)])   # piece, score, type
"""

from __future__ import annotations

import struct

import sentencepiece as spm

from core.formats.sentencepiece_model import load_sentencepiece


def _varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _field(number: int, value) -> bytes:
    if isinstance(value, bool) or isinstance(value, int):
        return _varint(number << 3) + _varint(int(value))
    if isinstance(value, float):
        return _varint(number << 3 | 5) + struct.pack("<f", value)
    if isinstance(value, str):
        value = value.encode()
    return _varint(number << 3 | 2) + _varint(len(value)) + value


def model_bytes(
    pieces, model_type=1, byte_fallback=False, add_dummy_prefix=True, charsmap=b"", name="identity"
):
    out = b""
    for text, score, kind in pieces:
        out += _field(1, _field(1, text) + _field(2, float(score)) + _field(3, kind))
    trainer = _field(3, model_type) + _field(4, len(pieces)) + _field(35, byte_fallback) + _field(40, 0)
    trainer += _field(41, -1) + _field(42, -1)
    out += _field(2, trainer)
    normalizer = _field(1, name) + _field(3, add_dummy_prefix) + _field(4, True) + _field(5, True)
    if charsmap:
        normalizer += _field(2, charsmap)
    out += _field(3, normalizer)
    return out


def both_processors(tmp_path, data: bytes):
    """The same bytes opened by sentencepiece and by us."""
    path = tmp_path / "hand.model"
    path.write_bytes(data)
    return spm.SentencePieceProcessor(model_file=str(path)), load_sentencepiece(path)
