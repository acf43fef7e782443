"""GGUF files (llama.cpp, Ollama): the tokenizer kept in a model file's metadata, read without its tensors.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> def string(s):                  # a tiny file, written by hand: two keys, no tensors
    ...     return struct.pack("<Q", len(s.encode())) + s.encode()
    >>> _ = Path(folder.name, "model.gguf").write_bytes(
    ...     b"GGUF" + struct.pack("<IQQ", 3, 0, 2)                  # version 3, 0 tensors, 2 keys
    ...     + string("tokenizer.ggml.model") + struct.pack("<I", 8) + string("gpt2")
    ...     + string("tokenizer.ggml.tokens") + struct.pack("<IIQ", 9, 8, 3) + string("a") + string("b") + string("ab"))
    >>> meta = read_metadata(Path(folder.name, "model.gguf"))   # 40 GB or 1 MB: the same few reads
    >>> meta.values["tokenizer.ggml.model"], meta.values["tokenizer.ggml.tokens"]
    ('gpt2', ['a', 'b', 'ab'])

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


# -- the tokenizer ------------------------------------------------------------------------------
#
# What llama.cpp builds from these keys (src/llama-vocab.cpp, llama_vocab::impl::load and
# tokenize), rebuilt from the engine's stages:
#
# 1. token types (1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte); a few
#    token texts are control tokens whatever their type (end of turn, fill-in-the-middle);
# 2. control, unknown and user-defined tokens are cut out of the raw text first (added tokens):
#    user-defined ones always, control and unknown ones unless special tokens are read as text
#    (``encode_special_tokens``, llama.cpp's ``parse_special=false``);
# 3. each remaining section is encoded by the kind's pipeline:
#    - ``llama``: spaces -> ``▁``, a ``▁`` in front of each section (``add_space_prefix``), then
#      SentencePiece-style BPE over characters (the adjacent pair whose joined text is a token
#      with the highest score merges first, ties leftmost), pieces with no token as
#      ``<0xXX>`` bytes;
#    - ``gpt2``: the split regexes of ``tokenizer.ggml.pre`` in turn (each one's matches and the
#      text between them become pieces), each piece in the GPT-2 byte alphabet, then BPE by
#      merge rank (``ignore_merges``: a piece that is a token is kept whole);
#    - ``bert``: BERT's clean-up (lower case and accents as the keys say), split at whitespace
#      and punctuation, ``▁`` before each word, then the longest token at each position
#      (a word with a position no token starts at is one unknown token);
#    - ``t5``: the precompiled charsmap and SentencePiece's whitespace rules, then the best
#      Unigram path (scores summed in double precision, as llama.cpp and `tokenizers` do);
# 4. ``encode(text, add_special_tokens=True)`` adds BOS/EOS as ``add_bos_token`` and
#    ``add_eos_token`` say (``bert``: its BOS and SEP), through a TemplateProcessing
#    post-processor.

TOKEN_TYPES = {1: "normal", 2: "unknown", 3: "control", 4: "user-defined", 5: "unused", 6: "byte"}
NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6
KINDS = ("llama", "gpt2", "bert", "t5")

# llama.cpp's split regexes, by pre-tokenizer name (data from src/llama-vocab.cpp, where they are
# applied in turn, each to the pieces of the one before). Where llama.cpp reads a regex with
# std::regex they are spelled here as Python's `regex` reads them the same way: ``\d`` is ASCII there.
_GPT2 = r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)"
_CONTRACTIONS = r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"
_LLAMA3 = _CONTRACTIONS + (
    r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
_QWEN2 = _CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
_BLOOM = r" ?[^(\s|.,!?…。，、।۔،)]+"
_CJK = "[一-龥ࠀ-一가-퟿]+"
# letters by code point: several are singletons that NFC replaces (U+1F7D, U+2126, U+212A...),
# so an editor that normalizes would silently change the ranges if they were written as characters
_DEEPSEEK_LETTERS = (
    "\\s?["
    "A-Za-z\u00b5\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u01ba\u01bc-\u01bf\u01c4-\u0293\u0295-"
    "\u02af\u0370-\u0373\u0376\u0377\u037b-\u037d\u037f\u0386\u0388-\u038a\u038c\u038e-\u03a1"
    "\u03a3-\u03f5\u03f7-\u0481\u048a-\u052f\u0531-\u0556\u10a0-\u10c5\u13a0-\u13f5\u13f8-"
    "\u13fd\u1c90-\u1cba\u1cbd-\u1cbf\u1d00-\u1d2b\u1d6b-\u1d77\u1d79-\u1d9a\u1e00-\u1f15"
    "\u1f18-\u1f1d\u1f20-\u1f45\u1f48-\u1f4d\u1f50-\u1f57\u1f59\u1f5b\u1f5d\u1f5f-\u1f7d"
    "\u1f80-\u1fb4\u1fb6-\u1fbc\u1fbe\u1fc2-\u1fc4\u1fc6-\u1fcc\u1fd0-\u1fd3\u1fd6-\u1fdb"
    "\u1fe0-\u1fec\u1ff2-\u1ff4\u1ff6-\u1ffc\u2102\u2107\u210a-\u2113\u2115\u2119-\u211d"
    "\u2124\u2126\u2128\u212a-\u212d\u212f-\u2134\u2139\u213c-\u213f\u2145-\u2149\u214e\u2183"
    "\u2184\u2c00-\u2c7b\u2c7e-\u2ce4\u2ceb-\u2cee\u2cf2\u2cf3\ua640-\ua66d\ua680-\ua69b"
    "\ua722-\ua76f\ua771-\ua787\ua78b-\ua78e\uab70-\uabbf\ufb00-\ufb06\ufb13-\ufb17\uff21-"
    "\uff3a\uff41-\uff5a\U00010400-\U0001044f\U000104b0-\U000104d3\U000104d8-\U000104fb"
    "\U00010c80-\U00010cb2\U00010cc0-\U00010cf2\U000118a0-\U000118df\U0001e900-\U0001e943"
    "]+"
)
_UPPER_LOWER = r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))*((?=[\p{L}])([^A-Z]))+"
_LOWER_UPPER = r"[^\r\n\p{L}\p{N}]?((?=[\p{L}])([^a-z]))+((?=[\p{L}])([^A-Z]))*"
_TAIL_4O = r"| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
_WORDS_4O = _UPPER_LOWER + _CONTRACTIONS + "?|" + _LOWER_UPPER + _CONTRACTIONS + r"?|\p{N}{1,3}" + _TAIL_4O
_MARKED_4O = _WORDS_4O.replace(r"(?=[\p{L}])", r"(?=[\p{L}\p{M}])")
# llama.cpp reads \p{Lu}, \p{Ll}... of these as \p{L} (it collapses each character to its category)
_CASED = (
    r"[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]*[\p{L}\p{M}]+" + _CONTRACTIONS + r"?"
    r"|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+[\p{L}\p{M}]*" + _CONTRACTIONS + r"?"
)

_HAN_KANA = "[一-龥぀-ゟ゠-ヿ]+"
# DeepSeek-V3's word rule: one ASCII punctuation mark may lead Latin letters
_DEEPSEEK_V3 = (
    r"[!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+"
)

PRE_TOKENIZERS: dict[str, tuple[str, ...]] = {
    "default": (r"[\p{P}\$\+<=>\^~\|]+", _GPT2, r"\p{N}+", "[0-9][0-9][0-9]"),
    "llama3": (_LLAMA3,),
    "jais-2": (
        _CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+"
        r"|\s{512}(?!\S)|\s{256}(?!\S)|\s{128}(?!\S)|\s{64}(?!\S)|\s{32}(?!\S)|\s{16}(?!\S)|\s{8}(?!\S)"
        r"|\s{4}(?!\S)|\s{1,2}(?!\S)|\s{1}",
    ),
    "deepseek-llm": (
        r"[\r\n]",
        _DEEPSEEK_LETTERS,
        r"\s?[!-/:-~！-／：-～‘-‟　-。]+",
        r"\s+$",
        _CJK,
        r"\p{N}+",
    ),
    "deepseek-coder": (r"[\r\n]", r"\s?\p{L}+", r"\s?\p{P}+", _CJK, r"\p{N}"),
    "deepseek-v3": (r"\p{N}{1,3}", _HAN_KANA, _DEEPSEEK_V3 + r"[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"),
    "spark2_5": (r"\p{N}{1,3}", _HAN_KANA, _DEEPSEEK_V3 + r"|[\r\n]|\s+(?!\S)|\s+", r"\p{N}"),
    "youtu": (
        "[가-힣ㄱ-ㆎ]+|[！…“”‘’—：；，、-〿︰-﹏]+|[ㄅ-ㄯ]+|[一-龥぀-ゟ゠-ヿ]+",
        _CASED + r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    ),
    "falcon": (r"[\p{P}\$\+<=>\^~\|`]+", _GPT2, "[0-9][0-9][0-9]"),
    "starcoder": (r"\p{N}", _GPT2),
    "gpt-2": (_GPT2,),
    "qwen2": (_QWEN2,),
    "qwen35": (
        _CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?[\p{L}\p{M}]+|\p{N}| ?[^\s\p{L}\p{M}\p{N}]+[\r\n]*"
        r"|\s*[\r\n]+|\s+(?!\S)|\s+",
    ),
    "bloom": (_BLOOM,),
    "viking": (_BLOOM, r"\p{N}"),
    "tekken": (
        _UPPER_LOWER + "|" + _LOWER_UPPER + r"|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    ),
    "chameleon": (
        "<sentinel:[0-9]+>",
        "(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z",
        "([\\t\\n]|    |  )",
        r"\p{N}",
        r"[\p{P}!-/:-@\[-`{-~]",
        _GPT2,
    ),
    "gpt-4o": (_WORDS_4O,),
    "granite-embed-multi-97m": (_MARKED_4O,),
    "superbpe": (r"\p{N}+", r"(?=([0-9]{3})+(?![0-9]))"),
    "bailingmoe": (
        r"'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
        r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]|\s+(?!\S)|\s+",
    ),
    "seed-coder": (
        _CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1}| ?[^\s\p{L}\p{N}\r\n]+|\s*[\r\n]+|\s+(?!\S)|\s+",
    ),
    "ufakzeka": (r"[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",),
    "laguna": (r"[^\n]+|[\n]+", _QWEN2),
    "exaone-moe": (
        _CONTRACTIONS + r"|[^\r\n\p{L}\p{N}]?(?:\p{L}\p{M}*(?: \p{L}\p{M}*)*)+|\p{N}"
        r"| ?[^\s\p{L}\p{N}]+[\r\n/]?|\s*[\r\n]|\s+(?!\S)|\s+",
    ),
    "minicpm5": (
        r"\p{N}{1,3}",
        _CONTRACTIONS
        + r"|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}+| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+",
    ),
}
# tokenizer.ggml.pre -> the row of PRE_TOKENIZERS it reads (as llama.cpp's load() maps them)
PRE_NAMES: dict[str, str] = {
    **{n: "llama3" for n in ("llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral")},
    **{
        n: "llama3"
        for n in ("midm-2.0", "lfm2", "jina-v5-nano", "dbrx", "smaug-bpe", "glm4", "glm5", "chatglm-bpe")
    },
    **{n: "starcoder" for n in ("starcoder", "refact", "command-r", "smollm", "codeshell", "exaone")},
    **{n: "starcoder" for n in ("minerva-7b", "mellum2")},
    **{n: "gpt-2" for n in ("gpt-2", "phi-2", "jina-es", "jina-de", "gigachat", "jina-v2-es", "jina-v2-de")},
    **{n: "gpt-2" for n in ("a.x-4.0", "mellum", "modern-bert", "jina-v1-en", "jina-v2-code", "roberta-bpe")},
    **{n: "gpt-2" for n in ("mpt", "olmo", "jais", "trillion", "granite-docling", "exaone4")},
    **{n: "qwen2" for n in ("qwen2", "deepseek-r1-qwen", "kormo", "f2llmv2", "stablelm2", "megrez")},
    **{n: "qwen2" for n in ("hunyuan", "solar-open", "grok-2")},
    **{n: "deepseek-v3" for n in ("hunyuan-dense", "joyai-llm", "hy_v4")},
    **{n: "bloom" for n in ("poro-chat", "bloom", "gpt3-finnish")},
    **{n: "gpt-4o" for n in ("gpt-4o", "llama4", "kanana2", "talkie", "minimax-m2")},
    **{n: "bailingmoe" for n in ("bailingmoe", "bailingmoe2", "llada-moe")},
    **{n: n for n in PRE_TOKENIZERS},
}
# names (not rows: llama.cpp sets these per name) whose pieces are looked up whole before
# merging, whose BOS is added by default, and that have no BOS
_LLAMA3_NAMES = ("llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2")
_IGNORE_MERGES = {*_LLAMA3_NAMES, "jina-v5-nano", "tekken", "youtu", "minicpm5", "granite-embed-multi-97m"}
_IGNORE_MERGES |= {"glm4", "glm5"}
_ADD_BOS = {*_LLAMA3_NAMES, "jina-v5-nano", "tekken", "chameleon"}
_NO_BOS = {"glm4", "glm5", "chatglm-bpe"}
# pre-tokenizers llama.cpp cuts with code of its own
# subtle: older llama.cpp builds read \p{S} without "~" (deepseek-v3 and its kin: the ASCII row of
# its category table once left it out); we read it with "~", as Unicode and llama.cpp's table now do.
_OWN_CODE = frozenset(
    "kimi-k2 afmoe tiny_aya cohere2moe gemma4 granite-embed-multi-311m sarvam-moe whitespace".split()
)

# Token texts llama.cpp makes control tokens whatever their type (end of turn or generation,
# fill-in-the-middle); the first four are user-defined there (gpt-oss's channel markers).
_CONTROL_TEXTS = frozenset(
    "<|eot_id|> <|im_end|> <|end|> <end_of_turn> <|endoftext|> <|end_of_text|> <EOT> _<EOT> [EOT] "
    "<｜end▁of▁sentence｜> <end_of_utterance> <|eom_id|> <|fim_prefix|> <fim-prefix> <fim_prefix> "
    "<｜fim▁begin｜> <PRE> ▁<PRE> <|code_prefix|> <|prefix|> <|fim_suffix|> <fim-suffix> <fim_suffix> "
    "<｜fim▁hole｜> <SUF> ▁<SUF> <|code_suffix|> <|suffix|> <|fim_middle|> <fim-middle> <fim_middle> "
    "<｜fim▁end｜> <MID> ▁<MID> <|code_middle|> <|middle|> <|fim_pad|> <fim-pad> <fim_pad> <PAD> [PAD] "
    "<|fim_repo|> <|repo_name|> <fim-repo> <REPO> <reponame> <|file_sep|> <|return|> <|call|> "
    "<|flush|> <|calls|> </s> [EOS] <eos> <turn|> <|tool_response> [e~[".split()
)
_USER_DEFINED_TEXTS = ("<|channel|>", "<|message|>", "<|start|>", "<|constrain|>")

K_MODEL, K_PRE, K_TOKENS = "tokenizer.ggml.model", "tokenizer.ggml.pre", "tokenizer.ggml.tokens"
K_SCORES, K_TYPES, K_MERGES = "tokenizer.ggml.scores", "tokenizer.ggml.token_type", "tokenizer.ggml.merges"
K_HF_JSON, K_CHAT_TEMPLATE = "tokenizer.huggingface.json", "tokenizer.chat_template"
_SPECIAL_ID_KEYS = {
    "bos": "tokenizer.ggml.bos_token_id",
    "eos": "tokenizer.ggml.eos_token_id",
    "unk": "tokenizer.ggml.unknown_token_id",
    "sep": "tokenizer.ggml.seperator_token_id",  # (sic: the key is spelled so)
    "pad": "tokenizer.ggml.padding_token_id",
    "mask": "tokenizer.ggml.mask_token_id",
}
# llama.cpp's ids when the file names none: kind -> bos, eos, unk, sep, pad, mask
_DEFAULT_IDS: dict[str, tuple[int | None, ...]] = {
    "llama": (1, 2, 0, None, None, None),
    "bert": (101, None, 100, 102, 0, 103),
    "gpt2": (11, 11, None, None, None, None),
    "t5": (None, 1, 2, None, 0, None),
}


def tokenizer_from_metadata(meta: GGUFMetadata, source: str):
    """The Tokenizer llama.cpp would build from ``meta``, and the load's messages."""
    v = meta.values
    kind = v.get(K_MODEL)
    if kind is None:
        raise FormatError(f"{source}: this GGUF file holds no tokenizer (no {K_MODEL})")
    if kind in ("no_vocab", "none"):
        raise FormatError(f"{source}: this GGUF file holds no vocabulary ({K_MODEL} is {kind!r})")
    if kind not in KINDS:
        raise FormatError(
            f"{source}: GGUF tokenizer kind {kind!r} is not supported (supported: {', '.join(KINDS)})"
        )
    messages: list[str] = []
    vocab = _Vocab(v, source, messages)
    settings = _settings(v, kind, len(vocab.tokens), source, messages)
    build = {"llama": _llama, "gpt2": _gpt2, "bert": _bert, "t5": _t5}[kind]
    tok = build(vocab, settings, source)
    tok.post_processor = _post_processor(vocab, settings, kind)
    tok.extra["gguf"] = {
        "model": kind,
        "pre": settings.get("pre"),
        "architecture": v.get("general.architecture"),
        "name": v.get("general.name"),
        "version": meta.version,
        "tensor_count": meta.tensor_count,
        "special_ids": settings["ids"],
        "add_bos": settings["add_bos"],
        "add_eos": settings["add_eos"],
        "token_types": {name: vocab.types.count(t) for t, name in TOKEN_TYPES.items()},
        "charsmap": bool(settings["charsmap"]),
    }
    template = v.get(K_CHAT_TEMPLATE)
    if isinstance(template, str):
        tok.extra["chat_template"] = template
    tok.extra["source"] = source
    if isinstance(v.get(K_HF_JSON), str):
        messages.append(_compare_embedded_json(tok, v[K_HF_JSON], source))
    return tok, messages


