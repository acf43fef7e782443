"""Benchmark: CPU time and memory of SentencePiece ``.model`` files and rank files, ours vs the peers.

    .venv/bin/python benchmarks/bench_encode_cpu.py                          # this checkout
    .venv/bin/python benchmarks/bench_encode_cpu.py --trees ../main .        # before and after, alternating
    .venv/bin/python benchmarks/bench_encode_cpu.py --only openai-cl100k,openai-o200k --repeats 3

For a machine shared with others: every figure is CPU time (user + system), never wall time,
and each job is run ``--repeats`` times, the checkouts and the peers alternating, the best kept.
The load average is printed beside the figures.

The model files are made in the run (nothing is downloaded), like the files Llama and Mistral
ship: a SentencePiece BPE of 32,000 pieces with byte fallback and a Unigram of 16,000, trained
by sentencepiece on the first 4 MB of ``ko-movie-reviews.txt`` with ``en-botchan.txt`` and
``ja-wagahaiwa.txt``; a rank file of 32,000 ranks from a byte-level BPE trained by `tokenizers`
on the same text (GPT-2's pattern; ``rank-cl100k``: the same file split with cl100k's); OpenAI's
cl100k_base and o200k_base (``openai-*``), copied from inside the ``bpe-openai`` wheel, where
installed (the rows are skipped otherwise).

The peers, each in its fastest one-thread ways (``benchmarks/peers.py``, the call printed): the
native one, sentencepiece (``encode(line)`` per line, ``encode(lines, num_threads=1)``) or
tiktoken (``encode_ordinary(line)`` per line; its batch call is a thread pool); and the optional
ones where installed and reading the same file (``pip install -e ".[bench-peers]"``; a missing one
prints "not installed"): kitoken, fastokens, and on the ``openai-*`` rows rs-bpe and bpe-openai,
which encode only the ranks they ship. A peer way's ids on the per-call lines are checked equal to
ours before it is timed (a way that differs is printed, not timed), and its whole-file ids too.

- **per call**: ``encode_ids(line)`` on a fresh tokenizer over the corpus's first ``--lines``
  lines, µs a line (a peer: its per-line call);
- **batch**: ``encode_batch_ids(lines)`` on a fresh tokenizer (a peer: the fastest of its calls,
  its list call or its per-line loop);
- **whole file**: a whole process each: ours ``subword encode -m FILE --input CORPUS --ids
  --workers 1``, a peer a script reading the lines, loading the file, encoding them in its fastest
  one-thread way (of the batch column, this round) and writing the same ids lines (checked equal to
  ours); CPU seconds and peak memory (``/usr/bin/time``), start-up and loading included on both sides.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
CORPORA = ROOT.parent / "shared" / "corpora"
NAMES = ["sp-bpe", "sp-unigram", "rank-gpt2", "rank-cl100k", "openai-cl100k", "openai-o200k"]
# this benchmark's row -> its name in peers.py (whose file layout the rows' files follow)
PEERS_NAME = {"rank-gpt2": "tiktoken-gpt2", "rank-cl100k": "tiktoken-cl100k"}

# Ours on one model, in a fresh process: prints "per-call-µs batch-µs"; writes the batch's ids.
_OURS = r"""
import gc, os, sys, time
os.environ["RAYON_NUM_THREADS"] = "1"
kind, path, pattern, corpus, n, out = sys.argv[1:7]
lines = open(corpus, encoding="utf-8").read().splitlines()[: int(n)]
if kind.startswith("sp-"):
    from core.formats.sentencepiece_model import load_sentencepiece
    make = lambda: load_sentencepiece(path)
else:
    from core.formats.tiktoken_ranks import load_tiktoken
    make = lambda: load_tiktoken(path, pattern)
make().encode_ids("warm")  # the compiled kernels loaded, as in a long-lived process
times = []
for batch in (False, True):
    tok = make()
    # loading is not timed, on either side: our tables for the compiled merge are built on the
    # first call (tiktoken builds its own when the Encoding is made)
    tok.encode_ids("warm 워밍업 テスト")
    gc.collect()
    start = time.process_time()
    ids = tok.encode_batch_ids(lines) if batch else [tok.encode_ids(s) for s in lines]
    times.append((time.process_time() - start) / len(lines) * 1e6)
