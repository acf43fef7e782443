"""Benchmark: encoding speed on every tokenizer file format, ours vs the native peer, one thread.

    .venv/bin/python benchmarks/bench_encode.py                      # Korean, 20,000 lines
    .venv/bin/python benchmarks/bench_encode.py --corpus ../shared/corpora/en-botchan.txt
    .venv/bin/python benchmarks/bench_encode.py --lines 100000 --only sp-bpe,sp-unigram

Every model file is made in the run from the corpus's first ``--lines`` lines (no download):

| name | file | peer |
| --- | --- | --- |
| bpe | `tokenizer.json`, BPE, NFC + Whitespace, `[UNK]` (trained by `tokenizers`) | `tokenizers` |
| bytelevel-bpe | `tokenizer.json`, byte-level BPE (GPT-2 style) | `tokenizers` |
| wordpiece | `tokenizer.json`, BERT normalizer + pre-tokenizer | `tokenizers` |
| unigram | `tokenizer.json`, NFKC + Metaspace | `tokenizers` |
| tiktoken-gpt2, tiktoken-cl100k | a rank file from the byte-level BPE above (GPT-2 / cl100k_base split) | `tiktoken` |
| sp-bpe | SentencePiece BPE `.model`, byte fallback (Llama/Mistral style) | `sentencepiece` |
| sp-unigram | SentencePiece unigram `.model` | `sentencepiece` |
| openai-cl100k, openai-o200k | OpenAI's cl100k_base / o200k_base ranks, the copy the `bpe-openai` wheel ships (skipped without it) | `tiktoken` |

subtle: the unigram ``tokenizer.json`` scores are rounded to 6 decimals before both load it:
`tokenizers` reads 17-digit floats up to one unit in the last place off (serde_json's fast
float parsing), which flips exact ties between segmentations (``,,,`` + ``,`` vs ``,`` + ``,,,``).

How it measures: ids are checked equal on every line first (ours: ``encode(line).ids``,
``encode_batch(lines)`` and ``encode_batch_ids(lines)``; the peer's own call; for the four
``tokenizer.json`` files also every token and offset of ``encode``, the peer's offsets under our
span rule, see ``core.tokenizer._without_overlaps``; this also loads numba's compiled kernels, so
every timed pass is warm; the cold first call of a fresh process is printed once per family), then each timed pass loads a fresh copy of
each tokenizer (caches start empty), and ours and the peer alternate, ``--repeats`` times; the
best pass of each is reported. One thread: ``RAYON_NUM_THREADS=1``, ``TOKENIZERS_PARALLELISM=false``,
``num_threads=1`` for sentencepiece. The peer is timed in each of its fastest one-thread ways
(``benchmarks/peers.py``): ``Tokenizer.encode_batch`` and ``encode`` per line (tokenizers),
``Encoding.encode_ordinary`` per line (tiktoken; its batch call is a thread pool),
``SentencePieceProcessor.encode(lines, num_threads=1)`` and ``encode`` per line; the faster is
the "peer" figure and its call is printed. Optional peers (``kitoken``, ``fastokens``), where
installed and reading the same file with the same ids, get a line of their own after each row
("not installed" otherwise).
Ours is timed as ``encode_batch_ids(lines)`` (ids), as ``encode(line)`` per line (its ids read) and as
``encode_batch(lines)`` (both with all tokens and offsets, as the peer's ``encode_batch``; the
batch's ids are read as the peer's are, so a garbage collection it put off is paid in the timing), and
``encode(line)`` once more on the same tokenizer ("again": every word already seen, as in a long
corpus or the explorer retyping). For the ``tokenizer.json`` files a second line times
``encode_batch`` reading every encoding's ids, tokens and offsets, ours and `tokenizers`', and a third times both one line at a time
(`tokenizers`' ``encode(line)``, ours ``encode(line)``, each encoding's ids read). Nothing here is a test: the figures depend on the machine and its load,
which is printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ["RAYON_NUM_THREADS"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "ko-movie-reviews.txt"
NAMES = [
    "bpe",
    "bytelevel-bpe",
    "wordpiece",
    "unigram",
    "tiktoken-gpt2",
    "tiktoken-cl100k",
    "sp-bpe",
    "sp-unigram",
    "openai-cl100k",
    "openai-o200k",
]


def _make_files(d: Path, corpus: Path, vocab_size: int, names: set[str]) -> None:
    """Train every model file on ``corpus`` with the peer libraries (OpenAI's ranks are copied)."""
    import peers
    import sentencepiece as spm
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    from core.bytelevel import CHAR_TO_BYTE
    from core.formats.tiktoken_ranks import write_ranks

    for name in sorted(names & set(peers.SHIPPED)):
        if peers.shipped_rank_file(d, name) is None:
            print(f"{name}: bpe-openai (whose wheel holds OpenAI's ranks) is not installed; skipped")

    def train(tok, trainer, name):
        tok.train([str(corpus)], trainer)
        tok.save(str(d / f"{name}.json"))

    if "bpe" in names:
        tok = Tokenizer(models.BPE(unk_token="[UNK]"))
        tok.normalizer = normalizers.NFC()
        tok.pre_tokenizer = pre_tokenizers.Whitespace()
        train(
            tok,
            trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=["[UNK]"], show_progress=False),
            "bpe",
        )
    if names & {"bytelevel-bpe", "tiktoken-gpt2", "tiktoken-cl100k"}:
        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        alphabet = pre_tokenizers.ByteLevel.alphabet()
        train(
            tok,
            trainers.BpeTrainer(vocab_size=vocab_size, initial_alphabet=alphabet, show_progress=False),
            "bytelevel-bpe",
        )
        ranks = {bytes(CHAR_TO_BYTE[c] for c in t): i for t, i in tok.get_vocab().items()}
        write_ranks(ranks, d / "ranks.tiktoken")
    if "wordpiece" in names:
        tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tok.normalizer = normalizers.BertNormalizer()
        tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        specials = ["[UNK]", "[CLS]", "[SEP]"]
        train(
            tok,
            trainers.WordPieceTrainer(vocab_size=vocab_size, special_tokens=specials, show_progress=False),
            "wordpiece",
        )
    if "unigram" in names:
        tok = Tokenizer(models.Unigram())
        tok.normalizer = normalizers.NFKC()
        tok.pre_tokenizer = pre_tokenizers.Metaspace()
        trainer = trainers.UnigramTrainer(
            vocab_size=vocab_size, special_tokens=["<unk>"], unk_token="<unk>", show_progress=False
        )
        train(tok, trainer, "unigram")
        path = d / "unigram.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        data["model"]["vocab"] = [[p, round(s, 6)] for p, s in data["model"]["vocab"]]
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    for model_type in ("bpe", "unigram"):
        if f"sp-{model_type}" in names:
            spm.SentencePieceTrainer.train(
                input=str(corpus),
                model_prefix=str(d / f"sp-{model_type}"),
                vocab_size=vocab_size,
                model_type=model_type,
                byte_fallback=model_type == "bpe",
                minloglevel=2,
                num_threads=1,
            )


