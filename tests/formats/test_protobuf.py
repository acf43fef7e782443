"""The wire-format reader: hand-encoded messages (bytes worked out from the protobuf spec)."""

import pytest

from core.formats.protobuf import ProtobufError, as_float, as_signed, as_text, read_fields, read_varint


def test_varint_example_from_the_spec():
    # 150 = 0b1001_0110 -> 0x96 0x01 (the protobuf encoding guide's example)
    assert read_varint(b"\x96\x01", 0) == (150, 2)
    assert read_varint(b"\x00", 0) == (0, 1)


def test_fields_of_each_wire_type():
    data = (
        b"\x08\x96\x01"  # field 1, varint 150
        + b"\x12\x02hi"  # field 2, length-delimited "hi"
        + b"\x1d\x00\x00\x80\x3f"  # field 3, fixed32 = 1.0f
        + b"\x21"
        + (7).to_bytes(8, "little")  # field 4, fixed64 = 7
        + b"\x08\x01"  # field 1 again (repeated)
    )
    fields = read_fields(data)
    assert fields == [(1, 0, 150), (2, 2, b"hi"), (3, 5, 0x3F800000), (4, 1, 7), (1, 0, 1)]
    assert as_float(fields[2][2]) == 1.0


def test_negative_int32_is_ten_byte_varint():
    data = b"\x08" + b"\xff" * 9 + b"\x01"  # -1 as int32 is sign-extended to 64 bits
    ((number, wire, value),) = read_fields(data)
    assert as_signed(value) == -1


@pytest.mark.parametrize(
    "data, words",
    [
        (b"\x08\x96", "truncated varint"),
        (b"\x12\x05abc", "claims 5 bytes"),
        (b"\x1d\x00\x00", "truncated 32-bit"),
        (b"\x0b", "unsupported wire type 3"),
        (b"\x00\x01", "field number 0"),
    ],
)
def test_cut_or_malformed_messages_raise(data, words):
    with pytest.raises(ProtobufError, match=words):
        read_fields(data)


def test_text_must_be_utf8():
    assert as_text("한".encode()) == "한"
    with pytest.raises(ProtobufError, match="UTF-8"):
        as_text(b"\xff")


def test_writer_round_trips_through_the_reader():
    from core.formats.protobuf import encode_varint, field

    assert encode_varint(150) == b"\x96\x01"  # the spec's example again, the other way
    assert encode_varint(-1) == b"\xff" * 9 + b"\x01"
    data = (
        field(1, 150)
        + field(2, "철수")
        + field(3, 0.5)
        + field(4, -7)
        + field(5, True)
        + field(6, b"\x00\xff")
    )
    fields = read_fields(data)
    assert [(n, w) for n, w, _ in fields] == [(1, 0), (2, 2), (3, 5), (4, 0), (5, 0), (6, 2)]
    assert fields[0][2] == 150 and as_text(fields[1][2]) == "철수" and as_float(fields[2][2]) == 0.5
    assert as_signed(fields[3][2]) == -7 and fields[4][2] == 1 and fields[5][2] == b"\x00\xff"
