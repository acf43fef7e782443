"""Benchmark: Unigram training, ours vs SentencePiece vs `tokenizers`, in one run.

    .venv/bin/python benchmarks/bench_unigram_train.py                       # ja + ko, vocab 8000
    .venv/bin/python benchmarks/bench_unigram_train.py --corpus ja-wagahaiwa.txt --tokenizers-timeout 600

Matching settings for all three: identity normalization, "▁" for spaces and a
"▁" before each line, split on spaces, every character kept (SentencePiece:
``character_coverage=1.0``), pieces of at most 16 characters, shrinking factor
0.75, 2 EM sub-iterations, ``<unk>`` the one special token (SentencePiece: no
``<s>``/``</s>``), one thread. SentencePiece's Unicode-script and digit rules
are switched off (we do not have them) and its line-length limit raised so it
sees every line. Each corpus is first rewritten to a temporary UTF-8 file with
LF line ends and no BOM, which all three read.

Each implementation runs in its own subprocess; with ``--repeat N`` they alternate N times
and the ratios are of the medians. Run it once before measuring so numba's compiled kernels
are cached (the very first call on a machine compiles them: a few seconds more). ``train s`` is measured inside
the child around reading + counting + training; ``peak MB`` is the child's peak
RSS (``getrusage``) at the end of training, before it counts tokens (``whole`` is the peak of
the child's whole life, token count included, from ``os.wait4``). After timing, each child encodes the corpus with its model
and reports the total number of tokens (the quality figure: fewer is better
compression at the same vocab size). A child past its timeout is reported as
``> N s``.

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
CORPORA = ROOT.parent / "shared" / "corpora"
DEFAULT_CORPORA = ["ja-wagahaiwa.txt", "ko-movie-reviews.txt"]

OURS = """
import json, resource, sys, time
from core.events import drain
from core.options import TrainOptions, pre_tokenize_lines
from core.models.unigram.trainer import train_unigram
path, vocab_size = sys.argv[1], int(sys.argv[2])
t0 = time.perf_counter()
opts = TrainOptions("unigram", vocab_size=vocab_size, special_tokens=["<unk>"],
                    extra={"max_piece_length": 16, "shrinking_factor": 0.75})
with open(path, encoding="utf-8", newline="\\n") as f:  # streamed, as a user's file would be
    counts = pre_tokenize_lines((line.rstrip("\\n") for line in f), opts)
t1 = time.perf_counter()
model = drain(train_unigram(counts, opts))
t2 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
tokens = sum(c * len(model.tokenize(w)) for w, c in counts.items())
print(json.dumps({"train": t2 - t0, "vocab": model.vocab_size, "tokens": tokens, "train_peak_mb": peak,
                  "detail": f"count {t1 - t0:.1f} s + train {t2 - t1:.1f} s"}))
"""

SENTENCEPIECE = """
import json, resource, sys, time, tempfile, os
import sentencepiece as spm
path, vocab_size = sys.argv[1], int(sys.argv[2])
prefix = os.path.join(tempfile.mkdtemp(), "m")
t0 = time.perf_counter()
spm.SentencePieceTrainer.train(
    input=path, model_prefix=prefix, vocab_size=vocab_size, model_type="unigram",
    normalization_rule_name="identity", num_threads=1, character_coverage=1.0,
    unk_id=0, bos_id=-1, eos_id=-1, max_sentencepiece_length=16, shrinking_factor=0.75,
    num_sub_iterations=2, split_by_unicode_script=False, split_by_number=False,
    max_sentence_length=1 << 20, add_dummy_prefix=True, remove_extra_whitespaces=False,
    input_sentence_size=0, minloglevel=2)
t1 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
sp = spm.SentencePieceProcessor(model_file=prefix + ".model")
with open(path, encoding="utf-8") as f:
    tokens = sum(len(sp.encode(line)) for line in f.read().splitlines())
print(json.dumps({"train": t1 - t0, "vocab": sp.get_piece_size(), "tokens": tokens, "train_peak_mb": peak,
                  "detail": ""}))
"""

TOKENIZERS = """
import json, resource, sys, time
from tokenizers import Tokenizer, models, pre_tokenizers, trainers
path, vocab_size = sys.argv[1], int(sys.argv[2])
t0 = time.perf_counter()
tok = Tokenizer(models.Unigram())
tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always", split=True)
trainer = trainers.UnigramTrainer(vocab_size=vocab_size, special_tokens=["<unk>"], unk_token="<unk>",
                                  max_piece_length=16, shrinking_factor=0.75, n_sub_iterations=2,
                                  show_progress=False)
tok.train([path], trainer=trainer)
t1 = time.perf_counter()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
with open(path, encoding="utf-8") as f:
    lines = f.read().splitlines()
tokens = sum(len(e.ids) for e in tok.encode_batch(lines))
print(json.dumps({"train": t1 - t0, "vocab": tok.get_vocab_size(), "tokens": tokens, "train_peak_mb": peak,
                  "detail": ""}))
