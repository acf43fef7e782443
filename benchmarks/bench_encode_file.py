"""Benchmark: a whole corpus file to ids, ours (the command line) vs the peers, one thread and all.

    .venv/bin/python benchmarks/bench_encode_file.py                   # ko-movie-reviews.txt, 20.9 MB
    .venv/bin/python benchmarks/bench_encode_file.py --only bpe,sp-bpe --repeats 1

What a user encoding a large corpus runs: ours is ``subword encode -m FILE --input CORPUS --ids``
(streamed, written to a file) with ``--workers 1`` and with one worker per CPU; the peers are
called on the file's lines as a Python user calls them, with one thread and with their default
thread counts: ``Tokenizer.encode_batch`` (tokenizers; ``RAYON_NUM_THREADS``), tiktoken's
``encode_ordinary_batch`` (``num_threads`` 1 / its default 8), sentencepiece's
``encode(lines, num_threads=…)`` (1 / its default).

The comparison leans against us: ours is timed as the whole command (starting Python, loading
the file and numba's compiled kernels, reading, encoding, writing every line), the peer only
for its encode call on lines already in memory (its start, loading and reading are printed
apart). Every line's ids are checked equal first: the peer writes its ids in our format,
untimed, and the two files must be identical. Model files are made in the run from the
corpus's first ``--train-lines`` lines, as ``bench_encode.py`` makes them (no download).
Each job runs in a fresh process; ours and the peer alternate, ``--repeats`` times, and the
best of each is kept. Nothing here is a test: the figures depend on the machine and its load,
printed beside them.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "ko-movie-reviews.txt"
NAMES = ["bpe", "bytelevel-bpe", "wordpiece", "unigram", "tiktoken-gpt2", "sp-bpe", "sp-unigram"]

# The peer's side, in a fresh process: load, read the lines, time the encode call alone.
_PEER = r"""
import os, sys, time
name, model, corpus, threads, out = sys.argv[1:6]
threads = int(threads)
if threads:
    os.environ["RAYON_NUM_THREADS"] = str(threads)
start = time.perf_counter()
if name in ("bpe", "bytelevel-bpe", "wordpiece", "unigram"):
    from tokenizers import Tokenizer
    tok = Tokenizer.from_file(model)
    encode = lambda lines: [e.ids for e in tok.encode_batch(lines, add_special_tokens=False)]
elif name.startswith("tiktoken"):
    import tiktoken
    sys.path.insert(0, sys.argv[6])
    from core.formats.tiktoken_ranks import PATTERNS, read_ranks
    enc = tiktoken.Encoding(name, pat_str=PATTERNS["gpt2"], mergeable_ranks=read_ranks(model), special_tokens={})
    encode = (lambda lines: enc.encode_ordinary_batch(lines, num_threads=threads)) if threads else enc.encode_ordinary_batch
else:
    import sentencepiece as spm
    sp = spm.SentencePieceProcessor(model_file=model)
    encode = (lambda lines: sp.encode(lines, num_threads=threads)) if threads else sp.encode
with open(corpus, encoding="utf-8-sig") as f:
    lines = [line.removesuffix("\n") for line in f]
loaded = time.perf_counter()
ids = encode(lines)
done = time.perf_counter()
if out != "-":
    with open(out, "w", encoding="utf-8") as f:
        f.write("".join(" ".join(map(str, row)) + "\n" for row in ids))
print(f"{done - loaded:.3f} {loaded - start:.3f}")
"""


def _model_args(d: Path, name: str) -> list[str]:
    if name.startswith("tiktoken"):
        return [str(d / "ranks.tiktoken"), "--pattern", "gpt2"]
    if name.startswith("sp-"):
        return [str(d / f"{name}.model")]
    return [str(d / f"{name}.json")]


def _ours(d: Path, name: str, corpus: Path, workers: int, out: Path) -> float:
    subword = Path(sys.executable).with_name("subword")
    command = [str(subword), "encode", "-m", *_model_args(d, name), "--input", str(corpus), "--ids", "-q"]
    command += ["--workers", str(workers)]
    start = time.perf_counter()
    with open(out, "wb") as f:
        subprocess.run(command, stdout=f, check=True)
    return time.perf_counter() - start


def _peer(d: Path, name: str, corpus: Path, threads: int, out: str) -> tuple[float, float]:
    model = _model_args(d, name)[0]
    # bench_encode (imported for its model files) pins the peers to one thread: not here
    env = {k: v for k, v in os.environ.items() if k not in ("RAYON_NUM_THREADS", "TOKENIZERS_PARALLELISM")}
    run = subprocess.run(
        [sys.executable, "-c", _PEER, name, model, str(corpus), str(threads), out, str(ROOT)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    encode_s, load_s = map(float, run.stdout.split())
    return encode_s, load_s


def _best_of(d: Path, name: str, corpus: Path, cpus: int, out: Path, repeats: int):
    """The best of ``repeats`` alternating runs of each job, and the peer's untimed loading."""
    best: dict[str, float] = {}
    load = 0.0
    for _ in range(repeats):
        for key, job in (
            ("ours1", lambda: _ours(d, name, corpus, 1, out)),
            ("peer1", lambda: _peer(d, name, corpus, 1, "-")[0]),
            ("oursN", lambda: _ours(d, name, corpus, cpus, out)),
            ("peerN", lambda: _peer(d, name, corpus, 0, "-")),
        ):
            value = job()
            if isinstance(value, tuple):
                value, load = value
            best[key] = min(best.get(key, float("inf")), value)
    return best, load


def main() -> int:
    from bench_encode import _make_files

    from core.corpus_parallel import available_cpus

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--train-lines", type=int, default=20000, help="model files are trained on these")
    ap.add_argument("--vocab-size", type=int, default=8000)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--only", help=f"comma-separated subset of: {', '.join(NAMES)}")
    args = ap.parse_args()
    names = [n for n in NAMES if not args.only or n in args.only.split(",")]
    cpus = available_cpus()
    size_mb = args.corpus.stat().st_size / 1e6
    print(f"# {args.corpus.name}, {size_mb:.1f} MB; {cpus} CPUs; load average {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        head = d / "head.txt"
        with open(args.corpus, encoding="utf-8") as src, open(head, "w", encoding="utf-8") as dst:
            for _, line in zip(range(args.train_lines), src):
                dst.write(line)
        _make_files(d, head, args.vocab_size, set(names))
        print(
            "| model file | ours, 1 process | peer, 1 thread | ratio | ours, "
            f"{cpus} processes | peer, default threads | ratio |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for name in names:
            ours_out, peer_out = d / "ours.ids", d / "peer.ids"
            _ours(d, name, args.corpus, 1, ours_out)
            _peer(d, name, args.corpus, 1, str(peer_out))
            if ours_out.read_bytes() != peer_out.read_bytes():
                print(f"| {name} | ids differ from the peer's: not timed |")
                continue
            best, load = _best_of(d, name, args.corpus, cpus, ours_out, args.repeats)
            cells = {key: f"{t:.2f} s ({size_mb / t:.1f} MB/s)" for key, t in best.items()}
            print(
                f"| {name} | {cells['ours1']} | {cells['peer1']} | x{best['ours1'] / best['peer1']:.2f} "
                f"| {cells['oursN']} | {cells['peerN']} | x{best['oursN'] / best['peerN']:.2f} |",
                flush=True,
            )
            print(f"#   {name}: the peer's start, loading and reading took {load:.2f} s more (untimed)")
    print(f"# load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
