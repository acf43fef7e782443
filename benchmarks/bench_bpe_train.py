"""Benchmark: BPE and WordPiece training on a real corpus, ours vs `tokenizers` (vs subword-nmt), in one run.

    .venv/bin/python benchmarks/bench_bpe_train.py --skip-subword-nmt
    .venv/bin/python benchmarks/bench_bpe_train.py --algorithm bytelevel-bpe --skip-subword-nmt
    .venv/bin/python benchmarks/bench_bpe_train.py --algorithm wordpiece --skip-subword-nmt

Ours and `tokenizers` run ``--repeats`` times each (default 3), alternating, and
the table gives the median of each figure (subword-nmt, very slow, runs once).
WordPiece: ours with the frequency score (what ``WordPieceTrainer`` does) and
the ``bert`` pre-tokenizer, ``tokenizers`` with ``BertPreTokenizer``, ``[UNK]``.

Each implementation runs in its own subprocess, one after the other, doing the
whole job: read the corpus, pre-tokenize, count, learn merges to the vocab size.
Wall time is measured around the subprocess (interpreter start included); CPU
time (user + system) and peak memory (``ru_maxrss``) are that child's own, from
``os.wait4``. On a shared, loaded machine wall time inflates; CPU time much less,
so the ratios are printed for both.

- ours: ``core.corpus.count_words`` + ``core.training.train_from_counts``
  (pre-tokenizer ``whitespace``, ``<unk>`` the one special token; words only, no character
  counts, as ``subword train`` counts). A small job (distinct words
  of at most ``core.models.bpe.trainer.PLAIN_LIBRARY_MAX_SYMBOLS`` characters) merges without numpy, in
  the kernels' plain shared library (or in plain Python where it is not built); a larger one on the
  merge loop compiled ahead of time when ``python -m core.build`` has built it (the notes say which
  ran); ``--also-jit`` adds an alternating row that forces numba's JIT build, ``--each-loop``
  runs ours on every loop whatever the job's size: the plain library, plain Python and the
  compiled loop on numpy (how the threshold was chosen);
- tokenizers: ``BpeTrainer`` with the same pre-tokenizer (``Whitespace``) and
  special token, ``RAYON_NUM_THREADS=1`` (one thread);
- subword-nmt: ``learn-bpe --total-symbols`` with the same target size and
  ``--min-frequency 1`` (it splits on whitespace only, so its job is close but not
  identical). It can take very long: ``--subword-nmt-timeout`` caps it, and a
  capped run is reported as ``> N s``.

Nothing here is a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "ko-movie-reviews.txt"

OURS = """
import json, os, sys, time
from core.corpus import count_words
from core.events import MergeEvent, drain
from core.options import TrainOptions
from core.training import train_from_counts
path, algorithm, vocab_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
loop = os.environ.get("BENCH_MERGE_LOOP")
if loop:  # --each-loop: force one loop whatever the job's size
    import core.models.bpe.trainer as bpe
    bpe.PYTHON_LOOP_MAX_SYMBOLS = -1 if loop == "compiled" else 1 << 62
    bpe.PLAIN_LIBRARY = loop == "plain"
    bpe.PLAIN_LIBRARY_MAX_SYMBOLS = 1 << 62
t0 = time.perf_counter()
unk = "[UNK]" if algorithm == "wordpiece" else "<unk>"
extra = {"score": "frequency"} if algorithm == "wordpiece" else {}
opts = TrainOptions(algorithm, vocab_size=vocab_size, special_tokens=[unk], extra=extra)
words = drain(count_words(path, opts, characters=False)).words  # as `subword train` counts
t1 = time.perf_counter()
merge_events = []
# A WordPiece model keeps no merge list (only its vocabulary): count the merges its trainer made.
on_event = merge_events.append if algorithm == "wordpiece" else None
tok = drain(train_from_counts(words, opts), on_event)
t2 = time.perf_counter()
build = ("JIT" if "numba" in sys.modules else "ahead of time" if "numpy" in sys.modules
         else "plain library, no numpy" if "core.models.bpe.flat_arrays" in sys.modules else "none (plain Python)")
if algorithm == "wordpiece":
    merges = sum(isinstance(e, MergeEvent) for e in merge_events)
else:
    merges = len(tok.model.merges)
print(json.dumps({"vocab": tok.vocab_size, "merges": merges,
                  "detail": f"count {t1 - t0:.2f} s + train {t2 - t1:.2f} s, kernels {build}"}))