class _Vocab:
    """The token list with its scores and types, after llama.cpp's fix-ups by token text."""

    def __init__(self, v: dict, source: str, messages: list[str]):
        tokens = v.get(K_TOKENS)
        if not isinstance(tokens, list) or not tokens or not all(isinstance(t, str) for t in tokens):
            raise FormatError(f"{source}: {K_TOKENS} must be a non-empty array of strings")
        n = len(tokens)
        self.tokens = [t or f"[EMPTY_{i}]" for i, t in enumerate(tokens)]  # as llama.cpp names them
        self.ids: dict[str, int] = {}
        for i, t in enumerate(self.tokens):
            if t in self.ids:
                raise FormatError(f"{source}: token {t!r} has ids {self.ids[t]} and {i}")
            self.ids[t] = i
        self.scores = [0.0] * n
        if K_SCORES in v:
            scores = v[K_SCORES]
            if not isinstance(scores, list) or len(scores) < n:
                raise FormatError(f"{source}: {K_SCORES} must hold a number for each of the {n} tokens")
            self.scores = [float(s) for s in scores[:n]]
        self.types = [NORMAL] * n
        if K_TYPES in v:
            types = v[K_TYPES]
            if not isinstance(types, list) or len(types) < n:
                raise FormatError(f"{source}: {K_TYPES} must hold a type for each of the {n} tokens")
            self.types = [int(t) for t in types[:n]]
        odd = sum(t not in TOKEN_TYPES for t in self.types)
        if odd:
            messages.append(
                f"{source}: {odd} token(s) have an undefined type; they are read as normal tokens"
            )
            self.types = [t if t in TOKEN_TYPES else NORMAL for t in self.types]
        # subtle: llama.cpp marks tokens by their text, whatever the file says (llama-vocab.cpp, load())
        for text in _CONTROL_TEXTS:
            found = self.ids.get(text)
            if found is not None and self.types[found] not in (CONTROL, UNKNOWN):
                self.types[found] = CONTROL
        for text in _USER_DEFINED_TEXTS:
            if text in self.ids:
                self.types[self.ids[text]] = USER_DEFINED
        if "<|end|>" in self.ids and (
            {"<|return|>", "<|call|>"} <= self.ids.keys() or {"<|calls|>", "<|flush|>"} <= self.ids.keys()
        ):
            self.types[self.ids["<|end|>"]] = USER_DEFINED
        if "</s>" in self.ids and "<|tool_response>" in self.ids:
            self.types[self.ids["</s>"]] = NORMAL
        self.lstrip: set[int] = set()
        self.rstrip: set[int] = set()

    def special_ids(self) -> list[int]:
        """Ids llama.cpp cuts out of raw text: control, unknown and user-defined tokens."""
        return [i for i, t in enumerate(self.types) if t in (CONTROL, UNKNOWN, USER_DEFINED)]


