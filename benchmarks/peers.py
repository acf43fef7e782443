"""The peers of every model file the benchmarks build, each called in its fastest one-thread ways.

Every way is a ``Way``: the peer, the call that is timed (printed beside each figure) and a
``make()`` that loads a fresh copy of the file and returns ``lines -> ids``. Each peer is timed in
every way its own documentation offers for one thread, and a benchmark reports the faster, named:

- tiktoken: a loop of ``Encoding.encode_ordinary(line)`` (its ``encode_ordinary_batch`` is a
  thread pool, several times slower with ``num_threads=1``, so it is not a one-thread way);
- sentencepiece: ``encode(lines, num_threads=1)`` and a loop of ``encode(line)``;
- tokenizers: ``encode_batch(lines)`` with ``RAYON_NUM_THREADS=1`` and a loop of ``encode(line)``,
  each encoding's ids read;
- optional, where installed and where they load the same file (nothing is downloaded; a missing
  one prints "not installed"): ``kitoken`` (``Kitoken.from_file``: ``tokenizer.json``,
  SentencePiece ``.model`` and rank files; ``encode_all`` and a loop of ``encode``) and
  ``fastokens`` (``Tokenizer.from_file`` / ``from_tiktoken``; ``encode_batch`` and a loop of
  ``encode``); ``rs-bpe`` and ``bpe-openai`` (a loop of ``encode`` / ``encode_ordinary``) encode
  only the cl100k_base and o200k_base ranks they ship, so they are peers of the ``openai-*``
  rows alone. Those rows' rank files are OpenAI's own, read from the copy inside the
  ``bpe-openai`` wheel (``shipped_rank_file``): without that package the rows are skipped.

A benchmark checks each way's ids against ours before timing it; an optional peer that reads a
file differently (kitoken on the Unigram files and on the cl100k-split rank file built here) is printed as
differing, not timed. Set ``RAYON_NUM_THREADS=1`` before importing this (the benchmarks do).

File layout in the benchmark's folder ``d`` (as ``bench_encode._make_files`` writes it):
``NAME.json`` (``tokenizer.json``), ``ranks.tiktoken`` (``tiktoken-*``), ``NAME.model`` (``sp-*``),
``cl100k_base.tiktoken`` / ``o200k_base.tiktoken`` (``openai-cl100k`` / ``openai-o200k``).
"""

from __future__ import annotations

import gzip
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

Encode = Callable[[list[str]], list[list[int]]]
TOKENIZER_JSON = ("bpe", "bytelevel-bpe", "wordpiece", "unigram")
OPTIONAL = ("kitoken", "fastokens", "rs-bpe", "bpe-openai")
SHIPPED = {"openai-cl100k": "cl100k_base", "openai-o200k": "o200k_base"}


@dataclass(frozen=True)
class Way:
    """One way to call one peer: ``make()`` loads the file afresh and returns ``lines -> ids``."""

    peer: str
    call: str
    make: Callable[[], Encode]


def is_rank_file(name: str) -> bool:
    """Whether model ``name`` is a tiktoken rank file: ``is_rank_file("openai-o200k") is True``."""
    return name.startswith("tiktoken") or name in SHIPPED


def shipped_rank_file(d: Path, name: str) -> Path | None:
    """Write OpenAI's ranks for ``name`` (``openai-cl100k``, ``openai-o200k``) into ``d`` from the
    gzipped copy the ``bpe-openai`` wheel ships; None when that package is not installed."""
    spec = importlib.util.find_spec("bpe_openai")
    if spec is None or spec.origin is None:
        return None
    packed = Path(spec.origin).parent / "data" / f"{SHIPPED[name]}.tiktoken.gz"
    out = model_file(d, name)
    out.write_bytes(gzip.decompress(packed.read_bytes()))
    return out


def model_file(d: Path, name: str) -> Path:
    """The file of model ``name`` in ``d``: ``model_file(d, "sp-bpe") == d / "sp-bpe.model"``."""
    if name in SHIPPED:
        return d / f"{SHIPPED[name]}.tiktoken"
    if name.startswith("tiktoken"):
        return d / "ranks.tiktoken"
    if name.startswith("sp-"):
        return d / f"{name}.model"
    return d / f"{name}.json"


def pattern_of(name: str) -> str:
    """The split pattern of a rank-file row: ``pattern_of("tiktoken-gpt2") == "gpt2"``."""
    if name in SHIPPED:
        return SHIPPED[name]
    return "gpt2" if name.endswith("gpt2") else "cl100k_base"


def native_peer(name: str) -> str:
    """The library that wrote (or reads natively) the file of model ``name``."""
    if is_rank_file(name):
        return "tiktoken"
    return "sentencepiece" if name.startswith("sp-") else "tokenizers"


def installed(peer: str) -> bool:
    """Whether the package ``peer`` (its pip name) can be imported."""
    return importlib.util.find_spec(peer.replace("-", "_")) is not None


def _tokenizers(path: Path) -> list[Way]:
    from tokenizers import Tokenizer

    def batch() -> Encode:
        tok = Tokenizer.from_file(str(path))
        return lambda lines: [e.ids for e in tok.encode_batch(lines, add_special_tokens=False)]

    def loop() -> Encode:
        tok = Tokenizer.from_file(str(path))
        return lambda lines: [tok.encode(s, add_special_tokens=False).ids for s in lines]

    return [
        Way("tokenizers", "encode_batch(lines), RAYON_NUM_THREADS=1", batch),
        Way("tokenizers", "encode(line) per line", loop),
    ]


