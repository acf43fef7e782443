"""GGUF files (llama.cpp, Ollama): the tokenizer kept in a model file's metadata, read without its tensors.

    >>> meta = read_metadata("model.gguf")           # 40 GB or 1 MB: the same few reads
    >>> meta.values["tokenizer.ggml.model"], len(meta.values["tokenizer.ggml.tokens"])
    ('gpt2', 151936)

A GGUF file is, in order (little-endian unless the version reads byte-swapped)::

    b"GGUF"  version:u32  tensor_count:u64  kv_count:u64
    kv_count x (key:string  type:u32  value)        <- all we read
    tensor_count x tensor info, padding, tensor data <- never read

A string is ``length:u64`` + UTF-8 bytes; an array is ``item type:u32`` + ``count:u64`` +
items (arrays may nest). Version 1 files use u32 for the counts and lengths.

We read with a reader of our own, not the ``gguf`` package (which the tests use to write
files): it stops after the key/value section, so a model's tensors are never touched, and it
refuses absurd sizes before allocating anything (more than :data:`MAX_ENTRIES` entries, a
string over :data:`MAX_STRING_BYTES`, an array longer than the rest of the file could hold).
``gguf``'s ``GGUFReader`` maps the whole file and parses every tensor's header, and it would
add ``requests``, ``pyyaml`` and ``tqdm`` to the explorer's dependencies.

Leaves out: writing GGUF files (a vocabulary alone is no model; save as ``hf-json``).
"""

from __future__ import annotations

import os
import struct
from array import array
from pathlib import Path
from typing import Any, NamedTuple

from core.errors import FormatError

MAGIC = b"GGUF"
MAX_ENTRIES = 2**24  # key/value pairs (a real file has a few dozen)
MAX_STRING_BYTES = 256 * 2**20  # one string (a chat template is kilobytes, tokenizer.json megabytes)
_CHUNK = 1 << 20  # bytes read at a time

# value type -> (name, struct code, size) of the fixed-size types
_FIXED: dict[int, tuple[str, str, int]] = {
    0: ("uint8", "B", 1),
    1: ("int8", "b", 1),
    2: ("uint16", "H", 2),
    3: ("int16", "h", 2),
    4: ("uint32", "I", 4),
    5: ("int32", "i", 4),
    6: ("float32", "f", 4),
    7: ("bool", "?", 1),
    10: ("uint64", "Q", 8),
    11: ("int64", "q", 8),
    12: ("float64", "d", 8),
}
STRING, ARRAY = 8, 9
_BIG_ENDIAN_HOST = array("H", b"\x00\x01")[0] == 1


class GGUFMetadata(NamedTuple):
    """What :func:`read_metadata` found: the key/value pairs and what the header says of the rest.

    ``values`` maps each key to a Python value: numbers, ``bool``, ``str``, a ``list`` for an
    array (``bytes`` for an array of 8-bit integers, such as a precompiled charsmap).
    ``types`` names each key's GGUF type (``"string"``, ``"array[int32]"``, ...).
    """

    version: int
    tensor_count: int
    values: dict[str, Any]
    types: dict[str, str]
    metadata_bytes: int  # where the key/value section ends (what was read of the file)


class _Reader:
    """Reads a file front to back through a buffer, never past what it is asked for."""

    def __init__(self, f, size: int, name: str):
        self.f = f
        self.size = size
        self.name = name
        self.buf = b""
        self.at = 0  # in buf
        self.done = 0  # bytes of the file before buf

    @property
    def offset(self) -> int:
        return self.done + self.at

    def left(self) -> int:
        return self.size - self.offset

    def take(self, n: int) -> bytes:
        if n > len(self.buf) - self.at:
            if n > self.left():
                raise FormatError(f"{self.name}: truncated GGUF file (it ends inside its metadata)")
            rest = self.buf[self.at :]
            self.done += self.at
            self.buf = rest + self.f.read(max(n - len(rest), _CHUNK))
            self.at = 0
        out = self.buf[self.at : self.at + n]
        self.at += n
        return out