def _flag(v: dict, key: str, default: bool, source: str) -> bool:
    value = v.get(key, default)
    if not isinstance(value, bool):
        raise FormatError(f"{source}: {key} must be true or false, not {value!r}")
    return value


def _settings(v: dict, kind: str, n: int, source: str, messages: list[str]) -> dict:
    """Special ids and flags: llama.cpp's defaults for the kind (and pre-tokenizer), then the keys."""
    pre = None
    add_bos, add_eos, add_space_prefix = {
        "llama": (True, False, True),
        "bert": (True, False, False),
        "gpt2": (False, False, False),
        "t5": (False, True, False),
    }[kind]
    ids = dict(zip(_SPECIAL_ID_KEYS, _DEFAULT_IDS[kind]))
    if kind == "gpt2":
        pre = v.get(K_PRE)
        if pre is None:
            messages.append(f"{source}: no {K_PRE}; the 'default' pre-tokenizer is used, as llama.cpp does")
            pre = "default"
        if pre in _OWN_CODE:
            raise FormatError(
                f"{source}: GGUF pre-tokenizer {pre!r} is not supported (llama.cpp splits it with code of its own)"
            )
        if pre not in PRE_NAMES:
            raise FormatError(f"{source}: GGUF pre-tokenizer {pre!r} is not supported (unknown to us)")
        add_bos = pre in _ADD_BOS
        if pre in _NO_BOS:
            ids["bos"] = None
    for name, key in _SPECIAL_ID_KEYS.items():
        default = ids[name]
        if default is not None and default >= n:
            ids[name] = None  # a default id past the vocabulary: llama.cpp disables it
        if key in v:
            value = v[key]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise FormatError(f"{source}: {key} must be a token id, not {value!r}")
            if value < n:
                ids[name] = value
            else:
                messages.append(f"{source}: {key} = {value} is past the vocabulary ({n} tokens); ignored")
    add_bos = _flag(v, "tokenizer.ggml.add_bos_token", add_bos, source)
    add_eos = _flag(v, "tokenizer.ggml.add_eos_token", add_eos, source)
    for flag, name in ((add_bos, "bos"), (add_eos, "eos")):
        if flag and ids[name] is None and kind != "bert":
            raise FormatError(f"{source}: tokenizer.ggml.add_{name}_token is true, but no {name} id is set")
    lowercase = _flag(v, "tokenizer.ggml.normalizer.lowercase", True, source)
    return {
        "pre": pre,
        "ids": ids,
        "add_bos": add_bos,
        "add_eos": add_eos,
        "add_space_prefix": _flag(v, "tokenizer.ggml.add_space_prefix", add_space_prefix, source),
        "remove_extra_whitespaces": _flag(v, "tokenizer.ggml.remove_extra_whitespaces", False, source),
        "lowercase": lowercase,
        "strip_accents": _flag(v, "tokenizer.ggml.normalizer.strip_accents", lowercase, source),
        "charsmap": v.get("tokenizer.ggml.precompiled_charsmap", b""),
        "merges": v.get(K_MERGES),
        "name": str(v.get("general.name") or "").lower(),
        "architecture": str(v.get("general.architecture") or ""),
    }


