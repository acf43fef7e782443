"""Benchmark: ``encode`` one line at a time on a fresh tokenizer, ours vs `tokenizers`, in one process.

    .venv/bin/python benchmarks/bench_encode_per_line.py                       # the four tokenizer.json files
    .venv/bin/python benchmarks/bench_encode_per_line.py --only wordpiece --passes 9

`bench_encode.py` times each way once per pass among many others, and the peer's per-line speed
moved more between its runs than ours (WordPiece 1.77–2.69 MB/s on one idle afternoon). This one
does only that: the same models (``bench_encode._make_files``, trained in the run on the corpus's
first ``--lines`` lines), then ``--passes`` times, alternating, a fresh tokenizer of ours and of
`tokenizers` (one thread) each encode every line (``encode(line).ids``, the ids kept), timed with
``perf_counter``. Reported: each pass's microseconds a line, the best of each and their ratio; and,
for reference, `tokenizers`' other one-thread way, ``encode_batch(lines)`` with
``RAYON_NUM_THREADS=1`` (each encoding's ids read), per line of the batch. The optional peers
that read ``tokenizer.json`` (``benchmarks/peers.py``: kitoken, fastokens; ``pip install -e
".[bench-peers]"``) are timed the same way, their ``encode(line)`` per line in the same passes,
where installed ("not installed" otherwise) and where their ids equal ours on every line.
The ids are checked equal on every line first (which also loads our compiled kernels). Nothing
here is a test: the figures depend on the machine and its load, printed beside them.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import bench_encode  # sets one thread for the peers before they are imported

TOKENIZER_JSON = bench_encode.TOKENIZER_JSON


def _pass(make, encode_of, lines: list[str]) -> float:
    """Microseconds a line for one pass of a fresh tokenizer over ``lines``."""
    encode = encode_of(make())
    start = time.perf_counter()
    [encode(line) for line in lines]
    return (time.perf_counter() - start) / len(lines) * 1e6


def _batch_pass(tok, lines: list[str]) -> float:
    """Microseconds a line for `tokenizers`' ``encode_batch`` over ``lines``, each encoding's ids read."""
    start = time.perf_counter()
    [e.ids for e in tok.encode_batch(lines, add_special_tokens=False)]
    return (time.perf_counter() - start) / len(lines) * 1e6


def _optional_peers(d: Path, name: str, want: list[list[int]], lines: list[str]) -> dict:
    """The optional peers' per-line ways for ``name`` whose ids equal ``want``: ``{peer: way}``;
    prints a line for each one left out."""
    import peers

    found = {}
    for peer in peers.OPTIONAL:
        if not peers.installed(peer):
            print(f"{name:<14} {peer}: not installed", flush=True)
            continue
        ways = [w for w in peers.optional_ways(d, name, peer) if "per line" in w.call]
        if not ways:
            print(f"{name:<14} {peer}: does not read this kind of file", flush=True)
            continue
        try:
            got = ways[0].make()(lines)
        except Exception as error:  # a construct of the file it lacks
            print(f"{name:<14} {peer}: cannot read the file ({str(error)[:80]})", flush=True)
            continue
        bad = sum(a != b for a, b in zip(want, got))
        if bad:
            print(f"{name:<14} {peer} `{ways[0].call}`: ids differ on {bad} lines; not timed", flush=True)
            continue
        found[peer] = ways[0]
    return found


def _way_pass(way, lines: list[str]) -> float:
    """Microseconds a line for one pass of a fresh copy of an optional peer's per-line way."""
    encode = way.make()
    start = time.perf_counter()
    encode(lines)
    return (time.perf_counter() - start) / len(lines) * 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=bench_encode.DEFAULT_CORPUS)
    ap.add_argument("--lines", type=int, default=20000, help="train on and encode the first N lines")
    ap.add_argument("--vocab-size", type=int, default=8000)
    ap.add_argument("--passes", type=int, default=5, help="timed passes of each, alternating")
    ap.add_argument("--only", help=f"comma-separated subset of: {', '.join(TOKENIZER_JSON)}")
    args = ap.parse_args()
    names = [n for n in TOKENIZER_JSON if not args.only or n in args.only.split(",")]
    lines = args.corpus.read_text(encoding="utf-8-sig").splitlines()[: args.lines]
    print(f"corpus {args.corpus.name}: {len(lines):,} lines; vocab {args.vocab_size}")
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    from core.formats.hf_json import load_tokenizer_json

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        corpus = d / "corpus.txt"
        corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
        bench_encode._make_files(d, corpus, args.vocab_size, set(names))
        for name in names:
            path = d / f"{name}.json"
            ours = (lambda p=path: load_tokenizer_json(p), lambda tok: lambda s: tok.encode(s).ids)
            peer = (
                lambda n=name: bench_encode._peer_tokenizer(d, n),
                lambda tok: lambda s: tok.encode(s, add_special_tokens=False).ids,
            )
            encode_peer, encode_ours = peer[1](peer[0]()), ours[1](ours[0]())
            want = [encode_peer(line) for line in lines]
            got = [encode_ours(line) for line in lines]
            bad = sum(a != b for a, b in zip(want, got))
            if bad:
                print(f"{name}: ids differ on {bad} lines; not timed", flush=True)
                continue
            optional = _optional_peers(d, name, want, lines)
            times: dict[str, list[float]] = {"ours": [], "peer": [], "peer batch": []}
            times |= {p: [] for p in optional}
            for _ in range(args.passes):
                times["ours"].append(_pass(*ours, lines))
                times["peer"].append(_pass(*peer, lines))
                times["peer batch"].append(_batch_pass(bench_encode._peer_tokenizer(d, name), lines))
                for p, way in optional.items():
                    times[p].append(_way_pass(way, lines))
            best = {k: min(v) for k, v in times.items()}
            print(
                f"{name:<14} best ours {best['ours']:.1f} µs a line, peer {best['peer']:.1f}:"
                f" x{best['ours'] / best['peer']:.2f}   (ours {[round(t, 1) for t in times['ours']]},"
                f" peer {[round(t, 1) for t in times['peer']]})",
                flush=True,
            )
            print(
                f"{'':<14} peer: tokenizers `encode(line, add_special_tokens=False).ids` per line;"
                f" its `encode_batch(lines)`, RAYON_NUM_THREADS=1: {best['peer batch']:.1f} µs a line"
                f" (ours per line x{best['ours'] / best['peer batch']:.2f})",
                flush=True,
            )
            for p, way in optional.items():
                print(
                    f"{'':<14} {p} `{way.call}`: {best[p]:.1f} µs a line (ours x{best['ours'] / best[p]:.2f})",
                    flush=True,
                )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