def _loaders(d: Path, name: str):
    """(load ours, the native peer's one-thread ways) for one model file."""
    import peers

    if name in TOKENIZER_JSON:
        from core.formats.hf_json import load_tokenizer_json

        return lambda: load_tokenizer_json(d / f"{name}.json"), peers.native_ways(d, name)
    if peers.is_rank_file(name):
        from core.formats.tiktoken_ranks import load_tiktoken

        ranks = peers.model_file(d, name)
        return lambda: load_tiktoken(ranks, peers.pattern_of(name)), peers.native_ways(d, name)
    from core.formats.sentencepiece_model import load_sentencepiece

    return lambda: load_sentencepiece(d / f"{name}.model"), peers.native_ways(d, name)


def _optional_peers(d: Path, name: str, lines: list[str], want, repeats: int, ours_ids: float) -> None:
    """One line per optional peer: its fastest way (ids checked equal first) against ours."""
    import peers

    size_mb = sum(len(line.encode("utf-8")) for line in lines) / 1e6
    for peer in peers.OPTIONAL:
        if not peers.installed(peer):
            print(f"{'':<16} {peer}: not installed", flush=True)
            continue
        timed = []
        if not peers.optional_ways(d, name, peer):
            print(f"{'':<16} {peer}: does not read this kind of file", flush=True)
        for way in peers.optional_ways(d, name, peer):
            try:
                if way.make()(lines) != want:
                    print(f"{'':<16} {peer} `{way.call}`: ids differ; not timed", flush=True)
                    continue
            except Exception as error:  # a construct of the file it lacks
                print(f"{'':<16} {peer} `{way.call}`: cannot read the file ({str(error)[:80]})", flush=True)
                continue
            timed.append((min(_timed(way.make(), lines) for _ in range(repeats)), way.call))
        if timed:
            t, call = min(timed)
            print(
                f"{'':<16} {peer} {size_mb / t:6.2f} MB/s (`{call}`): ours ids x{ours_ids / t:.2f}",
                flush=True,
            )


def _model_path(d: Path, name: str) -> Path:
    import peers

    return peers.model_file(d, name)


TOKENIZER_JSON = ("bpe", "bytelevel-bpe", "wordpiece", "unigram")