def _added_tokens(vocab: _Vocab, settings: dict):
    """The tokens cut out of raw text (step 2), with the strip flags llama.cpp gives some models."""
    from core.tokenizer import AddedToken

    special = vocab.special_ids()
    lstrip, rstrip = set(), set()
    name, pre, arch = settings["name"], settings["pre"] or "", settings["architecture"]
    if any(s in pre for s in ("jina-v2-de", "jina-v2-es", "jina-v2-code")) or any(
        s in arch for s in ("nomic-bert-moe", "jina-bert-v3")
    ):
        lstrip = {vocab.ids[t] for t in ("<mask>",) if t in vocab.ids}
    elif "phi-3" in name or "phi3" in name:
        rstrip = set(special) | {vocab.ids[t] for t in ("</s>",) if t in vocab.ids}
        rstrip -= {vocab.ids[t] for t in ("<unk>", "<s>", "<|endoftext|>") if t in vocab.ids}
    elif "modern-bert" in name:
        lstrip = {vocab.ids[t] for t in ("[MASK]",) if t in vocab.ids}
    return [
        AddedToken(
            vocab.tokens[i],
            i,
            special=vocab.types[i] != USER_DEFINED,
            normalized=False,
            lstrip=i in lstrip,
            rstrip=i in rstrip,
        )
        for i in special
    ]


