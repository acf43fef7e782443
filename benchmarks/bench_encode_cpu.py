"""Benchmark: CPU time and memory of SentencePiece ``.model`` files and rank files, ours vs the native peer.

    .venv/bin/python benchmarks/bench_encode_cpu.py                          # this checkout
    .venv/bin/python benchmarks/bench_encode_cpu.py --trees ../main .        # before and after, alternating

For a machine shared with others: every figure is CPU time (user + system), never wall time,
and each job is run ``--repeats`` times, the checkouts and the peer alternating, the best kept.
The load average is printed beside the figures.

The model files are made in the run (nothing is downloaded), like the files Llama and Mistral
ship: a SentencePiece BPE of 32,000 pieces with byte fallback and a Unigram of 16,000, trained
by sentencepiece on the first 4 MB of ``ko-movie-reviews.txt`` with ``en-botchan.txt`` and
``ja-wagahaiwa.txt``; a rank file of 32,000 ranks from a byte-level BPE trained by `tokenizers`
on the same text (GPT-2's pattern; ``rank-cl100k``: the same file split with cl100k's); OpenAI's cl100k_base from the ``bpe-openai`` wheel, where
installed. The peers: sentencepiece (``encode(line)`` per line, ``encode(lines,
num_threads=1)``), tiktoken (``encode_ordinary(line)`` per line, its fastest one-thread way).

- **per call**: ``encode_ids(line)`` on a fresh tokenizer over the corpus's first ``--lines``
  lines, µs a line (the peer: its per-line call);
- **batch**: ``encode_batch_ids(lines)`` on a fresh tokenizer (sentencepiece: its list call;
  tiktoken has no one-thread batch: its per-line loop);
- **whole file**: a whole process each: ours ``subword encode -m FILE --input CORPUS --ids
  --workers 1``, the peer a script reading the lines, encoding them in its fastest one-thread
  way and writing the same ids lines (checked equal to ours); CPU seconds and peak memory
  (``/usr/bin/time``).
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT.parent / "shared" / "corpora"
PATTERNS = {"rank-gpt2": "gpt2", "openai-cl100k": "cl100k_base"}

# Ours or the peer on one model, in a fresh process: prints "per-call-µs batch-µs".
_CALLS = r"""
import gc, os, sys, time
os.environ["RAYON_NUM_THREADS"] = "1"
kind, path, pattern, corpus, n, who = sys.argv[1:7]
lines = open(corpus, encoding="utf-8").read().splitlines()[: int(n)]
if who == "ours":
    if kind.startswith("sp-"):
        from core.formats.sentencepiece_model import load_sentencepiece
        make = lambda: load_sentencepiece(path)
    else:
        from core.formats.tiktoken_ranks import load_tiktoken
        make = lambda: load_tiktoken(path, pattern)
    make().encode_ids("warm")  # the compiled kernels loaded, as in a long-lived process
    line = lambda tok: [tok.encode_ids(s) for s in lines]
    batch = lambda tok: tok.encode_batch_ids(lines)
elif kind.startswith("sp-"):
    import sentencepiece as spm
    make = lambda: spm.SentencePieceProcessor(model_file=path)
    line = lambda sp: [sp.encode(s) for s in lines]
    batch = lambda sp: sp.encode(lines, num_threads=1)
else:
    import tiktoken
    from core.formats.tiktoken_ranks import read_ranks
    from core.pre_tokenizers import TIKTOKEN_PATTERNS
    ranks = read_ranks(path)
    make = lambda: tiktoken.Encoding("b", pat_str=TIKTOKEN_PATTERNS[pattern], mergeable_ranks=ranks, special_tokens={})
    line = lambda enc: [enc.encode_ordinary(s) for s in lines]
    batch = line
out = []
for run in (line, batch):
    tok = make()
    # loading is not timed, on either side: our tables for the compiled merge are built on the
    # first call (tiktoken builds its own when the Encoding is made)
    tok.encode_ids("warm 워밍업 テスト") if who == "ours" else None
    gc.collect()
    start = time.process_time()
    run(tok)
    out.append((time.process_time() - start) / len(lines) * 1e6)
print(*out)
"""

# The peer on a whole file: read, encode, write the ids lines as ours does.
_PEER_FILE = r"""
import os, sys
os.environ["RAYON_NUM_THREADS"] = "1"
kind, path, pattern, corpus, out = sys.argv[1:6]
with open(corpus, encoding="utf-8-sig") as f:
    lines = [line.removesuffix("\n") for line in f]
if kind.startswith("sp-"):
    import sentencepiece as spm
    ids = spm.SentencePieceProcessor(model_file=path).encode(lines, num_threads=1)
else:
    import tiktoken
    from core.formats.tiktoken_ranks import read_ranks
    from core.pre_tokenizers import TIKTOKEN_PATTERNS
    enc = tiktoken.Encoding("b", pat_str=TIKTOKEN_PATTERNS[pattern], mergeable_ranks=read_ranks(path), special_tokens={})
    ids = [enc.encode_ordinary(s) for s in lines]
with open(out, "w", encoding="utf-8") as f:
    f.write("".join(" ".join(map(str, row)) + "\n" for row in ids))
