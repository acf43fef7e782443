"""The GGUF metadata reader: the key/value section only, bounded, whatever the size of the tensors after it.

The files are written by the ``gguf`` package (maintained with llama.cpp), a test-only dependency.
"""

from __future__ import annotations

import struct

import pytest

from core.errors import FormatError
from core.formats import gguf as gguf_format

gguf = pytest.importorskip("gguf", reason="the gguf package writes the test files (pip install gguf)")


def _write(path, endian=None, **extra) -> None:
    kwargs = {} if endian is None else {"endianess": endian}
    w = gguf.GGUFWriter(str(path), "llama", **kwargs)
    w.add_name("tiny")
    w.add_tokenizer_model("llama")
    w.add_token_list(["<unk>", "<s>", "▁한국어", "a"])
    w.add_token_scores([0.0, 0.0, -1.5, -2.25])
    w.add_token_types([2, 3, 1, 1])
    w.add_precompiled_charsmap(b"\x01\x02\xff")
    w.add_add_bos_token(True)
    w.add_uint64("test.big", 2**40)
    w.add_array("test.nested", [[1, 2], [3]])
    for key, value in extra.items():
        w.add_string(key, value)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


@pytest.mark.parametrize("endian", [None, "BIG"])
def test_values_and_types(tmp_path, endian):
    path = tmp_path / "m.gguf"
    _write(path, None if endian is None else gguf.GGUFEndian.BIG)
    meta = gguf_format.read_metadata(path)
    v = meta.values
    assert (meta.version, meta.tensor_count) == (3, 0)
    assert v["general.architecture"] == "llama" and v["general.name"] == "tiny"
    assert v["tokenizer.ggml.tokens"] == ["<unk>", "<s>", "▁한국어", "a"]
    assert v["tokenizer.ggml.scores"] == [0.0, 0.0, -1.5, -2.25]
    assert v["tokenizer.ggml.token_type"] == [2, 3, 1, 1]
    assert v["tokenizer.ggml.precompiled_charsmap"] == b"\x01\x02\xff"
    assert v["tokenizer.ggml.add_bos_token"] is True
    assert v["test.big"] == 2**40 and v["test.nested"] == [[1, 2], [3]]
    assert meta.types["tokenizer.ggml.token_type"] == "array[int32]"
    assert meta.types["test.nested"] == "array[array]"
    assert meta.metadata_bytes == path.stat().st_size  # no tensors: the metadata is the file


def _patch_tensor_count(path, count: int) -> None:
    with open(path, "r+b") as f:
        f.seek(8)
        f.write(struct.pack("<Q", count))


def test_a_huge_model_file_is_read_no_further_than_its_metadata(tmp_path, monkeypatch):
    """A header claiming a million tensors and 40 GB after the metadata (a sparse file): the reader
    reads the metadata (in one buffered read here) and nothing of the rest."""
    path = tmp_path / "big.gguf"
    _write(path)
    size = path.stat().st_size
    _patch_tensor_count(path, 1_000_000)
    with open(path, "r+b") as f:
        f.truncate(40 * 2**30)  # sparse: takes no disk
    read = []
    real_open = open

    class Spy:
        def __init__(self, f):
            self.f = f

        def read(self, n=-1):
            data = self.f.read(n)
            read.append(len(data))
            return data

        def fileno(self):
            return self.f.fileno()

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    monkeypatch.setattr(gguf_format, "open", lambda p, mode: Spy(real_open(p, mode)), raising=False)
    monkeypatch.setattr(gguf_format, "_CHUNK", 4096)
    meta = gguf_format.read_metadata(path)
    assert meta.tensor_count == 1_000_000
    assert meta.metadata_bytes == size
    assert sum(read) <= size + 4096  # the metadata and at most one buffer beyond it


def _raw(kv: bytes, kv_count: int = 1, version: int = 3) -> bytes:
    return b"GGUF" + struct.pack("<IQQ", version, 0, kv_count) + kv


def _key(name: str) -> bytes:
    return struct.pack("<Q", len(name)) + name.encode()


@pytest.mark.parametrize(
    "data, message",
    [
        (b"GGML" + bytes(20), "is not a GGUF file"),
        (_raw(b"", version=7), "GGUF version 7 is not supported"),
        (_raw(b"", kv_count=2**24 + 1), "metadata entries (at most 16,777,216)"),
        (_raw(_key("k") + struct.pack("<IQ", 8, 2**28 + 1)), "claims a string of 268,435,457 bytes"),
        (_raw(_key("k") + struct.pack("<IIQ", 9, 5, 10**9)), "k claims 1,000,000,000 items, more than"),
        (_raw(_key("k") + struct.pack("<IIQ", 9, 8, 3)), "k claims 3 items, more than"),
        (_raw(_key("k") + struct.pack("<I", 99)), "k has unknown GGUF type 99"),
        (_raw(_key("k") + struct.pack("<IQ", 8, 10) + b"abc"), "truncated GGUF file"),
        (_raw(_key("k") + struct.pack("<IQ", 8, 2) + b"\xff\xfe"), "the value of k is not UTF-8"),
    ],
)
def test_absurd_or_broken_files_are_one_line(tmp_path, data, message):
    path = tmp_path / "bad.gguf"
    path.write_bytes(data)
    with pytest.raises(FormatError) as e:
        gguf_format.read_metadata(path)
    assert message in str(e.value) and str(path) in str(e.value) and "\n" not in str(e.value)


def test_version_1_counts_are_32_bit(tmp_path):
    path = tmp_path / "v1.gguf"
    kv = struct.pack("<I", 1) + b"k" + struct.pack("<II", 8, 2) + b"ok"
    path.write_bytes(b"GGUF" + struct.pack("<III", 1, 0, 1) + kv)
    assert gguf_format.read_metadata(path).values == {"k": "ok"}