def _peer_tokenizer(d: Path, name: str):
    from tokenizers import Tokenizer

    return Tokenizer.from_file(str(d / f"{name}.json"))


def _offsets_differ(d: Path, name: str, ours, lines: list[str]) -> int:
    """Lines whose tokens or offsets differ from `tokenizers`' (theirs under our span rule: where
    one character is cut into several tokens, it belongs to the last; see core.tokenizer)."""
    from core.tokenizer import _without_overlaps

    bad = 0
    for line, theirs in zip(lines, _peer_tokenizer(d, name).encode_batch(lines, add_special_tokens=False)):
        spans = [tuple(o) for o in theirs.offsets]
        _without_overlaps(spans)
        enc = ours.encode(line)
        bad += enc.tokens != theirs.tokens or enc.offsets != spans
    return bad


_COLD = """
import sys, time
sys.path.insert(0, {root!r})
start = time.perf_counter()
from core.formats.detect import open_tokenizer
tok = open_tokenizer({path!r}).tokenizer
loaded = time.perf_counter()
tok.encode_batch_ids(["안녕하세요 hello world"])
print(f"{{loaded - start:.2f}} {{time.perf_counter() - loaded:.2f}}")
"""


def _cold_first_call(path: Path) -> str:
    """The first ``encode_batch_ids`` call in a fresh process: with numba's on-disk cache of
    compiled kernels, and compiling them from scratch (an empty ``NUMBA_CACHE_DIR``)."""
    import subprocess

    found = []
    with tempfile.TemporaryDirectory() as empty:
        for env in ({}, {"NUMBA_CACHE_DIR": empty}):
            code = _COLD.format(root=str(ROOT), path=str(path))
            run = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, **env}
            )
            found.append(run.stdout.split()[-1] if run.returncode == 0 else "failed")
    return f"first call in a fresh process: {found[0]} s with numba's cache, {found[1]} s compiling"


def _ids_of_batch(tok):
    """``lines -> ids`` through ``tok.encode_batch``, reading each encoding's ids (as the peer is timed)."""
    return lambda lines: [e.ids for e in tok.encode_batch(lines)]


def _read_all(tok):
    """``encode_batch`` reading every encoding's ids, tokens and offsets (ours or `tokenizers`)."""

    def run(lines):
        return [(e.ids, e.tokens, e.offsets) for e in tok.encode_batch(lines)]

    return run


