"""Benchmark: a whole corpus file to ids, ours (the command line) vs the peers, one thread and all.

    .venv/bin/python benchmarks/bench_encode_file.py                   # ko-movie-reviews.txt, 20.9 MB
    .venv/bin/python benchmarks/bench_encode_file.py --only bpe,sp-bpe --repeats 1

What a user encoding a large corpus runs: ours is ``subword encode -m FILE --input CORPUS --ids``
(streamed, written to a file) with ``--workers 1`` and with one worker per CPU. The peers are
called on the file's lines in their fastest one-thread ways (``benchmarks/peers.py``): tiktoken
as a loop of ``encode_ordinary(line)`` (before 2026-12-04 this file timed its thread-pool
``encode_ordinary_batch(lines, num_threads=1)``, several times slower); sentencepiece as
``encode(lines, num_threads=1)`` and a loop of ``encode(line)``; tokenizers as ``encode_batch``
with ``RAYON_NUM_THREADS=1`` and a loop of ``encode``. The faster way of each peer is the figure,
and the call is printed beside it. Optional peers (``kitoken``, ``fastokens``) get a row of their
own where installed and able to read the file ("not installed" otherwise). The many-CPU column
compares with the native peer's batch call at its default thread count (named too).

The comparison leans against us: ours is timed as the whole command (starting Python, loading
the file and numba's compiled kernels, reading, encoding, writing every line), the peer only
for its encode call on lines already in memory (its start, loading and reading are printed
apart). Every line's ids are checked equal: each peer way writes its ids in our format after
its first timed run (untimed), and the file must equal ours byte for byte, or that way's figure
is dropped. Model files are made in the run from the corpus's first ``--train-lines`` lines, as
``bench_encode.py`` makes them (no download); the ``openai-*`` rows use OpenAI's own cl100k_base
and o200k_base ranks from the copy inside the ``bpe-openai`` wheel, where ``rs-bpe`` and
``bpe-openai`` are peers too. Each job runs in a fresh process; ours and the
peers alternate, ``--repeats`` times, and the best of each is kept. Nothing here is a test: the
figures depend on the machine and its load, printed beside them.
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
DEFAULT = "default threads"

# One peer way, in a fresh process: load, read the lines, time the encode call alone.
_PEER = r"""
import os, sys, time
name, d, corpus, peer, call, out, root = sys.argv[1:8]
if call != "default threads":
    os.environ["RAYON_NUM_THREADS"] = "1"
sys.path[:0] = [root, os.path.join(root, "benchmarks")]
from pathlib import Path
start = time.perf_counter()
import peers
if call == "default threads":
    encode = peers.default_threads(Path(d), name)[1]
else:
    encode = peers.way(Path(d), name, peer, call).make()
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
    from peers import is_rank_file, model_file, pattern_of

    if is_rank_file(name):
        return [str(model_file(d, name)), "--pattern", pattern_of(name)]
    return [str(model_file(d, name))]


def _ours(d: Path, name: str, corpus: Path, workers: int, out: Path) -> float:
    subword = Path(sys.executable).with_name("subword")
    command = [str(subword), "encode", "-m", *_model_args(d, name), "--input", str(corpus), "--ids", "-q"]
    command += ["--workers", str(workers)]
    start = time.perf_counter()
    with open(out, "wb") as f:
        subprocess.run(command, stdout=f, check=True)
    return time.perf_counter() - start


def _peer(d: Path, name: str, corpus: Path, peer: str, call: str, out: str) -> tuple[float, float]:
    """(encode seconds, start and loading seconds) of one peer way in a fresh process."""
    # bench_encode (imported for its model files) pins the peers to one thread: the child decides
    env = {k: v for k, v in os.environ.items() if k not in ("RAYON_NUM_THREADS", "TOKENIZERS_PARALLELISM")}
    run = subprocess.run(
        [sys.executable, "-c", _PEER, name, str(d), str(corpus), peer, call, out, str(ROOT)],
        capture_output=True,
        text=True,
        env=env,
    )
    if run.returncode:
        raise RuntimeError((run.stderr.strip().splitlines() or ["failed"])[-1])
    encode_s, load_s = map(float, run.stdout.split())
    return encode_s, load_s


