"""Benchmark: encoding speed of files we read, ours vs the library that wrote them, in one run.

    .venv/bin/python benchmarks/bench_formats_encode.py

- SentencePiece: a unigram and a BPE model (nmt_nfkc, vocab 8000) trained here on
  the corpus with ``sentencepiece``; both encode every line (ids only) — ours
  through ``core.formats.sentencepiece_model`` one line at a time, the peer in both its
  one-thread ways, ``encode(line)`` per line and ``encode(lines, num_threads=1)``, the
  faster kept and named.
- tiktoken: a byte-level BPE (vocab 8000) trained here with ``tokenizers``, written
  as a rank file; ``tiktoken.Encoding(..., pat_str=cl100k_base)`` vs ours
  (``encode_ordinary`` one line at a time, tiktoken's fastest one-thread way: its
  ``encode_ordinary_batch`` is a thread pool).

Ids are checked equal on every line before timing is reported. Times are wall
clock in this process (``time.perf_counter``) around the encoding loop only,
one thread. Nothing here is a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "ko-movie-reviews.txt"


def _time(fn, lines):
    start = time.perf_counter()
    out = [fn(line) for line in lines]
    return time.perf_counter() - start, out


def main() -> int:
    import sentencepiece as spm
    import tiktoken
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    from core.bytelevel import CHAR_TO_BYTE
    from core.formats.sentencepiece_model import load_sentencepiece
    from core.formats.tiktoken_ranks import load_tiktoken, write_ranks
    from core.pre_tokenizers import TIKTOKEN_PATTERNS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--lines", type=int, default=20000, help="encode the first N lines")
    ap.add_argument("--vocab-size", type=int, default=8000)
    args = ap.parse_args()
    lines = args.corpus.read_text(encoding="utf-8").splitlines()[: args.lines]
    print(f"corpus {args.corpus.name}: {len(lines)} lines, {sum(map(len, lines)):,} characters")
    rows = []
    with tempfile.TemporaryDirectory() as d:
        corpus = Path(d) / "c.txt"
        corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
        for model_type in ("unigram", "bpe"):
            prefix = Path(d) / model_type
            spm.SentencePieceTrainer.train(
                input=str(corpus),
                model_prefix=str(prefix),
                vocab_size=args.vocab_size,
                model_type=model_type,
                minloglevel=2,
                num_threads=1,
            )
            sp = spm.SentencePieceProcessor(model_file=f"{prefix}.model")
            ours = load_sentencepiece(f"{prefix}.model")
            t_line, a = _time(sp.encode, lines)
            start = time.perf_counter()
            a_batch = sp.encode(lines, num_threads=1)
            t_batch = time.perf_counter() - start
            t_ours, b = _time(lambda s, ours=ours: ours.encode(s).ids, lines)
            assert a == b == a_batch, f"{model_type}: ids differ"
            t_theirs, call = min((t_line, "encode(line) per line"), (t_batch, "encode(lines, num_threads=1)"))
            rows.append((f"sentencepiece {model_type}", t_ours, t_theirs, call))
        hf = Tokenizer(models.BPE())
        hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        hf.train(
            [str(corpus)],
            trainers.BpeTrainer(
                vocab_size=args.vocab_size,
                show_progress=False,
                initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
            ),
        )
        ranks = {bytes(CHAR_TO_BYTE[c] for c in t): i for t, i in hf.get_vocab().items()}
        write_ranks(ranks, Path(d) / "r.tiktoken")
        enc = tiktoken.Encoding(
            "bench", pat_str=TIKTOKEN_PATTERNS["cl100k_base"], mergeable_ranks=ranks, special_tokens={}
        )
        ours = load_tiktoken(Path(d) / "r.tiktoken", "cl100k_base")
        t_theirs, a = _time(enc.encode_ordinary, lines)
        t_ours, b = _time(lambda s: ours.encode(s).ids, lines)
        assert a == b, "tiktoken: ids differ"
        rows.append(("tiktoken cl100k pattern", t_ours, t_theirs, "encode_ordinary(line) per line"))
    print(f"{'model':<26}{'ours s':>10}{'peer s':>10}{'ours/peer':>11}{'ours lines/s':>14}  peer call")
    for name, ours_t, peer_t, call in rows:
        print(
            f"{name:<26}{ours_t:>10.2f}{peer_t:>10.2f}{ours_t / peer_t:>10.0f}x{len(lines) / ours_t:>14,.0f}"
            f"  {call}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