def _llama(vocab: _Vocab, settings: dict, source: str):
    """``llama``: the engine's SentencePiece BPE, fed as llama.cpp's session sees the vocabulary."""
    from core.decoders import SentencePieceDecoder
    from core.models.factory import sentencepiece_model_class
    from core.normalizers_sentencepiece import SentencePieceNormalizer
    from core.sentencepiece_pieces import Piece, byte_piece
    from core.tokenizer import Tokenizer

    types = list(vocab.types)
    if UNKNOWN not in types:
        unk = settings["ids"]["unk"]
        if unk is None:
            raise FormatError(
                f"{source}: a 'llama' vocabulary needs an unknown token (none is typed or named)"
            )
        types[unk] = UNKNOWN
    # subtle: llama.cpp merges into any token of the vocabulary and keeps unused ones, where
    # SentencePiece freezes user-defined pieces and splits unused ones back; user-defined
    # tokens are cut out of the text before (added tokens), so both are plain pieces here.
    model_types = [NORMAL if t in (USER_DEFINED, UNUSED) else t for t in types]
    pieces = [Piece(t, s, k) for t, s, k in zip(vocab.tokens, vocab.scores, model_types)]
    has_bytes = any(byte_piece(b) in vocab.ids for b in range(256))
    model = sentencepiece_model_class("bpe")(pieces, byte_fallback=has_bytes)
    normalizer = SentencePieceNormalizer(
        b"",
        add_dummy_prefix=settings["add_space_prefix"],
        remove_extra_whitespaces=False,
        escape_whitespaces=True,
    )
    control = {t for t, k in zip(vocab.tokens, types) if k == CONTROL}
    decoder = SentencePieceDecoder(control, model.unk_token, drop_first_space=settings["add_space_prefix"])
    return Tokenizer(
        model, normalizer=normalizer, decoder=decoder, added_tokens=_added_tokens(vocab, settings)
    )


