"""The Korean study table (docs/korean-japanese.md): syllable, jamo and morpheme-aware BPE, one size.

    .venv/bin/python benchmarks/korean_study_table.py                      # ko-movie-reviews.txt, vocab 8000
    .venv/bin/python benchmarks/korean_study_table.py --vocab-size 16000

Every 20th line of the corpus is held out; the other lines are counted under
each pipeline (``core.corpus.count_words``, both cores for ko-morph) and BPE is
trained on them (``core.korean_study``); the figures are over the held-out lines,
with a word being a whitespace-separated word (어절) for all three pipelines.
Prints a Markdown table, the time each pipeline took and the load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from core.corpus import count_words
from core.events import drain
from core.korean_study import PIPELINES, markdown_table, split_held_out, study_one, study_options

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "ko-movie-reviews.txt"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--vocab-size", type=int, default=8000)
    args = ap.parse_args()
    lines = args.corpus.read_text(encoding="utf-8-sig").splitlines()
    train, held_out = split_held_out(lines)
    print(f"load average before: {os.getloadavg()}", file=sys.stderr)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "train.txt"
        path.write_text("\n".join(train) + "\n", encoding="utf-8")
        for name in PIPELINES:
            t0 = time.perf_counter()
            counts = drain(count_words(path, study_options(name, args.vocab_size))).words
            t1 = time.perf_counter()
            rows.append(study_one(name, counts, held_out, args.vocab_size))
            t2 = time.perf_counter()
            print(f"{name}: counting {t1 - t0:.0f} s, training + measuring {t2 - t1:.0f} s", file=sys.stderr)
    print(f"load average after: {os.getloadavg()}", file=sys.stderr)
    print(f"{args.corpus.name}: {len(train):,} training lines, {len(held_out):,} held-out lines\n")
    print(markdown_table(rows))
    print("\ntokens per word against vocab size:")
    for r in rows:
        print(f"- {r.name}: " + ", ".join(f"{k:,}: {v:.3f}" for k, v in r.curve))


if __name__ == "__main__":
    main()