def _ways(d: Path, name: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The (peer, call) ways to time for ``name``, and one line for each optional peer left out."""
    import peers

    ways = [(w.peer, w.call) for w in peers.native_ways(d, name)]
    left_out = []
    for peer in peers.OPTIONAL:
        if not peers.installed(peer):
            left_out.append(f"| {name} | {peer} | not installed |")
            continue
        try:
            found = [(w.peer, w.call) for w in peers.optional_ways(d, name, peer)]
            ways += found
            if not found:
                left_out.append(f"| {name} | {peer} | does not read this kind of file |")
        except Exception as error:  # the peer lacks a construct of this file
            left_out.append(f"| {name} | {peer} | cannot read this file: {str(error)[:80]} |")
    return ways, left_out


def _best_of(d: Path, name: str, corpus: Path, cpus: int, ways, repeats: int):
    """The best of ``repeats`` alternating runs of each job (ours, every peer way), the peer
    ways whose ids differ from ours (checked on the first run), and each way's loading time."""
    ours_out = d / "ours.ids"
    best: dict[tuple[str, str], float] = {}
    load: dict[tuple[str, str], float] = {}
    wrong: dict[tuple[str, str], str] = {}
    _ours(d, name, corpus, 1, ours_out)  # untimed: the ids to check against, the kernels' files cached
    for repeat in range(repeats):
        best["ours", "1"] = min(best.get(("ours", "1"), float("inf")), _ours(d, name, corpus, 1, ours_out))
        for key in ways:
            if key in wrong:
                continue
            out = d / "peer.ids" if repeat == 0 else None
            try:
                seconds, load[key] = _peer(d, name, corpus, *key, str(out) if out else "-")
            except RuntimeError as error:
                wrong[key] = f"failed: {str(error)[:80]}"
                continue
            if out is not None and out.read_bytes() != ours_out.read_bytes():
                wrong[key] = "ids differ from ours: not timed"
                continue
            best[key] = min(best.get(key, float("inf")), seconds)
        best["ours", "N"] = min(best.get(("ours", "N"), float("inf")), _ours(d, name, corpus, cpus, ours_out))
        seconds, _ = _peer(d, name, corpus, "native", DEFAULT, "-")
        best["native", DEFAULT] = min(best.get(("native", DEFAULT), float("inf")), seconds)
    return best, load, wrong


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
            "| model file | peer | ours, 1 process | peer, 1 thread (its fastest call) | ratio | ours, "
            f"{cpus} processes | peer, default threads | ratio |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for name in names:
            from peers import default_call, model_file, native_peer

            if not model_file(d, name).exists():
                continue  # OpenAI's ranks without bpe-openai: _make_files said so

            ways, left_out = _ways(d, name)
            best, load, wrong = _best_of(d, name, args.corpus, cpus, ways, args.repeats)
            ours1, oursN = best["ours", "1"], best["ours", "N"]
            for peer in dict.fromkeys(p for p, _ in ways):
                timed = sorted((best[p, c], c) for p, c in ways if p == peer and (p, c) in best)
                for p, c in ways:
                    if p == peer and (p, c) in wrong:
                        print(f"#   {name}, {peer} `{c}`: {wrong[p, c]}")
                if not timed:
                    print(f"| {name} | {peer} | ids differ from ours or failed: not timed |", flush=True)
                    continue
                t, call = timed[0]
                cells = f"| {name} | {peer} | {ours1:.2f} s ({size_mb / ours1:.1f} MB/s) "
                cells += f"| {t:.2f} s ({size_mb / t:.1f} MB/s), `{call}` | x{ours1 / t:.2f} "
                if peer == native_peer(name):
                    tn = best["native", DEFAULT]
                    cells += f"| {oursN:.2f} s | {tn:.2f} s, `{default_call(name)}` | x{oursN / tn:.2f} |"
                else:
                    cells += "| | | |"
                print(cells, flush=True)
                others = "; ".join(f"`{c}` {s:.2f} s" for s, c in timed[1:])
                if others:
                    print(f"#   {name}, {peer}: also {others}")
                print(
                    f"#   {name}, {peer}: start, loading and reading took {load[peer, call]:.2f} s more (untimed)"
                )
            for line in left_out:
                print(line, flush=True)
    print(f"# load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