if out != "-":
    with open(out, "w", encoding="utf-8") as f:
        f.write("".join(" ".join(map(str, row)) + "\n" for row in ids))
print(*times)
"""

# One peer way on the first n lines, in a fresh process: prints µs a line; writes its ids.
_PEER_CALL = r"""
import gc, os, sys, time
os.environ["RAYON_NUM_THREADS"] = "1"
name, d, corpus, n, peer, call, out, root = sys.argv[1:9]
sys.path[:0] = [root, os.path.join(root, "benchmarks")]
from pathlib import Path
import peers
lines = open(corpus, encoding="utf-8").read().splitlines()[: int(n)]
encode = peers.way(Path(d), name, peer, call).make()  # loading is not timed
encode(["warm 워밍업 テスト"])
gc.collect()
start = time.process_time()
ids = encode(lines)
print((time.process_time() - start) / len(lines) * 1e6)
if out != "-":
    with open(out, "w", encoding="utf-8") as f:
        f.write("".join(" ".join(map(str, row)) + "\n" for row in ids))
"""

# One peer way on a whole file, in a fresh process: read, load, encode, write the ids lines as ours does.
_PEER_FILE = r"""
import os, sys
os.environ["RAYON_NUM_THREADS"] = "1"
name, d, corpus, peer, call, out, root = sys.argv[1:8]
sys.path[:0] = [root, os.path.join(root, "benchmarks")]
from pathlib import Path
import peers
with open(corpus, encoding="utf-8-sig") as f:
    lines = [line.removesuffix("\n") for line in f]
ids = peers.way(Path(d), name, peer, call).make()(lines)
with open(out, "w", encoding="utf-8") as f:
    f.write("".join(" ".join(map(str, row)) + "\n" for row in ids))
