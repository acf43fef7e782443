"""Benchmark: the whole report card (``core.measures.report``) for two 32k tokenizers, against
encoding the same corpus twice with `tokenizers` (one thread).

    .venv/bin/python benchmarks/bench_report.py
    .venv/bin/python benchmarks/bench_report.py --models a/tokenizer.json b/tokenizer.json

Issue 32 asks for the report in less time than `tokenizers` takes to encode the corpus once
per tokenizer. Without ``--models``, two 32,000-token tokenizers are trained with
`tokenizers` first (byte-level BPE, and WordPiece behind ``BertPreTokenizer``; one thread),
cached in ``--cache`` so a second run reuses them.

Each side runs in a subprocess of its own, one after the other, with the tokenizers loaded
and the corpus read before the clock starts:

- ours: ``drain(report({...}, lines))`` with its defaults: every measure, hygiene of both
  vocabularies and morphological alignment on 1,000 sampled lines (Kiwi's loading and
  analysis included: ``--alignment-lines 0`` leaves it out);
- tokenizers: ``Tokenizer.from_file`` for each, ``encode_batch`` of all lines in batches of
  1,024, ``RAYON_NUM_THREADS=1`` and ``TOKENIZERS_PARALLELISM=false``.

Wall and CPU time (``time.process_time`` of the child) are printed for each, with the ratios.
On a shared, loaded machine wall time inflates; CPU time much less. Nothing here is a test.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "ko-movie-reviews.txt"

TRAIN = """
import sys
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
corpus, kind, out = sys.argv[1], sys.argv[2], sys.argv[3]
if kind == "bytelevel-bpe":
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=32000, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
else:
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.decoder = decoders.WordPiece()
    trainer = trainers.WordPieceTrainer(vocab_size=32000, special_tokens=["[UNK]"], show_progress=False)
tok.train([corpus], trainer)
tok.save(out)
"""

OURS = """
import json, sys, time
from core.events import drain
from core.formats.detect import open_tokenizer
from core.measures import report
corpus, alignment = sys.argv[1], int(sys.argv[2])
models = sys.argv[3:]
with open(corpus, encoding="utf-8-sig") as f:
    lines = [line.removesuffix("\\n") for line in f]
tokenizers = {str(n): open_tokenizer(path).tokenizer for n, path in enumerate(models)}
wall, cpu = time.perf_counter(), time.process_time()
card = drain(report(tokenizers, lines, alignment_lines=alignment))
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(json.dumps({"wall": wall, "cpu": cpu, "tokens": [t.compression.tokens for t in card.tokenizers],
                  "language": card.language, "alignment_lines": card.alignment_lines}))
"""

PEER = """
import json, sys, time
from tokenizers import Tokenizer
corpus = sys.argv[1]
models = sys.argv[2:]
with open(corpus, encoding="utf-8-sig") as f:
    lines = [line.removesuffix("\\n") for line in f]
tokenizers = [Tokenizer.from_file(path) for path in models]
wall, cpu = time.perf_counter(), time.process_time()
tokens = []
for tok in tokenizers:
    n = 0
    for at in range(0, len(lines), 1024):
        n += sum(len(e.ids) for e in tok.encode_batch(lines[at : at + 1024], add_special_tokens=False))
    tokens.append(n)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(json.dumps({"wall": wall, "cpu": cpu, "tokens": tokens}))
"""


def _env() -> dict[str, str]:
    env = dict(os.environ, RAYON_NUM_THREADS="1", TOKENIZERS_PARALLELISM="false")
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _run(code: str, *args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=_env(), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        sys.exit(f"bench_report: a child failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _models(args: argparse.Namespace) -> list[str]:
    if args.models:
        return [str(p) for p in args.models]
    args.cache.mkdir(parents=True, exist_ok=True)
    paths = []
    for kind in ("bytelevel-bpe", "wordpiece"):
        path = args.cache / f"{args.corpus.stem}-{kind}-32k.json"
        if not path.exists():
            print(f"training {kind} (32k) with tokenizers into {path} ...", file=sys.stderr)
            subprocess.run(
                [sys.executable, "-c", TRAIN, str(args.corpus), kind, str(path)], env=_env(), check=True
            )
        paths.append(str(path))
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--models", type=Path, nargs=2, help="two tokenizer.json files (default: train them)")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "subword-bench-report")
    parser.add_argument("--alignment-lines", type=int, default=1000)
    args = parser.parse_args()
    models = _models(args)
    ours = _run(OURS, str(args.corpus), str(args.alignment_lines), *models)
    peer = _run(PEER, str(args.corpus), *models)
    same = ours["tokens"] == peer["tokens"]
    print(f"corpus: {args.corpus} ({args.corpus.stat().st_size / 1e6:.1f} MB); models: {', '.join(models)}")
    print(f"{'':40} {'wall s':>8} {'cpu s':>8}")
    print(f"{'report card (ours, every measure)':40} {ours['wall']:8.2f} {ours['cpu']:8.2f}")
    print(f"{'tokenizers: encode twice, one thread':40} {peer['wall']:8.2f} {peer['cpu']:8.2f}")
    print(
        f"{'ratio ours / tokenizers':40} {ours['wall'] / peer['wall']:8.2f} {ours['cpu'] / peer['cpu']:8.2f}"
    )
    print(
        f"alignment: {ours['language']} on {ours['alignment_lines']:,} lines; "
        f"token counts {'equal' if same else 'DIFFER'}: ours {ours['tokens']}, tokenizers {peer['tokens']}"
    )


if __name__ == "__main__":
    main()