def read_metadata(path: str | os.PathLike) -> GGUFMetadata:
    """The header and key/value metadata of a GGUF file; the tensors are never read.

    Any problem is one :class:`FormatError` naming the file.
    """
    path = Path(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            return _read(_Reader(f, size, str(path)))
    except OSError as e:
        raise FormatError(f"cannot read {path}: {e.strerror or e}") from None


def _read(r: _Reader) -> GGUFMetadata:
    name = r.name
    if r.size < 8 or r.take(4) != MAGIC:
        raise FormatError(f"{name} is not a GGUF file (it does not start with b'GGUF')")
    (version,) = struct.unpack("<I", r.take(4))
    order = "<"
    if version & 0xFFFF == 0 and version:  # a big-endian file: its version reads byte-swapped
        order, version = ">", struct.unpack(">I", struct.pack("<I", version))[0]
    if version not in (1, 2, 3):
        raise FormatError(f"{name}: GGUF version {version} is not supported (1, 2 or 3)")
    count = "I" if version == 1 else "Q"
    count_size = struct.calcsize(count)
    tensor_count, kv_count = struct.unpack(order + count * 2, r.take(2 * count_size))
    if kv_count > MAX_ENTRIES:
        raise FormatError(
            f"{name}: the header claims {kv_count:,} metadata entries (at most {MAX_ENTRIES:,})"
        )
    fmt = _Formats(order, count)
    values: dict[str, Any] = {}
    types: dict[str, str] = {}
    for _ in range(kv_count):
        key = _string(r, fmt, "a metadata key")
        (kind,) = fmt.u32.unpack(r.take(4))
        values[key], types[key] = _value(r, fmt, kind, key)
    return GGUFMetadata(version, tensor_count, values, types, r.offset)


class _Formats:
    def __init__(self, order: str, count: str):
        self.order = order
        self.count = struct.Struct(order + count)
        self.u32 = struct.Struct(order + "I")
        self.fixed = {k: struct.Struct(order + code) for k, (_, code, _) in _FIXED.items()}


def _string(r: _Reader, fmt: _Formats, what: str) -> str:
    data = _string_bytes(r, fmt, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FormatError(f"{r.name}: {what} is not UTF-8 text (byte {e.start})") from None


def _string_bytes(r: _Reader, fmt: _Formats, what: str) -> bytes:
    (n,) = fmt.count.unpack(r.take(fmt.count.size))
    if n > MAX_STRING_BYTES:
        raise FormatError(f"{r.name}: {what} claims a string of {n:,} bytes (at most {MAX_STRING_BYTES:,})")
    return r.take(n)


def _value(r: _Reader, fmt: _Formats, kind: int, key: str) -> tuple[Any, str]:
    if kind in _FIXED:
        s = fmt.fixed[kind]
        return s.unpack(r.take(s.size))[0], _FIXED[kind][0]
    if kind == STRING:
        return _string(r, fmt, f"the value of {key}"), "string"
    if kind == ARRAY:
        (item,) = fmt.u32.unpack(r.take(4))
        (n,) = fmt.count.unpack(r.take(fmt.count.size))
        smallest = _FIXED[item][2] if item in _FIXED else fmt.count.size if item == STRING else 12
        if item not in _FIXED and item not in (STRING, ARRAY):
            raise FormatError(f"{r.name}: {key} is an array of unknown GGUF type {item}")
        if n * smallest > r.left():
            raise FormatError(f"{r.name}: {key} claims {n:,} items, more than the rest of the file holds")
        return _array(r, fmt, item, n, key), f"array[{_type_name(item)}]"
    raise FormatError(f"{r.name}: {key} has unknown GGUF type {kind}")


def _type_name(kind: int) -> str:
    return _FIXED[kind][0] if kind in _FIXED else "string" if kind == STRING else "array"


def _array(r: _Reader, fmt: _Formats, item: int, n: int, key: str):
    if item in _FIXED:
        _, code, size = _FIXED[item]
        data = r.take(n * size)
        if code in "Bb":
            return bytes(data)  # e.g. a precompiled charsmap
        if code == "?":
            return [b != 0 for b in data]
        values = array(code, data)
        if (fmt.order == ">") != _BIG_ENDIAN_HOST:
            values.byteswap()
        return values.tolist()
    if item == STRING:
        out = []
        take, unpack, width = r.take, fmt.count.unpack, fmt.count.size
        for i in range(n):
            (length,) = unpack(take(width))
            if length > MAX_STRING_BYTES:
                raise FormatError(f"{r.name}: {key}[{i}] claims a string of {length:,} bytes")
            data = take(length)
            try:
                out.append(data.decode("utf-8"))
            except UnicodeDecodeError as e:
                raise FormatError(f"{r.name}: {key}[{i}] is not UTF-8 text (byte {e.start})") from None
        return out
    return [_value(r, fmt, ARRAY, f"{key}[{i}]")[0] for i in range(n)]