"""

TOKENIZERS = """
import json, sys, time
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
path, algorithm, vocab_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
tok = Tokenizer(models.BPE(unk_token="<unk>"))
kw = {}
Trainer = trainers.BpeTrainer
if algorithm == "wordpiece":
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    Trainer = trainers.WordPieceTrainer
elif algorithm == "bytelevel-bpe":
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    kw["initial_alphabet"] = pre_tokenizers.ByteLevel.alphabet()
else:
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
unk = "[UNK]" if algorithm == "wordpiece" else "<unk>"
trainer = Trainer(vocab_size=vocab_size, special_tokens=[unk], show_progress=False, **kw)
tok.train([path], trainer)
model = json.loads(tok.to_str())["model"]
report = {"vocab": tok.get_vocab_size(), "detail": "RAYON_NUM_THREADS=1"}
if "merges" in model:  # a WordPiece model saves only its vocabulary: no merge count to report
    report["merges"] = len(model["merges"])
print(json.dumps(report))
"""


def run_child(name: str, argv: list[str], env: dict | None = None, timeout: float | None = None) -> dict:
    """Run one job; wall time, the child's own peak RSS, and its JSON report (if it finished)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=out, stderr=err, cwd=ROOT, env=env)
        capped = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if timeout is not None and time.perf_counter() - start > timeout:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                capped = True
                break
            time.sleep(0.05)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    # Linux reports ru_maxrss in KiB.
    result = {
        "name": name,
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss_mb": usage.ru_maxrss / 1024,
        "capped": capped,
        "report": {},
    }
    if not capped and proc.returncode != 0:
        result["failed"] = stderr.strip().splitlines()[-1:] or [f"exit status {proc.returncode}"]
    elif not capped:
        lines = [line for line in stdout.splitlines() if line.startswith("{")]
        result["report"] = json.loads(lines[-1]) if lines else {}
    return result