def _timed(fn, lines) -> float:
    start = time.perf_counter()
    fn(lines)
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--lines", type=int, default=20000, help="train on and encode the first N lines")
    ap.add_argument("--vocab-size", type=int, default=8000)
    ap.add_argument("--repeats", type=int, default=3, help="timed passes of each (the best is kept)")
    ap.add_argument("--only", help=f"comma-separated subset of: {', '.join(NAMES)}")
    args = ap.parse_args()
    names = [n for n in NAMES if not args.only or n in args.only.split(",")]
    lines = args.corpus.read_text(encoding="utf-8-sig").splitlines()[: args.lines]
    size_mb = sum(len(line.encode("utf-8")) for line in lines) / 1e6
    print(f"corpus {args.corpus.name}: {len(lines):,} lines, {size_mb:.2f} MB; vocab {args.vocab_size}")
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    rows = []
    peer_calls: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        corpus = d / "corpus.txt"
        corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
        _make_files(d, corpus, args.vocab_size, set(names))
        for name in names:
            if not _model_path(d, name).exists():
                continue
            load_ours, ways = _loaders(d, name)
            # 1. the same ids, every line, before any timing (every way of the peer too)
            want = ways[0].make()(lines)
            differ = [w.call for w in ways[1:] if w.make()(lines) != want]
            if differ:
                print(f"{name}: the peer's {differ} give other ids than `{ways[0].call}`", flush=True)
            ours = load_ours()
            slow = [ours.encode(line).ids for line in lines]
            fast = load_ours().encode_batch_ids(lines)
            batch = [e.ids for e in load_ours().encode_batch(lines)]
            bad = sum(a != b for a, b in zip(want, slow)) + sum(a != b for a, b in zip(want, fast))
            bad += sum(a != b for a, b in zip(want, batch))
            if name in TOKENIZER_JSON:  # the peers of the other files give no offsets
                bad += _offsets_differ(d, name, ours, lines)
            if bad:
                print(f"{name}: ids or offsets differ on {bad} lines; not timed", flush=True)
                continue
            # 2. alternate: fresh tokenizers each pass, so no cache is warm from a previous pass
            best = {"peer": float("inf"), "ids": float("inf"), "encode": float("inf"), "batch": float("inf")}
            for _ in range(args.repeats):
                for way in ways:
                    best[way.call] = min(best.get(way.call, float("inf")), _timed(way.make(), lines))
                best["ids"] = min(best["ids"], _timed(load_ours().encode_batch_ids, lines))
                if name in TOKENIZER_JSON:  # the peer one line at a time too, reading the ids
                    peer_tok = _peer_tokenizer(d, name)
                    best["peer_line"] = min(
                        best.get("peer_line", float("inf")),
                        _timed(
                            lambda ls, t=peer_tok: [t.encode(s, add_special_tokens=False).ids for s in ls],
                            lines,
                        ),
                    )
                tok = load_ours()
                best["encode"] = min(
                    best["encode"], _timed(lambda ls, tok=tok: [tok.encode(s).ids for s in ls], lines)
                )
                # the same lines again on the same tokenizer: every word seen (a long corpus, the explorer)
                best["warm"] = min(
                    best.get("warm", float("inf")),
                    _timed(lambda ls, tok=tok: [tok.encode(s).ids for s in ls], lines),
                )
                # as the peer is timed: the batch, then each encoding's ids read (so a garbage
                # collection the batch put off is paid here, as a caller would pay it)
                best["batch"] = min(best["batch"], _timed(_ids_of_batch(load_ours()), lines))
                if name in TOKENIZER_JSON:  # and reading every token and offset too, both sides
                    peer_tok = _peer_tokenizer(d, name)
                    best["peer_read"] = min(
                        best.get("peer_read", float("inf")), _timed(_read_all(peer_tok), lines)
                    )
                    best["read"] = min(best.get("read", float("inf")), _timed(_read_all(load_ours()), lines))
            best["peer"], peer_call = min((best[w.call], w.call) for w in ways)
            peer_calls[name] = f"{ways[0].peer} `{peer_call}`"
            others = ", ".join(
                f"`{w.call}` {size_mb / best[w.call]:.2f} MB/s" for w in ways if w.call != peer_call
            )
            print(
                f"{name:<16} peer: {peer_calls[name]}" + (f" (also {others})" if others else ""), flush=True
            )
            rows.append((name, best))
            if name in ("bpe", "tiktoken-gpt2", "sp-bpe"):
                model_file = {"bpe": "bpe.json", "tiktoken-gpt2": "ranks.tiktoken", "sp-bpe": "sp-bpe.model"}
                print(f"{name:<16} {_cold_first_call(d / model_file[name])}", flush=True)
            print(
                f"{name:<16} peer {size_mb / best['peer']:6.2f} MB/s  ours ids {size_mb / best['ids']:6.2f} MB/s"
                f" (x{best['ids'] / best['peer']:.2f})  ours encode {size_mb / best['encode']:5.2f} MB/s"
                f" (x{best['encode'] / best['peer']:.2f})  encode_batch {size_mb / best['batch']:5.2f} MB/s"
                f" (x{best['batch'] / best['peer']:.2f})  encode again {size_mb / best['warm']:5.2f} MB/s"
                f" (x{best['warm'] / best['peer']:.2f})",
                flush=True,
            )
            _optional_peers(d, name, lines, want, args.repeats, best["ids"])
            if "peer_line" in best:
                print(
                    f"{'':<16} one line at a time, reading the ids: peer {size_mb / best['peer_line']:5.2f} MB/s,"
                    f" ours {size_mb / best['encode']:5.2f} MB/s (x{best['encode'] / best['peer_line']:.2f}),"
                    f" ours again {size_mb / best['warm']:5.2f} MB/s (x{best['warm'] / best['peer_line']:.2f})",
                    flush=True,
                )
            if "read" in best:
                print(
                    f"{'':<16} reading ids, tokens and offsets of every encoding: peer"
                    f" {size_mb / best['peer_read']:5.2f} MB/s, ours {size_mb / best['read']:5.2f} MB/s"
                    f" (x{best['read'] / best['peer_read']:.2f})",
                    flush=True,
                )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print()
    print(
        "| model file | peer, its fastest one-thread call | peer MB/s | ours `encode_batch_ids` MB/s | ours/peer time | ours `encode` MB/s"
        " | ours/peer time | ours `encode_batch` MB/s | ours/peer time | `encode` again MB/s | ours/peer time |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, best in rows:
        print(
            f"| {name} | {peer_calls[name]} | {size_mb / best['peer']:.2f} | {size_mb / best['ids']:.2f} | x{best['ids'] / best['peer']:.2f}"
            f" | {size_mb / best['encode']:.2f} | x{best['encode'] / best['peer']:.2f}"
            f" | {size_mb / best['batch']:.2f} | x{best['batch'] / best['peer']:.2f}"
            f" | {size_mb / best['warm']:.2f} | x{best['warm'] / best['peer']:.2f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