def _gpt2(vocab: _Vocab, settings: dict, source: str):
    """``gpt2``: byte-level BPE by merge rank after the named pre-tokenizer's regexes."""
    from core import decoders
    from core.errors import ConfigError
    from core.models.factory import model_class
    from core.pre_tokenizers import ByteLevel, Sequence, Split
    from core.tokenizer import Tokenizer

    merges = settings["merges"]
    if not isinstance(merges, list) or not all(isinstance(m, str) for m in merges):
        raise FormatError(f"{source}: a 'gpt2' vocabulary needs {K_MERGES}, an array of strings")
    pairs = []
    for n, m in enumerate(merges):
        cut = m.find(" ", 1)  # as llama.cpp: the first space after the first character
        if cut < 0:
            raise FormatError(f"{source}: merge {n} ({m!r}) is not two tokens and a space")
        pairs.append((m[:cut], m[cut + 1 :]))
    try:
        model = model_class("BPE")(
            vocab.ids, pairs, ignore_merges=settings["pre"] in _IGNORE_MERGES
        ).prepared()
    except ConfigError as e:
        raise FormatError(f"{source}: {e}") from None
    splits = [Split({"Regex": r}, "Isolated") for r in PRE_TOKENIZERS[PRE_NAMES[settings["pre"]]]]
    pre = Sequence([*splits, ByteLevel(add_prefix_space=False, use_regex=False)])
    return Tokenizer(
        model,
        pre_tokenizer=pre,
        decoder=decoders.ByteLevel(),
        added_tokens=_added_tokens(vocab, settings),
    )


