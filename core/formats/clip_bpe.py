"""CLIP's ``bpe_simple_vocab_16e6.txt.gz``: gzipped BPE merges over byte-level symbols with ``</w>``.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name, "bpe_simple_vocab_16e6.txt.gz")    # a tiny one: two merges
    >>> _ = path.write_bytes(gzip.compress("#version: 0.2\\nc a\\nca t</w>\\n".encode()))
    >>> tok = open_file(path).tokenizer
    >>> tok.encode("A cat").tokens
    ['a</w>', 'cat</w>']

The file and the encoder follow the published algorithm of openai/CLIP's
``simple_tokenizer.py`` (Radford et al. 2021):

1. the file is gzipped UTF-8; its first line is a header, each next line one merge
   ``left right``; only the first 48,894 lines are used (49,152 ids minus the 256
   bytes, their 256 ``</w>`` forms and the two special tokens); a blank line (the end
   of a short file) is no merge but, as in CLIP, still takes an id (an empty token);
2. ids: the 256 byte symbols in GPT-2's alphabet order (printable bytes first), the
   same with ``</w>``, one per merge (its two parts joined), then ``<|startoftext|>``
   and ``<|endoftext|>``;
3. text is cleaned: HTML entities unescaped twice, runs of white space made one
   space, the ends stripped, lower-cased (:class:`core.normalizers.ClipCleaning`);
4. it is cut with CLIP's regex (the special tokens, ``'s 't 're 've 'm 'll 'd``,
   runs of letters, single digits, runs of other non-space characters); the rest is
   dropped;
5. each piece's UTF-8 bytes, in the byte alphabet, with ``</w>`` on the last symbol,
   are merged pair by pair, lowest merge rank first.

Decoding joins the tokens, turns the symbols back into bytes and each ``</w>`` into a space.

Leaves out: CLIP's first cleaning step, ``ftfy.fix_text`` (mojibake repair, curly
quotes, full-width letters...): ftfy is not a dependency, so such text is encoded
as it is, after Unicode NFC (ftfy's own normalization); the loader says so.
"""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path

from core.errors import FormatError
from core.formats.common import Head, LoadedTokenizer, one_file
from core.limits import MAX_INFLATED_BYTES

N_MERGES = 49152 - 256 - 2
SPECIAL_TOKENS = ("<|startoftext|>", "<|endoftext|>")
CLIP_PATTERN = (
    r"""(?i)<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\s\p{L}\p{N}]+"""
)
_GZIP_MAGIC = b"\x1f\x8b"


def clip_byte_order() -> list[int]:
    """The bytes in the order CLIP's (and GPT-2's) ``bytes_to_unicode`` lists them.

    >>> clip_byte_order()[:3], clip_byte_order()[-1]
    ([33, 34, 35], 173)
    """
    printable = (
        list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    )
    return printable + [b for b in range(256) if b not in printable]


# -- the file -----------------------------------------------------------------------------


def read_merges(path: Path) -> list[tuple[str, str] | None]:
    """The merges CLIP uses from the file, None for a blank line (step 1); FormatError naming
    the file and line."""
    try:
        with gzip.open(path, "rb") as f:
            data = f.read(MAX_INFLATED_BYTES + 1)  # never the whole of what a gzip claims
    except OSError as e:  # not gzip, or truncated
        raise FormatError(f"{path}: not a gzipped CLIP merges file ({e})") from None
    except (EOFError, zlib.error) as e:
        raise FormatError(f"{path}: truncated or corrupt gzip data ({e})") from None
    if len(data) > MAX_INFLATED_BYTES:
        raise FormatError(
            f"{path}: inflates past {MAX_INFLATED_BYTES:,} bytes (core.limits: CLIP's merges inflate to a few MB); "
            "not a CLIP merges file"
        )
    try:
        lines = data.decode("utf-8").split("\n")
    except UnicodeDecodeError as e:
        raise FormatError(f"{path}: not UTF-8 text inside the gzip (byte {e.start})") from None
    merges: list[tuple[str, str] | None] = []
    for lineno, line in enumerate(lines[1 : N_MERGES + 1], 2):
        if not line.strip():
            merges.append(None)
            continue
        parts = line.split()
        if len(parts) != 2:
            raise FormatError(f"{path}: line {lineno} is not 'left right'")
        merges.append((parts[0], parts[1]))
    if not any(merges):
        raise FormatError(f"{path}: no merges after the header line")
    return merges


def load_clip(path: str | Path):
    """The Tokenizer of a CLIP merges file (steps 2 to 5)."""
    from core import decoders
    from core.bytelevel import BYTE_TO_CHAR
    from core.models.bpe.model import BPE
    from core.normalizers import ClipCleaning
    from core.pre_tokenizers import ByteLevel, Sequence, Split
    from core.tokenizer import AddedToken, Tokenizer

    path = Path(path)
    lines = read_merges(path)
    merges = [m for m in lines if m is not None]
    symbols = [BYTE_TO_CHAR[b] for b in clip_byte_order()]
    tokens = symbols + [s + "</w>" for s in symbols] + ["".join(m or ()) for m in lines]
    # subtle: as CLIP's dict(zip(vocab, range(...))), a token listed twice keeps its LAST id
    vocab = {t: i for i, t in enumerate(tokens)}
    vocab.pop("", None)  # a blank line's id stays taken, but no text is ever that token
    n = len(tokens)
    specials = [AddedToken(t, n + i, special=True, normalized=True) for i, t in enumerate(SPECIAL_TOKENS)]
    missing = [f"{a} {b}" for a, b in merges if a not in vocab or b not in vocab]
    if missing:
        raise FormatError(f"{path}: merge {missing[0]!r} joins symbols no earlier merge made")
    model = BPE(vocab, merges, end_of_word_suffix="</w>").prepared()
    tok = Tokenizer(
        model,
        normalizer=ClipCleaning(),
        pre_tokenizer=Sequence(
            [
                Split({"Regex": CLIP_PATTERN}, "Removed", invert=True),
                ByteLevel(add_prefix_space=False, use_regex=False),
            ]
        ),
        decoder=decoders.Sequence([decoders.ByteLevel(), decoders.Replace("</w>", " ")]),
        added_tokens=specials,
    )
    tok.extra["source"] = str(path)
    # the exact original, which a project save keeps beside its approximate tokenizer.json
    tok.extra["source_file"] = {"format": "clip", "name": path.name, "data": path.read_bytes()}
    return tok


# -- as a row of core.formats.registry ---------------------------------------------------------


def find_in_folder(folder: Path) -> Path | None:
    return one_file(folder, "bpe_simple_vocab*.txt.gz")


def sniff(head: Head) -> bool:
    """A gzip file whose text starts with CLIP's header line."""
    if not head.data.startswith(_GZIP_MAGIC):
        return False
    try:
        first = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(head.data, 64)
    except zlib.error:
        return False
    return first.startswith((b'"bpe_simple_vocab', b"#version"))


def open_file(path: Path, pattern: str | None = None) -> LoadedTokenizer:
    """``pattern`` is unused: CLIP's regex is part of the format."""
    warnings = [
        f"{path.name}: CLIP repairs text with ftfy.fix_text first (mojibake, curly quotes, full-width "
        "letters); that step is left out, so such text may encode differently"
    ]
    return LoadedTokenizer(load_clip(path), "clip", path, warnings)
