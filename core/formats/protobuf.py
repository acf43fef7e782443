"""A minimal protocol-buffers wire-format reader: enough to read a SentencePiece ``.model``.

We read messages field by field without a schema: :func:`read_fields` turns
bytes into ``[(field_number, wire_type, value), ...]`` where ``value`` is an
``int`` for varints and fixed-width fields, and ``bytes`` for length-delimited
ones (strings, nested messages, packed arrays). The caller knows the schema and
decodes nested messages by calling :func:`read_fields` again.

    >>> read_fields(b"\\x08\\x96\\x01\\x12\\x02hi")
    [(1, 0, 150), (2, 2, b'hi')]

Writing is the mirror image and as small: :func:`field` encodes one field
(an int as a varint, a float as fixed32, bytes/str length-delimited), and a
message is the concatenation of its fields.

    >>> field(1, 150) + field(2, "hi")
    b'\\x08\\x96\\x01\\x12\\x02hi'

Leaves out: groups (wire types 3/4, deprecated and unused by SentencePiece),
fixed64 writing, and any schema handling. Truncated or malformed input raises
:class:`ProtobufError` with the byte position, never an IndexError.
"""

from __future__ import annotations

import struct

VARINT, FIXED64, LENGTH_DELIMITED, START_GROUP, END_GROUP, FIXED32 = 0, 1, 2, 3, 4, 5


class ProtobufError(ValueError):
    """The bytes are not a well-formed protocol-buffers message (e.g. cut in half)."""


def read_varint(data: bytes, pos: int) -> tuple[int, int]:
    """Decode one base-128 varint at ``pos``; return ``(value, next_pos)``.

    >>> read_varint(b"\\x96\\x01", 0)
    (150, 2)
    """
    result = 0
    shift = 0
    n = len(data)
    while True:
        if pos >= n:
            raise ProtobufError(f"truncated varint at byte {pos}")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7
        if shift >= 64:
            raise ProtobufError(f"varint longer than 10 bytes at byte {pos}")


def read_fields(data: bytes) -> list[tuple[int, int, int | bytes]]:
    """All fields of one message, in file order (repeated fields appear several times)."""
    fields: list[tuple[int, int, int | bytes]] = []
    pos = 0
    n = len(data)
    while pos < n:
        start = pos
        key, pos = read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise ProtobufError(f"field number 0 at byte {start}")
        if wire == VARINT:
            value, pos = read_varint(data, pos)
        elif wire == FIXED64:
            if pos + 8 > n:
                raise ProtobufError(f"truncated 64-bit field {number} at byte {start}")
            value = int.from_bytes(data[pos : pos + 8], "little")
            pos += 8
        elif wire == FIXED32:
            if pos + 4 > n:
                raise ProtobufError(f"truncated 32-bit field {number} at byte {start}")
            value = int.from_bytes(data[pos : pos + 4], "little")
            pos += 4
        elif wire == LENGTH_DELIMITED:
            length, pos = read_varint(data, pos)
            if pos + length > n:
                raise ProtobufError(
                    f"field {number} at byte {start} claims {length} bytes but only {n - pos} remain"
                )
            value = bytes(data[pos : pos + length])
            pos += length
        else:
            raise ProtobufError(f"unsupported wire type {wire} for field {number} at byte {start}")
        fields.append((number, wire, value))
    return fields


def as_float(value: int) -> float:
    """A ``float`` field (wire type 5) from its 32 raw bits.

    >>> as_float(0x3F800000)
    1.0
    """
    return struct.unpack("<f", value.to_bytes(4, "little"))[0]


def as_signed(value: int) -> int:
    """An ``int32``/``int64`` field: varints carry negatives as 64-bit two's complement.

    >>> as_signed(2**64 - 1)
    -1
    """
    return value - (1 << 64) if value >= 1 << 63 else value


def as_text(value: bytes) -> str:
    """A ``string`` field (UTF-8); bad bytes raise ProtobufError, not UnicodeDecodeError."""
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ProtobufError(f"string field is not valid UTF-8 ({e.reason} at byte {e.start})") from None


# -- writing -------------------------------------------------------------------------------


def encode_varint(value: int) -> bytes:
    """Base-128 varint; a negative int32/int64 is written as its 64-bit two's complement.

    >>> encode_varint(150)
    b'\\x96\\x01'
    """
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        if value:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def field(number: int, value: int | bool | float | str | bytes) -> bytes:
    """One encoded field: bool/int -> varint, float -> fixed32, str/bytes -> length-delimited."""
    if isinstance(value, bool) or isinstance(value, int):
        return encode_varint(number << 3 | VARINT) + encode_varint(int(value))
    if isinstance(value, float):
        return encode_varint(number << 3 | FIXED32) + struct.pack("<f", value)
    if isinstance(value, str):
        value = value.encode("utf-8")
    return encode_varint(number << 3 | LENGTH_DELIMITED) + encode_varint(len(value)) + bytes(value)