def _bert(vocab: _Vocab, settings: dict, source: str):
    """``bert``: WordPiece over the GGUF vocabulary, where a word's first piece starts with ``▁``."""
    from core import decoders
    from core.errors import ConfigError
    from core.models.factory import model_class
    from core.normalizers import BertNormalizer
    from core.pre_tokenizers import BertPreTokenizer, Metaspace, Sequence
    from core.tokenizer import Tokenizer

    unk = settings["ids"]["unk"]
    if unk is None:
        raise FormatError(f"{source}: a 'bert' vocabulary needs an unknown token id")
    try:
        # subtle: the converter wrote "▁" + word for word starts and dropped "##"; with no
        # continuing prefix, the first match of "▁word" is a word start and the rest are suffixes
        model = model_class("WordPiece")(
            vocab.ids, vocab.tokens[unk], continuing_subword_prefix="", max_input_chars_per_word=2**31
        )
    except ConfigError as e:
        raise FormatError(f"{source}: {e}") from None
    normalizer = BertNormalizer(
        clean_text=True,
        handle_chinese_chars=True,
        strip_accents=settings["strip_accents"],
        lowercase=settings["lowercase"],
    )
    pre = Sequence([BertPreTokenizer(), Metaspace("▁", "always", split=False)])
    return Tokenizer(
        model,
        normalizer=normalizer,
        pre_tokenizer=pre,
        decoder=decoders.Metaspace("▁", "always"),
        added_tokens=_added_tokens(vocab, settings),
    )


