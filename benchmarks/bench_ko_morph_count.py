"""Benchmark: counting a Korean corpus with the ``ko-morph`` pre-tokenizer beside whitespace counting.

    .venv/bin/python benchmarks/bench_ko_morph_count.py              # the first 4 MB of ko-movie-reviews.txt
    .venv/bin/python benchmarks/bench_ko_morph_count.py --mb 0       # the whole 20.9 MB file
    .venv/bin/python benchmarks/bench_ko_morph_count.py --rounds 2

Each configuration runs ``core.corpus.count_words`` in its own subprocess (so
the analyser's model load is included, as a user meets it), and the
configurations alternate round by round so that load changes hit them alike:

- ``whitespace``: the default BPE pre-tokenizer, one process;
- ``ko-morph, 1 process``: kiwipiepy on every line, ``workers=1``;
- ``ko-morph, 2 processes``: the same cut over byte ranges (``core.corpus_parallel``).

Wall time is around the subprocess (interpreter start included); CPU time is the
child's and its workers' (``os.wait4``, which on Linux includes the children the
child waited for).
The load average is printed before and after: the machine may be shared.

Nothing here is a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "ko-movie-reviews.txt"

CHILD = """
import json, sys, time
from core.corpus import count_words
from core.events import drain
from core.options import TrainOptions
path, pre, workers = sys.argv[1], sys.argv[2], int(sys.argv[3])
t0 = time.perf_counter()
counts = drain(count_words(path, TrainOptions("bpe", pre_tokenizer=pre), workers=workers))
t1 = time.perf_counter()
print(json.dumps({"seconds": t1 - t0, "words": counts.n_words, "distinct": counts.distinct_words}))
"""

CONFIGS = [
    ("whitespace", "whitespace", 1),
    ("ko-morph, 1 process", "ko-morph", 1),
    ("ko-morph, 2 processes", "ko-morph", 2),
]


def run(path: Path, pre: str, workers: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), pre, str(workers)], stdout=subprocess.PIPE, env=env, cwd=ROOT
    )
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"{pre} failed (status {status})")
    result = json.loads(out)
    result["wall"] = wall
    result["cpu"] = usage.ru_utime + usage.ru_stime
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--mb", type=float, default=4.0, help="count the first N MB (cut at a line end); 0: all")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.corpus
        if args.mb:
            data = args.corpus.read_bytes()[: int(args.mb * (1 << 20))]
            path = Path(tmp) / "part.txt"
            path.write_bytes(data[: data.rfind(b"\n") + 1])
        size = path.stat().st_size
        print(f"corpus: {args.corpus.name}, {size / 1e6:.1f} MB; load average before: {os.getloadavg()}")
        results: dict[str, list[dict]] = {name: [] for name, _, _ in CONFIGS}
        for _ in range(args.rounds):
            for name, pre, workers in CONFIGS:
                results[name].append(run(path, pre, workers))
        print(f"load average after: {os.getloadavg()}")
        base = min(r["wall"] for r in results["whitespace"])
        print(
            f"| configuration | wall s (best of {args.rounds}) | CPU s | MB/s | vs whitespace | pre-tokens |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for name, _, _ in CONFIGS:
            best = min(results[name], key=lambda r: r["wall"])
            print(
                f"| {name} | {best['wall']:.1f} | {best['cpu']:.1f} | {size / 1e6 / best['wall']:.2f} | "
                f"{best['wall'] / base:.1f}x | {best['words']:,} ({best['distinct']:,} distinct) |"
            )


if __name__ == "__main__":
    main()
