"""Benchmark: SuperBPE's encoding efficiency, tokens per byte against plain BPE at the same
vocabulary size (a measure of the tokenizer, not of speed: the counts are deterministic, so the
machine's load does not matter).

    .venv/bin/python benchmarks/bench_superbpe.py
    .venv/bin/python benchmarks/bench_superbpe.py --corpora en-botchan.txt ja-wagahaiwa.txt --sizes 8000
    .venv/bin/python benchmarks/bench_superbpe.py --corpora ko-movie-reviews.txt --head-mb 4

Each corpus of ``../shared/corpora`` (or its first ``--head-mb`` megabytes, whole lines: stage 2
is plain Python) is cut by lines: the first 90 % trains, the last 10 % is
encoded (``--held-out``). Rows per corpus and size V:

- ``bytelevel-bpe``: our ordinary byte-level BPE (GPT-2's pattern), the baseline of the last column;
- ``superbpe t=V``: SuperBPE with the transition at V, i.e. stage 1 alone: BPE on the words of
  SuperBPE's stage-1 pattern (the reference's), no superword;
- ``superbpe t=…``: SuperBPE with the transition at each of ``--fractions`` of V.

What the paper reports (Liu et al., "SuperBPE: Space Travel for Language Models", COLM 2025,
arXiv 2503.13423, its abstract): "when fixing the vocabulary size to 200k, SuperBPE encodes a
fixed piece of text with up to 33% fewer tokens than BPE on average" (English, trained on 10 GB).
Our corpora are a novel or a few MB and our sizes 8k and 32k, so expect less.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.events import drain  # noqa: E402
from core.options import TrainOptions, pre_tokenize_lines  # noqa: E402
from core.training import train_from_counts  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"
PAPER = "up to 33% fewer tokens than BPE at 200k (English, the paper's abstract)"


def tokens_per_byte(options: TrainOptions, train: list[str], test: list[str]) -> tuple[float, int]:
    """``(tokens per UTF-8 byte of test, vocabulary size reached)``."""
    tok = drain(train_from_counts(pre_tokenize_lines(train, options), options))
    tokens = sum(map(len, tok.encode_batch_ids(test)))
    return tokens / sum(len(line.encode("utf-8")) for line in test), tok.vocab_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--corpora", nargs="+", default=["en-botchan.txt", "ja-wagahaiwa.txt", "ko-movie-reviews.txt"]
    )
    parser.add_argument("--sizes", nargs="+", type=int, default=[8000, 32000])
    parser.add_argument("--fractions", nargs="+", type=float, default=[0.5, 0.8, 0.9])
    parser.add_argument(
        "--held-out", type=float, default=0.1, help="share of the lines encoded, not trained on"
    )
    parser.add_argument(
        "--head-mb", type=float, default=0, help="read only the first MB of each corpus (whole lines; 0: all)"
    )
    args = parser.parse_args(argv)

    print(f"paper: {PAPER}")
    print("| corpus | V | tokenizer | vocab reached | tokens / byte | vs bytelevel-bpe |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in args.corpora:
        text = (CORPORA / name).read_text(encoding="utf-8")
        if args.head_mb:
            text = text.encode("utf-8")[: int(args.head_mb * 1_000_000)].decode("utf-8", "ignore")
            text = text[: text.rfind("\n") + 1]  # whole lines only
        lines = [line for line in text.splitlines() if line.strip()]
        cut = int(len(lines) * (1 - args.held_out))
        train, test = lines[:cut], lines[cut:]
        for size in args.sizes:
            rows = [("bytelevel-bpe", TrainOptions("bytelevel-bpe", vocab_size=size))]
            for t in [size] + [int(size * f) for f in sorted(args.fractions, reverse=True)]:
                label = f"superbpe t={t}" + (" (stage 1 only)" if t == size else f" ({t / size:.0%})")
                rows.append((label, TrainOptions("superbpe", vocab_size=size, extra={"transition": t})))
            base = None
            for label, options in rows:
                tpb, reached = tokens_per_byte(options, train, test)
                base = base or tpb
                change = "" if tpb == base and label == "bytelevel-bpe" else f"{tpb / base - 1:+.1%}"
                print(f"| {name} | {size:,} | {label} | {reached:,} | {tpb:.4f} | {change} |")
                sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
