"""Benchmark: counting a large file in one process vs with worker processes, in one run.

    .venv/bin/python benchmarks/bench_count.py                         # ko-movie-reviews.txt x4 (83 MB)
    .venv/bin/python benchmarks/bench_count.py --copies 1 --repeats 5

The corpus is ``--copies`` concatenated copies of ``ko-movie-reviews.txt``
written to a temporary file (the parallel path starts at 32 MB). Each run is a
fresh subprocess doing ``core.corpus.count_words`` with the ``bpe`` options
(``whitespace`` pre-tokenizer), ``workers=1`` and ``workers=None`` (one per
CPU) alternating; the table gives medians of wall time and of CPU time (the
child's own plus its workers', from ``os.times()``), and checks that both found the
same counts. On a shared, loaded machine the workers compete with everything
else for the cores: read the load average printed beside the figures.

Nothing here is a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "ko-movie-reviews.txt"

CHILD = """
import hashlib, json, sys
from core.corpus import count_words
from core.events import drain
from core.options import TrainOptions
workers = None if sys.argv[2] == "all" else int(sys.argv[2])
c = drain(count_words(sys.argv[1], TrainOptions("bpe"), workers=workers))
digest = hashlib.sha1(repr(sorted(c.words.items())).encode()).hexdigest()
print(json.dumps({"distinct": len(c.words), "lines": c.lines, "digest": digest}))
"""


def run(path: Path, workers: str) -> dict:
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), workers], stdout=subprocess.PIPE, cwd=ROOT
    )
    out = proc.stdout.read()
    status = proc.wait()
    wall = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"bench: the child counting with workers={workers} failed")
    return {"wall": wall, **json.loads(out.decode().strip().splitlines()[-1])}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    p.add_argument("--copies", type=int, default=4)
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.txt"
        data = args.corpus.read_bytes()
        with open(path, "wb") as f:
            for _ in range(args.copies):
                f.write(data)
        print(
            f"counting {path.stat().st_size / 1e6:.0f} MB ({args.copies} x {args.corpus.name}), {os.cpu_count()} CPUs"
        )
        runs: dict[str, list[dict]] = {"1": [], "all": []}
        for i in range(args.repeats):
            for workers in ("1", "all"):
                before = os.times()
                r = run(path, workers)
                after = os.times()
                # os.times() children_* include grandchildren reaped by their parent (the workers).
                r["cpu"] = (after.children_user - before.children_user) + (
                    after.children_system - before.children_system
                )
                runs[workers].append(r)
            print(
                f"  run {i + 1}: one process {runs['1'][-1]['wall']:.1f} s, workers {runs['all'][-1]['wall']:.1f} s, "
                f"load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    same = {r["digest"] for rs in runs.values() for r in rs}
    one, par = runs["1"], runs["all"]
    med = {k: {m: statistics.median(r[m] for r in rs) for m in ("wall", "cpu")} for k, rs in runs.items()}
    print()
    print(f"{'counting':<22} {'wall':>8} {'CPU':>8}")
    print(f"{'one process':<22} {med['1']['wall']:>6.1f} s {med['1']['cpu']:>6.1f} s")
    print(f"{'one worker per CPU':<22} {med['all']['wall']:>6.1f} s {med['all']['cpu']:>6.1f} s")
    print(
        f"\nworkers / one process: wall {med['all']['wall'] / med['1']['wall']:.2f}x, "
        f"CPU {med['all']['cpu'] / med['1']['cpu']:.2f}x; identical counts: {len(same) == 1} "
        f"({one[0]['distinct']:,} distinct words, {par[0]['lines']:,} lines)"
    )
    print(f"load average during the run: {os.getloadavg()[0]:.1f} (1 min) on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