def _tiktoken(path: Path, pattern: str) -> list[Way]:
    import tiktoken

    from core.formats.tiktoken_ranks import read_ranks
    from core.pre_tokenizers import TIKTOKEN_PATTERNS

    ranks = read_ranks(path)

    def loop() -> Encode:
        enc = tiktoken.Encoding(
            "bench", pat_str=TIKTOKEN_PATTERNS[pattern], mergeable_ranks=ranks, special_tokens={}
        )
        return lambda lines: [enc.encode_ordinary(s) for s in lines]

    return [Way("tiktoken", "encode_ordinary(line) per line", loop)]


def _sentencepiece(path: Path) -> list[Way]:
    import sentencepiece as spm

    def batch() -> Encode:
        sp = spm.SentencePieceProcessor(model_file=str(path))
        return lambda lines: sp.encode(lines, num_threads=1)

    def loop() -> Encode:
        sp = spm.SentencePieceProcessor(model_file=str(path))
        return lambda lines: [sp.encode(s) for s in lines]

    return [
        Way("sentencepiece", "encode(lines, num_threads=1)", batch),
        Way("sentencepiece", "encode(line) per line", loop),
    ]


def _kitoken(path: Path) -> list[Way]:
    from kitoken import Kitoken

    def batch() -> Encode:
        tok = Kitoken.from_file(str(path))
        return tok.encode_all

    def loop() -> Encode:
        tok = Kitoken.from_file(str(path))
        return lambda lines: [tok.encode(s) for s in lines]

    return [
        Way("kitoken", "encode_all(lines), RAYON_NUM_THREADS=1", batch),
        Way("kitoken", "encode(line) per line", loop),
    ]


def _fastokens(name: str, path: Path) -> list[Way]:
    if name.startswith("sp-"):
        return []  # it reads tokenizer.json and rank files, not SentencePiece .model
    from fastokens import Tokenizer

    def load():
        if is_rank_file(name):
            from core.pre_tokenizers import TIKTOKEN_PATTERNS

            return Tokenizer.from_tiktoken(str(path), pattern=TIKTOKEN_PATTERNS[pattern_of(name)])
        return Tokenizer.from_file(str(path))

    def batch() -> Encode:
        tok = load()
        return lambda lines: [e.ids for e in tok.encode_batch(lines)]

    def loop() -> Encode:
        tok = load()
        return lambda lines: [tok.encode(s).ids for s in lines]

    return [
        Way("fastokens", "encode_batch(lines), RAYON_NUM_THREADS=1", batch),
        Way("fastokens", "encode(line) per line", loop),
    ]


def _rs_bpe(name: str) -> list[Way]:
    if name not in SHIPPED:
        return []  # it encodes only the ranks it ships
    from rs_bpe.bpe import openai

    def loop() -> Encode:
        tok = getattr(openai, SHIPPED[name])()
        return lambda lines: [tok.encode(s) for s in lines]

    return [Way("rs-bpe", f"openai.{SHIPPED[name]}().encode(line) per line", loop)]


def _bpe_openai(name: str) -> list[Way]:
    if name not in SHIPPED:
        return []  # it encodes only the ranks it ships
    import bpe_openai

    def loop() -> Encode:
        enc = bpe_openai.get_encoding(SHIPPED[name])
        return lambda lines: [enc.encode_ordinary(s) for s in lines]

    return [Way("bpe-openai", "encode_ordinary(line) per line", loop)]


def native_ways(d: Path, name: str) -> list[Way]:
    """The native peer's one-thread ways for model ``name``."""
    path = model_file(d, name)
    if is_rank_file(name):
        return _tiktoken(path, pattern_of(name))
    if name.startswith("sp-"):
        return _sentencepiece(path)
    return _tokenizers(path)


def optional_ways(d: Path, name: str, peer: str) -> list[Way]:
    """An optional peer's ways for model ``name`` (empty if it cannot read that file at all).

    Loading may still fail on a construct the peer lacks (fastokens has no ``Whitespace``
    pre-tokenizer, for one): the caller catches that and prints it."""
    path = model_file(d, name)
    if peer == "rs-bpe":
        return _rs_bpe(name)
    if peer == "bpe-openai":
        return _bpe_openai(name)
    return _kitoken(path) if peer == "kitoken" else _fastokens(name, path)


def way(d: Path, name: str, peer: str, call: str) -> Way:
    """The way named ``peer`` / ``call`` (for a fresh process that times one way)."""
    ways = native_ways(d, name) if peer == native_peer(name) else optional_ways(d, name, peer)
    return next(w for w in ways if w.call == call)


def default_call(name: str) -> str:
    """The native peer's batch call at its default thread count, as the many-CPU column names it."""
    if is_rank_file(name):
        return "encode_ordinary_batch(lines), its default 8 threads"
    if name.startswith("sp-"):
        return "encode(lines), its default threads"
    return "encode_batch(lines), rayon's default threads"


def default_threads(d: Path, name: str) -> tuple[str, Encode]:
    """The native peer's batch call with its default thread count, named (for the many-CPU column)."""
    path = model_file(d, name)
    if is_rank_file(name):
        import tiktoken

        from core.formats.tiktoken_ranks import read_ranks
        from core.pre_tokenizers import TIKTOKEN_PATTERNS

        pattern = TIKTOKEN_PATTERNS[pattern_of(name)]
        enc = tiktoken.Encoding("bench", pat_str=pattern, mergeable_ranks=read_ranks(path), special_tokens={})
        return default_call(name), enc.encode_ordinary_batch
    if name.startswith("sp-"):
        import sentencepiece as spm

        sp = spm.SentencePieceProcessor(model_file=str(path))
        return default_call(name), sp.encode
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(path))
    return default_call(name), lambda lines: [
        e.ids for e in tok.encode_batch(lines, add_special_tokens=False)
    ]