def _t5(vocab: _Vocab, settings: dict, source: str):
    """``t5``: the best Unigram path of each normalized section (no pre-tokenizer)."""
    from core.decoders import SentencePieceDecoder
    from core.errors import ConfigError
    from core.models.factory import model_class
    from core.normalizers_sentencepiece import SentencePieceNormalizer
    from core.tokenizer import Tokenizer

    unk = settings["ids"]["unk"]
    try:
        model = model_class("Unigram")(list(zip(vocab.tokens, vocab.scores)), unk_id=unk)
    except ConfigError as e:
        raise FormatError(f"{source}: {e}") from None
    charsmap = settings["charsmap"]
    if not isinstance(charsmap, bytes):
        raise FormatError(f"{source}: tokenizer.ggml.precompiled_charsmap must be an array of bytes")
    remove = settings["remove_extra_whitespaces"]
    normalizer = SentencePieceNormalizer(
        charsmap,
        # subtle: llama.cpp puts a "▁" before each run of text when it removes extra spaces,
        # the first run included, whatever add_space_prefix says
        add_dummy_prefix=settings["add_space_prefix"] or remove,
        remove_extra_whitespaces=remove,
        escape_whitespaces=True,
    )
    control = {t for t, k in zip(vocab.tokens, vocab.types) if k == CONTROL}
    unk_piece = vocab.tokens[unk] if unk is not None else "<unk>"
    decoder = SentencePieceDecoder(
        control, unk_piece, drop_first_space=settings["add_space_prefix"] or remove
    )
    return Tokenizer(
        model, normalizer=normalizer, decoder=decoder, added_tokens=_added_tokens(vocab, settings)
    )


def _post_processor(vocab: _Vocab, settings: dict, kind: str) -> dict | None:
    """BOS/EOS (``bert``: BOS and SEP) around a sequence with ``add_special_tokens``, as a
    `tokenizers` TemplateProcessing."""
    ids = settings["ids"]
    if kind == "bert":
        before = [ids["bos"]] if ids["bos"] is not None else []
        after = [ids["sep"]] if ids["sep"] is not None else []
    else:
        before = [ids["bos"]] if settings["add_bos"] else []
        after = [ids["eos"]] if settings["add_eos"] else []
    if not before and not after:
        return None

    def piece(i: int) -> dict:
        return {"SpecialToken": {"id": vocab.tokens[i], "type_id": 0}}

    def sequence(name: str, type_id: int) -> dict:
        return {"Sequence": {"id": name, "type_id": type_id}}

    single = [*map(piece, before), sequence("A", 0), *map(piece, after)]
    pair = single + [*map(piece, before), sequence("B", 1), *map(piece, after)]
    specials = {
        vocab.tokens[i]: {"id": vocab.tokens[i], "ids": [i], "tokens": [vocab.tokens[i]]}
        for i in before + after
    }
    return {"type": "TemplateProcessing", "single": single, "pair": pair, "special_tokens": specials}


_PROBE = "Hello, world! 안녕하세요 こんにちは 😀 x = f(42)   \n\tend"


def _compare_embedded_json(tok, text: str, source: str) -> str:
    """Whether the file's ``tokenizer.huggingface.json`` and its GGUF fields make the same tokenizer."""
    from core.formats.hf_json import tokenizer_from_dict
    from core.limits import loads_json

    try:
        embedded = tokenizer_from_dict(loads_json(text, source), source=f"{source} ({K_HF_JSON})")
    except (ValueError, FormatError) as e:
        return f"{source}: the embedded {K_HF_JSON} cannot be read ({str(e).splitlines()[0]})"
    ours, theirs = tok.get_vocab(), embedded.get_vocab()
    if ours != theirs:
        differ = sum(theirs.get(t) != i for t, i in ours.items()) + len(theirs.keys() - ours.keys())
        return f"{source}: the embedded {K_HF_JSON} and the GGUF fields disagree on {differ} token id(s)"
    if tok.encode(_PROBE).ids != embedded.encode(_PROBE).ids:
        return (
            f"{source}: the embedded {K_HF_JSON} has the same vocabulary but encodes a probe text differently"
        )
    return f"{source}: the embedded {K_HF_JSON} agrees with the GGUF fields (vocabulary and a probe text)"


# -- as a row of core.formats.registry ---------------------------------------------------------


def find_in_folder(folder: Path) -> Path | None:
    from core.formats.common import one_file

    return one_file(folder, "*.gguf")


def sniff(head) -> bool:
    """A file that starts with GGUF's magic."""
    return head.data[:4] == MAGIC


def open_file(path: Path, pattern: str | None = None):
    """``pattern`` is unused: the file names its pre-tokenizer."""
    from core.formats.common import LoadedTokenizer

    tok, messages = tokenizer_from_metadata(read_metadata(path), str(path))
    return LoadedTokenizer(tok, "gguf", path, messages)