"""


def _peers_name(name: str) -> str:
    return PEERS_NAME.get(name, name)


def _make_files(d: Path, names: list[str]) -> dict[str, tuple[Path, str]]:
    """Train (or copy) the files of rows ``names`` into ``d``: ``{name: (path, pattern)}``."""
    import peers

    files = {}
    if any(n.startswith("sp-") or n.startswith("rank-") for n in names):
        mix = d / "mix.txt"
        head = (CORPORA / "ko-movie-reviews.txt").read_bytes()[: 4 << 20].decode("utf-8", "ignore")
        others = [(CORPORA / n).read_text(encoding="utf-8") for n in ("en-botchan.txt", "ja-wagahaiwa.txt")]
        mix.write_text(head + "".join(others), encoding="utf-8")
    for kind, size in (("bpe", 32000), ("unigram", 16000)):
        if f"sp-{kind}" not in names:
            continue
        import sentencepiece as spm

        spm.SentencePieceTrainer.train(
            input=str(mix), model_prefix=str(d / f"sp-{kind}"), vocab_size=size, model_type=kind,
            byte_fallback=True, character_coverage=0.9995, minloglevel=2, num_threads=1,
        )  # fmt: skip
        files[f"sp-{kind}"] = (d / f"sp-{kind}.model", "")
    if any(n.startswith("rank-") for n in names):
        from tokenizers import Tokenizer, models, pre_tokenizers, trainers

        from core.bytelevel import CHAR_TO_BYTE
        from core.formats.tiktoken_ranks import write_ranks

        tok = Tokenizer(models.BPE())
        tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        alphabet = pre_tokenizers.ByteLevel.alphabet()
        tok.train(
            [str(mix)], trainers.BpeTrainer(vocab_size=32000, initial_alphabet=alphabet, show_progress=False)
        )
        ranks = peers.model_file(d, "tiktoken-gpt2")
        write_ranks({bytes(CHAR_TO_BYTE[c] for c in t): i for t, i in tok.get_vocab().items()}, ranks)
        for name in ("rank-gpt2", "rank-cl100k"):  # the same ranks, GPT-2's and cl100k's split
            if name in names:
                files[name] = (ranks, peers.pattern_of(_peers_name(name)))
    for name in names:
        if name in peers.SHIPPED:
            path = peers.shipped_rank_file(d, name)
            if path is None:
                print(f"# {name}: bpe-openai (whose wheel holds OpenAI's ranks) is not installed; skipped")
            else:
                files[name] = (path, peers.SHIPPED[name])
    return {n: files[n] for n in names if n in files}


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


def _peer_ways(d: Path, name: str) -> tuple[dict[str, list[str]], list[str]]:
    """Each peer's one-thread calls for row ``name`` (native first), and a line for each optional
    peer left out (not installed, or reading no file of this kind, or failing to load it)."""
    import peers

    pname = _peers_name(name)
    ways: dict[str, list[str]] = {}
    for w in peers.native_ways(d, pname):
        ways.setdefault(w.peer, []).append(w.call)
    left_out = []
    for peer in peers.OPTIONAL:
        if not peers.installed(peer):
            left_out.append(f"# {name}, {peer}: not installed (pip install {peer})")
            continue
        try:
            found = peers.optional_ways(d, pname, peer)
            for w in found:
                w.make()  # loads the file: a construct it lacks fails here
                ways.setdefault(w.peer, []).append(w.call)
            if not found:
                left_out.append(f"# {name}, {peer}: does not read this kind of file")
        except Exception as error:  # the peer lacks a construct of this file
            left_out.append(f"# {name}, {peer}: cannot read this file: {str(error)[:100]}")
    return ways, left_out


def _first_difference(a: Path, b: Path) -> int:
    """The first line (from 1) where files ``a`` and ``b`` differ."""
    lines_a, lines_b = a.read_text().splitlines(), b.read_text().splitlines()
    return next((i for i, (x, y) in enumerate(zip(lines_a, lines_b), 1) if x != y), len(lines_a) + 1)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trees", nargs="*", type=Path, default=[ROOT], help="checkouts whose code is timed")
    ap.add_argument("--corpus", type=Path, default=CORPORA / "ko-movie-reviews.txt")
    ap.add_argument("--lines", type=int, default=20000, help="lines for the per-call and batch figures")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--only", help=f"comma-separated subset of: {', '.join(NAMES)}")
    ap.add_argument("--no-optional", action="store_true", help="the native peer alone")
    args = ap.parse_args()
    names = [n for n in NAMES if not args.only or n in args.only.split(",")]
    python = sys.executable
    trees = [t.resolve() for t in args.trees]
    ours = [str(t) for t in trees]
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        files = _make_files(d, names)
        print(f"# {args.corpus.name}; load average {os.getloadavg()}; CPU time, best of {args.repeats}")
        print("| model | who | per call µs | batch µs | whole file CPU s | peak MB | ratios ours / peer |")
        print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
        for name, (path, pattern) in files.items():
            ways, left_out = _peer_ways(d, name)
            if args.no_optional:
                ways = {p: c for p, c in ways.items() if p in ("tiktoken", "sentencepiece")}
                left_out = []
            best: dict[tuple[str, str], list[float]] = {}  # (who, call) -> per call, batch, whole, MB
            wrong: dict[tuple[str, str], str] = {}
            ours_ids, ours_file, peer_ids = d / "ours-n.ids", d / "ours.ids", d / "peer.ids"
            whole_call: dict[str, str] = {}
            for repeat in range(args.repeats):
                for who in ours:
                    tree = Path(who)
                    calls = subprocess.run(
                        [python, "-c", _OURS, name, str(path), pattern, str(args.corpus), str(args.lines),
                         str(ours_ids) if repeat == 0 else "-"],
                        cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)), capture_output=True, text=True,
                        check=True,
                    )  # fmt: skip
                    line_us, batch_us = map(float, calls.stdout.split())
                    command = [python, "-m", "core.cli", "encode", "-m", str(path)]
                    command += ["--pattern", pattern] if pattern else []
                    command += ["--input", str(args.corpus), "--ids", "-q", "--workers", "1"]
                    with open(ours_file, "w") as out:
                        cpu, mb = _child_usage(command, tree, out)
                    old = best.get((who, ""), [float("inf")] * 4)
                    best[who, ""] = [min(a, b) for a, b in zip(old, (line_us, batch_us, cpu, mb))]
                for peer, calls_of in ways.items():
                    for call in calls_of:
                        if (peer, call) in wrong:
                            continue
                        run = subprocess.run(
                            [python, "-c", _PEER_CALL, _peers_name(name), str(d), str(args.corpus),
                             str(args.lines), peer, call, str(peer_ids) if repeat == 0 else "-", str(ROOT)],
                            cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                            text=True,
                        )  # fmt: skip
                        if run.returncode:
                            wrong[peer, call] = (
                                "failed: " + (run.stderr.strip().splitlines() or [""])[-1][:100]
                            )
                            continue
                        if repeat == 0 and peer_ids.read_bytes() != ours_ids.read_bytes():
                            line = _first_difference(peer_ids, ours_ids)
                            wrong[peer, call] = f"ids differ from ours (first at line {line}): not timed"
                            continue
                        us = float(run.stdout.split()[0])
                        old = best.get((peer, call), [float("inf")] * 4)
                        best[peer, call] = [min(old[0], us), *old[1:]]
                    timed = [(best[peer, c][0], c) for c in calls_of if (peer, c) in best]
                    if not timed or (peer, "file") in wrong:
                        continue
                    call = min(timed)[1]  # its fastest way this round, on the whole file
                    command = [python, "-c", _PEER_FILE, _peers_name(name), str(d), str(args.corpus), peer, call,
                               str(peer_ids), str(ROOT)]  # fmt: skip
                    cpu, mb = _child_usage(command, ROOT, subprocess.DEVNULL)
                    if peer_ids.read_bytes() != ours_file.read_bytes():
                        line = _first_difference(peer_ids, ours_file)
                        wrong[peer, "file"] = (
                            f"`{call}`: whole-file ids differ from ours (first at line {line})"
                        )
                        continue
                    old = best.get((peer, "file"), [float("inf")] * 4)
                    if cpu < old[2]:
                        whole_call[peer] = call
                    best[peer, "file"] = [*old[:2], min(old[2], cpu), min(old[3], mb)]
            _print_row(name, ours, ways, best, wrong, whole_call)
            for line in left_out:
                print(line, flush=True)
    print(f"# load average after: {os.getloadavg()}")
    return 0


def _print_row(name, ours, ways, best, wrong, whole_call) -> None:
    """The row's lines: ours (each checkout) against the native peer, then each peer with ours /
    it (the last checkout), and which call each peer column is."""
    inf = float("inf")
    rows = {}
    for peer, calls_of in ways.items():
        per_line = [c for c in calls_of if "per line" in c and (peer, c) in best]
        batch = sorted((best[peer, c][0], c) for c in calls_of if (peer, c) in best)
        whole = best.get((peer, "file"), [inf] * 4)
        line_us = best[peer, per_line[0]][0] if per_line else inf
        rows[peer] = [line_us, batch[0][0] if batch else inf, whole[2], whole[3]]
        for c in [*calls_of, "file"]:
            if (peer, c) in wrong:
                print(f"# {name}, {peer}" + (f" `{c}`" if c != "file" else "") + f": {wrong[peer, c]}")
        if batch:
            each = ", ".join(f"`{c}` {us:.1f} µs" for us, c in batch)
            print(f"# {name}, {peer}: {each}; whole file `{whole_call.get(peer, '-')}`")
    native = next(iter(ways), None)

    def cells(b: list[float]) -> str:
        return " | ".join("-" if x == inf else f"{x:.{k}f}" for x, k in zip(b, (1, 1, 2, 0)))

    def ratios(a: list[float], b: list[float]) -> str:
        return ", ".join(f"x{x / y:.2f}" if y < inf and x < inf else "-" for x, y in zip(a, b))

    for who in ours:
        b = best[who, ""]
        against = f"{ratios(b, rows[native])} of {native}" if native in rows else ""
        print(f"| {name} | ours, {Path(who).name} | {cells(b)} | {against} |", flush=True)
    last = best[ours[-1], ""]
    for peer, b in rows.items():
        if all(x == inf for x in b):
            print(f"| {name} | {peer} | not timed | | | | |", flush=True)
            continue
        print(f"| {name} | {peer} | {cells(b)} | {ratios(last, b)} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