"""


def _make_files(d: Path) -> dict[str, tuple[Path, str]]:
    """Train the model files into ``d``: ``{name: (path, pattern)}``."""
    import sentencepiece as spm
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    from core.bytelevel import CHAR_TO_BYTE
    from core.formats.tiktoken_ranks import write_ranks

    mix = d / "mix.txt"
    head = (CORPORA / "ko-movie-reviews.txt").read_bytes()[: 4 << 20].decode("utf-8", "ignore")
    others = [(CORPORA / n).read_text(encoding="utf-8") for n in ("en-botchan.txt", "ja-wagahaiwa.txt")]
    mix.write_text(head + "".join(others), encoding="utf-8")
    files = {}
    for kind, size in (("bpe", 32000), ("unigram", 16000)):
        spm.SentencePieceTrainer.train(
            input=str(mix), model_prefix=str(d / f"sp-{kind}"), vocab_size=size, model_type=kind,
            byte_fallback=True, character_coverage=0.9995, minloglevel=2, num_threads=1,
        )  # fmt: skip
        files[f"sp-{kind}"] = (d / f"sp-{kind}.model", "")
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    tok.train(
        [str(mix)], trainers.BpeTrainer(vocab_size=32000, initial_alphabet=alphabet, show_progress=False)
    )
    write_ranks(
        {bytes(CHAR_TO_BYTE[c] for c in t): i for t, i in tok.get_vocab().items()}, d / "rank-gpt2.tiktoken"
    )
    files["rank-gpt2"] = (d / "rank-gpt2.tiktoken", "gpt2")
    files["rank-cl100k"] = (d / "rank-gpt2.tiktoken", "cl100k_base")  # the same ranks, cl100k's split
    spec = importlib.util.find_spec("bpe_openai")
    if spec is not None and spec.origin is not None:
        packed = Path(spec.origin).parent / "data" / "cl100k_base.tiktoken.gz"
        (d / "cl100k_base.tiktoken").write_bytes(gzip.decompress(packed.read_bytes()))
        files["openai-cl100k"] = (d / "cl100k_base.tiktoken", "cl100k_base")
    return files


def _child_usage(command: list[str], tree: Path, stdout) -> tuple[float, float]:
    """(CPU seconds, peak MB) of one child process run from ``tree``, as ``/usr/bin/time`` says
    (a forked child's own ``getrusage`` would count the memory of this process before exec)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    timed = ["/usr/bin/time", "-f", "%U %S %M", *command]
    run = subprocess.run(
        timed, cwd=tree, env=env, stdout=stdout, stderr=subprocess.PIPE, text=True, check=True
    )
    user, system, kb = run.stderr.split()[-3:]
    return float(user) + float(system), int(kb) / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", nargs="*", type=Path, default=[ROOT], help="checkouts whose code is timed")
    ap.add_argument("--corpus", type=Path, default=CORPORA / "ko-movie-reviews.txt")
    ap.add_argument("--lines", type=int, default=20000, help="lines for the per-call and batch figures")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument(
        "--only", help="comma-separated subset of: sp-bpe, sp-unigram, rank-gpt2, rank-cl100k, openai-cl100k"
    )
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    python = sys.executable
    trees = [t.resolve() for t in args.trees]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        files = _make_files(d)
        print(f"# {args.corpus.name}; load average {os.getloadavg()}; CPU time, best of {args.repeats}")
        print("| model | who | per call µs | batch µs | whole file CPU s | peak MB |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        for name, (path, pattern) in files.items():
            if args.only and name not in args.only.split(","):
                continue
            whos = [str(t) for t in trees] + ["peer"]
            best: dict[str, list[float]] = {w: [float("inf")] * 4 for w in whos}
            peer_ids, our_ids = d / "peer.ids", d / "ours.ids"
            for _ in range(args.repeats):
                for who in whos:
                    tree = Path(who) if who != "peer" else ROOT
                    calls = subprocess.run(
                        [python, "-c", _CALLS, name, str(path), pattern, str(args.corpus), str(args.lines),
                         "ours" if who != "peer" else "peer"],
                        cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)), capture_output=True, text=True,
                        check=True,
                    )  # fmt: skip
                    line_us, batch_us = map(float, calls.stdout.split())
                    if who == "peer":
                        command = [
                            python,
                            "-c",
                            _PEER_FILE,
                            name,
                            str(path),
                            pattern,
                            str(args.corpus),
                            str(peer_ids),
                        ]
                        cpu, mb = _child_usage(command, tree, subprocess.DEVNULL)
                    else:
                        command = [python, "-m", "core.cli", "encode", "-m", str(path)]
                        command += ["--pattern", pattern] if pattern else []
                        command += ["--input", str(args.corpus), "--ids", "-q", "--workers", "1"]
                        with open(our_ids, "w") as out:
                            cpu, mb = _child_usage(command, tree, out)
                    for k, v in enumerate((line_us, batch_us, cpu, mb)):
                        best[who][k] = min(best[who][k], v)
                    if who == "peer" and peer_ids.read_bytes() != our_ids.read_bytes():
                        print(f"# {name}: the peer's ids differ from ours")
            peer = best["peer"]
            for who in whos:
                b = best[who]
                ratio = (
                    ""
                    if who == "peer"
                    else " (x{:.2f}, x{:.2f}, x{:.2f}, x{:.2f})".format(*(b[k] / peer[k] for k in range(4)))
                )
                label = "peer" if who == "peer" else f"ours, {Path(who).name}"
                print(
                    f"| {name} | {label} | {b[0]:.1f} | {b[1]:.1f} | {b[2]:.2f} | {b[3]:.0f} |{ratio}",
                    flush=True,
                )
    print(f"# load average after: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
