"""Benchmark: ``-a sentencepiece-bpe`` / ``-a sentencepiece-unigram`` against ``spm_train``, one thread.

    .venv/bin/python benchmarks/bench_sentencepiece_train.py                    # botchan, ja, ko 3 MB; 8k
    .venv/bin/python benchmarks/bench_sentencepiece_train.py --corpus en-botchan.txt --vocab 8000 --model bpe

Both sides train on the same temporary copy of each corpus (LF line ends, no byte-order mark,
optionally cut to ``--max-bytes``) with ``normalization_rule_name=identity``, spm_train's
defaults otherwise, and ``--num_threads=1``. Each training runs in its own subprocess; the
figure is that child's CPU time (user + sys, from ``os.wait4``), which for us includes reading
and counting the corpus. Then the parent loads both ``.model`` files in ``sentencepiece`` and
reports: whether the piece tables are identical (BPE: the first differing piece), the share of
spm_train's pieces we have too, and the total number of tokens each encodes the corpus into.

Nothing here is a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPORA = Path(os.environ.get("SUBWORD_SHARED", ROOT.parent / "shared")) / "corpora"

_SPM = """
import sys, sentencepiece as spm
spm.SentencePieceTrainer.train(input=sys.argv[1], model_prefix=sys.argv[2], vocab_size=int(sys.argv[3]),
    model_type=sys.argv[4], normalization_rule_name="identity", num_threads=1, minloglevel=2)
"""

_OURS = """
import sys
from core.cli import main
sys.exit(main(["train", "-a", "sentencepiece-" + sys.argv[4], "-v", sys.argv[3], "-o", sys.argv[2],
               "-q", "--workers", "1", sys.argv[1]]))
"""


def _run(code: str, args: list[str], env: dict | None = None) -> float:
    """CPU seconds (user + sys) of a child running ``code``."""
    proc = subprocess.Popen([sys.executable, "-c", code, *args], cwd=ROOT, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"child failed: {args}")
    return usage.ru_utime + usage.ru_stime


def _compare(spm_model: Path, our_model: Path, lines: list[str]) -> dict:
    import sentencepiece as spm

    a = spm.SentencePieceProcessor(model_file=str(spm_model))
    b = spm.SentencePieceProcessor(model_file=str(our_model))
    theirs = [a.id_to_piece(i) for i in range(a.get_piece_size())]
    mine = [b.id_to_piece(i) for i in range(b.get_piece_size())]
    first = next((i for i, (x, y) in enumerate(zip(theirs, mine)) if x != y), None)
    if first is None and len(theirs) != len(mine):
        first = min(len(theirs), len(mine))
    n_a = sum(len(ids) for ids in a.encode(lines))
    n_b = sum(len(ids) for ids in b.encode(lines))
    return {
        "identical": first is None,
        "first_difference": first,
        "overlap": len(set(theirs) & set(mine)) / len(theirs),
        "tokens_spm": n_a,
        "tokens_ours": n_b,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--corpus", action="append", help="file of ../shared/corpora (repeatable; default: all three)"
    )
    parser.add_argument("--vocab", type=int, default=8000)
    parser.add_argument("--model", action="append", choices=["bpe", "unigram"], help="default: both")
    parser.add_argument("--max-bytes", type=int, default=3_000_000, help="cut each corpus to this size")
    parser.add_argument(
        "--repeat",
        "--repeats",
        dest="repeat",
        type=int,
        default=1,
        help="run each side this many times, alternating; keep the best",
    )
    args = parser.parse_args()
    names = args.corpus or ["en-botchan.txt", "ja-wagahaiwa.txt", "ko-movie-reviews.txt"]
    models = args.model or ["bpe", "unigram"]
    print(
        "| corpus | model | vocab | spm_train CPU s | ours CPU s | ours / spm | pieces | overlap | tokens spm → ours |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        # subtle: with PYTHONDONTWRITEBYTECODE set (as in some shells) every child would compile
        # our sources again (~0.4 s); an installed package has its bytecode, so ours runs with a
        # bytecode cache of its own, filled by one training before the timed ones
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        warm = Path(tmp) / "warm.txt"
        warm.write_text("a warm up line\n" * 50, encoding="utf-8")
        _run(_OURS, [str(warm), str(Path(tmp) / "warm"), "40", "unigram"], env)
        for name in names:
            text = (CORPORA / name).read_text(encoding="utf-8-sig").replace("\r\n", "\n")
            data = text.encode("utf-8")[: args.max_bytes].decode("utf-8", "ignore")
            corpus = Path(tmp) / name
            corpus.write_text(data, encoding="utf-8")
            lines = data.split("\n")
            for model in models:
                prefix = Path(tmp) / f"spm-{model}"
                out = Path(tmp) / f"ours-{model}"
                t_spm = t_ours = float("inf")
                for _ in range(args.repeat):  # alternating, the best of each
                    t_spm = min(t_spm, _run(_SPM, [str(corpus), str(prefix), str(args.vocab), model]))
                    t_ours = min(t_ours, _run(_OURS, [str(corpus), str(out), str(args.vocab), model], env))
                r = _compare(Path(f"{prefix}.model"), out / "tokenizer.model", lines)
                same = "identical" if r["identical"] else f"differ at {r['first_difference']:,}"
                diff = (r["tokens_ours"] - r["tokens_spm"]) / r["tokens_spm"]
                print(
                    f"| {name} ({len(data.encode()):,} B) | {model} | {args.vocab:,} | {t_spm:.2f} | {t_ours:.2f} | "
                    f"x{t_ours / t_spm:.2f} | {same} | {r['overlap']:.2%} | "
                    f"{r['tokens_spm']:,} → {r['tokens_ours']:,} ({diff:+.2%}) |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