"""


def run_child(code: str, args: list[str], timeout: float) -> dict:
    """Run ``code`` in a fresh interpreter; return its JSON line plus wall time and peak RSS."""
    env = dict(os.environ, RAYON_NUM_THREADS="1", PYTHONPATH=str(ROOT))
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT
    )
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            return {"timeout": timeout}
        time.sleep(0.2)
    wall = time.perf_counter() - start
    out = proc.stdout.read().decode()
    if os.waitstatus_to_exitcode(status) != 0 or not out.strip():
        return {"error": proc.stderr.read().decode().strip().splitlines()[-1:]}
    result = json.loads(out.strip().splitlines()[-1])
    result["wall"] = wall
    result["peak_mb"] = result.pop("train_peak_mb")  # up to the end of training, before the token count
    result["whole_peak_mb"] = usage.ru_maxrss / 1024
    return result


def clean_copy(src: Path, directory: Path, head_bytes: int = 0) -> Path:
    """The corpus as UTF-8 with LF line ends and no BOM, so every implementation reads the same text.

    With ``head_bytes``, only the whole lines within the file's first ``head_bytes`` bytes
    (``--head-mb 8`` on ``ko-movie-reviews.txt``: its first 8,000,000 bytes, about 92,000 reviews).
    """
    lines = src.read_text(encoding="utf-8-sig").splitlines()
    if head_bytes:
        kept, size = [], 0
        for line in lines:
            size += len(line.encode("utf-8")) + 1
            if size > head_bytes:
                break
            kept.append(line)
        lines = kept
    dst = directory / (f"{src.stem}-first-{head_bytes / 1e6:g}MB{src.suffix}" if head_bytes else src.name)
    dst.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")
    return dst


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", action="append", help="file name in ../shared/corpora or a path (repeatable)")
    ap.add_argument("--vocab-size", type=int, default=8000)
    ap.add_argument("--timeout", type=float, default=1800, help="per implementation, seconds")
    ap.add_argument("--tokenizers-timeout", type=float, default=1800)
    ap.add_argument("--skip-tokenizers", action="store_true")
    ap.add_argument("--repeat", type=int, default=1, help="alternating runs per implementation; medians")
    ap.add_argument(
        "--head-mb",
        type=float,
        default=0,
        help="use only the corpus's first N MB (UTF-8 bytes, cut after the last whole line)",
    )
    args = ap.parse_args()
    names = args.corpus or DEFAULT_CORPORA
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            src = Path(name) if Path(name).exists() else CORPORA / name
            path = clean_copy(src, Path(tmp), int(args.head_mb * 1e6))
            print(
                f"\n== {path.name}  ({path.stat().st_size / 1e6:.1f} MB), vocab {args.vocab_size}, "
                f"load average {os.getloadavg()[0]:.2f}",
                flush=True,
            )
            runs = [("ours", OURS, args.timeout), ("sentencepiece", SENTENCEPIECE, args.timeout)]
            if not args.skip_tokenizers:
                runs.append(("tokenizers", TOKENIZERS, args.tokenizers_timeout))
            results: dict[str, list[dict]] = {}
            for _ in range(args.repeat):  # alternating: ours, the peers, ours, the peers, ...
                for label, code, timeout in runs:
                    r = run_child(code, [str(path), str(args.vocab_size)], timeout)
                    results.setdefault(label, []).append(r)
                    if "timeout" in r:
                        print(f"{label:14s}  > {timeout:.0f} s (stopped)", flush=True)
                    elif "error" in r:
                        print(f"{label:14s}  failed: {r['error']}", flush=True)
                    else:
                        print(
                            f"{label:14s}  train {r['train']:7.1f} s  wall {r['wall']:7.1f} s  "
                            f"peak {r['peak_mb']:6.0f} MB (whole {r['whole_peak_mb']:.0f})  vocab {r['vocab']}  tokens {r['tokens']:,}  "
                            f"{r['detail']}  (load {os.getloadavg()[0]:.2f})",
                            flush=True,
                        )
            medians = {label: _median(rs) for label, rs in results.items()}
            ours = medians.get("ours", {})
            for label in ("sentencepiece", "tokenizers"):
                peer = medians.get(label, {})
                if "train" in ours and "train" in peer:
                    print(
                        f"ours / {label} (medians of {args.repeat}): time x{ours['train'] / peer['train']:.2f} "
                        f"({ours['train']:.1f} s / {peer['train']:.1f} s), peak memory "
                        f"x{ours['peak_mb'] / peer['peak_mb']:.2f} ({ours['peak_mb']:.0f} MB / "
                        f"{peer['peak_mb']:.0f} MB), tokens {100 * (ours['tokens'] / peer['tokens'] - 1):+.2f} %",
                        flush=True,
                    )
                elif "train" in ours and "timeout" in peer:
                    print(f"ours / {label}: time < x{ours['train'] / peer['timeout']:.2f} ({label} stopped)")


def _median(runs: list[dict]) -> dict:
    """Median train time and peak memory of the finished runs (tokens: the same every run)."""
    done = [r for r in runs if "train" in r]
    if not done:
        return runs[-1]
    return {
        "train": statistics.median(r["train"] for r in done),
        "peak_mb": statistics.median(r["peak_mb"] for r in done),
        "tokens": done[-1]["tokens"],
    }


if __name__ == "__main__":
    main()