def _median_run(runs: list[dict]) -> dict:
    """One row from repeated runs: the median wall, CPU and peak memory (each on its own)."""
    import statistics

    row = dict(runs[0])
    for key in ("wall", "cpu", "rss_mb"):
        row[key] = statistics.median(r[key] for r in runs)
    failed = [r for r in runs if "failed" in r]
    if failed:
        row["failed"] = failed[0]["failed"]
    row["report"] = dict(
        runs[0]["report"], detail=f"median of {len(runs)}; run 1: " + runs[0]["report"].get("detail", "")
    )
    return row


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    p.add_argument("--vocab-size", type=int, default=32000)
    p.add_argument("--algorithm", choices=["bpe", "bytelevel-bpe", "wordpiece"], default="bpe")
    p.add_argument("--repeats", type=int, default=3, help="runs of ours and tokenizers, alternating (3)")
    p.add_argument("--subword-nmt-timeout", type=float, default=900.0, help="seconds (default 900)")
    p.add_argument("--skip-subword-nmt", action="store_true")
    p.add_argument(
        "--also-jit", action="store_true", help="also run ours on numba's JIT build of the kernels"
    )
    p.add_argument(
        "--each-loop",
        "--both-loops",  # (its name before the plain library; the README's older commands use it)
        action="store_true",
        help="run ours on each merge loop whatever the size: the plain library (no numpy), plain Python, "
        "and the compiled loop on numpy",
    )
    args = p.parse_args(argv)
    if not args.corpus.is_file():
        print(f"bench: corpus not found: {args.corpus}", file=sys.stderr)
        return 1
    common = [str(args.corpus), args.algorithm, str(args.vocab_size)]
    py = sys.executable
    # The engine's bytecode current, as an installed package has it (pip compiles at install): with
    # PYTHONDONTWRITEBYTECODE set (as here) and a stale .pyc, every child would compile the
    # sources again, ~0.05 s of a small job's CPU.
    compileall.compile_dir(ROOT / "core", quiet=2)
    print(
        f"BPE training, {args.algorithm}, vocab {args.vocab_size:,}, corpus {args.corpus.name} "
        f"({args.corpus.stat().st_size / 1e6:.1f} MB), {os.cpu_count()} CPUs",
        flush=True,
    )

    env = dict(os.environ, RAYON_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false")
    runs: dict[str, list[dict]] = {"ours": [], "tokenizers": [], "jit": [], "compiled": [], "python": []}
    jit_env = dict(os.environ, SUBWORD_EXPLORER_JIT_ONLY="1")
    for i in range(args.repeats):
        if args.each_loop:
            for loop, key, name in (("plain", "ours", "ours, plain library"), ("python", "python", "ours, Python loop"),
                                    ("compiled", "compiled", "ours, compiled loop")):  # fmt: skip
                loop_env = dict(os.environ, BENCH_MERGE_LOOP=loop)
                runs[key].append(run_child(name, [py, "-c", OURS] + common, env=loop_env))
        else:
            runs["ours"].append(run_child("ours (core)", [py, "-c", OURS] + common))
        if args.also_jit:
            runs["jit"].append(run_child("ours, JIT kernels", [py, "-c", OURS] + common, env=jit_env))
        runs["tokenizers"].append(
            run_child("tokenizers (1 thread)", [py, "-c", TOKENIZERS] + common, env=env)
        )
        print(
            f"  run {i + 1}: ours {runs['ours'][-1]['wall']:.1f} s, tokenizers {runs['tokenizers'][-1]['wall']:.1f} s, "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    results = [_median_run(runs["ours"]), _median_run(runs["tokenizers"])]
    if args.each_loop:
        results += [_median_run(runs["python"]), _median_run(runs["compiled"])]
    if args.also_jit:
        results.append(_median_run(runs["jit"]))
    if not args.skip_subword_nmt:
        with tempfile.TemporaryDirectory() as tmp:
            codes = Path(tmp) / "codes"
            # subtle: subword_nmt.subword_nmt has no __main__ guard, so call its main() directly.
            cmd = [
                py,
                "-c",
                "from subword_nmt.subword_nmt import main; main()",
                "learn-bpe",
                "--input",
                str(args.corpus),
                "--output",
                str(codes),
                "--symbols",
                str(args.vocab_size),
                "--total-symbols",
                "--min-frequency",
                "1",
            ]
            results.append(run_child("subword-nmt learn-bpe", cmd, timeout=args.subword_nmt_timeout))
            if not results[-1]["capped"] and "failed" not in results[-1] and codes.exists():
                n = sum(1 for _ in codes.open(encoding="utf-8")) - 1
                results[-1]["report"] = {"merges": n, "detail": "whitespace-split words"}

    base = next(r for r in results if r["name"].startswith("tokenizers"))
    ours = results[0]
    print()
    print(
        f"{'implementation':<26} {'wall':>9} {'CPU':>9} {'peak RSS':>10} "
        f"{'wall/tok':>9} {'CPU/tok':>8} {'RSS/tok':>8}  notes"
    )
    for r in results:
        gt = "> " if r["capped"] else ""
        rep = r["report"]
        notes = r.get("failed") or ", ".join(
            str(x)
            for x in [
                f"{rep['merges']:,} merges" if "merges" in rep else None,
                f"vocab {rep['vocab']:,}" if "vocab" in rep else None,
                rep.get("detail"),
            ]
            if x
        )
        if r["capped"]:
            notes = f"killed at the {args.subword_nmt_timeout:.0f} s cap (RSS: peak until then)"
        print(
            f"{r['name']:<26} {gt + format(r['wall'], '.2f') + ' s':>9} {gt + format(r['cpu'], '.2f') + ' s':>9} "
            f"{r['rss_mb']:>7.0f} MB {gt.strip() + format(r['wall'] / base['wall'], '.2f') + 'x':>9} "
            f"{gt.strip() + format(r['cpu'] / base['cpu'], '.2f') + 'x':>8} "
            f"{r['rss_mb'] / base['rss_mb']:>7.2f}x  {notes}"
        )
    print()
    print(
        f"ours / tokenizers: wall {ours['wall'] / base['wall']:.2f}x, CPU {ours['cpu'] / base['cpu']:.2f}x, "
        f"peak memory {ours['rss_mb'] / base['rss_mb']:.2f}x"
    )
    if not args.skip_subword_nmt:
        nmt = results[-1]
        sign = ">" if nmt["capped"] else ""
        print(
            f"subword-nmt / ours: wall {sign}{nmt['wall'] / ours['wall']:.1f}x, CPU {sign}{nmt['cpu'] / ours['cpu']:.1f}x "
            "(ours is that many times faster)"
        )
    print(f"load average during the run: {os.getloadavg()[0]:.1f} (1 min) on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
