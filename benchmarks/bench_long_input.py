"""Benchmark: is encoding linear in the length of one word? Ours vs the peers, 100 KB vs 1 MB.

    .venv/bin/python benchmarks/bench_long_input.py
    .venv/bin/python benchmarks/bench_long_input.py --sizes 100000,1000000 --train-sizes 200000,2000000

The word is the letters of ``ko-movie-reviews.txt`` with everything else removed (no space,
digit or punctuation, so every pre-tokenizer leaves it whole), cut to each size in UTF-8 bytes.
Models are trained in the run on the corpus's first 20,000 lines (vocab 8000):

- ``bpe``: a BPE ``tokenizer.json`` (Whitespace), ours vs `tokenizers` (one thread);
- ``tiktoken-gpt2``: a GPT-2-shaped rank file (byte-level BPE ranks, the GPT-2 split), ours vs tiktoken;
- ``sp-bpe``: a SentencePiece BPE ``.model`` with byte fallback, ours vs sentencepiece;
- ``unigram``: a Unigram ``tokenizer.json`` (NFKC, Metaspace), ours vs `tokenizers` (one thread);
- ``sp-unigram``: a SentencePiece unigram ``.model``, ours vs sentencepiece.

The peers are called on the one word as their own single-input call (named in the output):
`tokenizers` ``encode(word).ids`` (a batch of one is the same work), tiktoken
``encode_ordinary(word)``, sentencepiece ``encode(word)``.

Each encode is timed once per size (ids checked equal first; ours both as ``encode`` and
``encode_ids``), after one short encode of each model so that compiled kernels are loaded
(numba); the last column is time(1 MB) / time(100 KB): about 10 means linear.
``--only bpe,unigram`` times a subset.

``--train-sizes`` also times our Unigram trainer (vocab 8000, no pre-tokenizer; wall and CPU
seconds) on one unspaced line of each size in characters, of three kinds: low-variety text (random letters from a 30-letter
set, seeded), the case that used to stall after counting; real Korean (the letters of the corpus,
as for the long word: about 7 million characters, never repeated); and real Japanese
(``ja-wagahaiwa.txt`` without its line ends and spaces, about 370,000 characters: sizes beyond it
are skipped, since a repeated text makes every substring frequent and is not real text). It
reports the time, the longest wait between two progress events, and time(largest) /
time(smallest).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ["RAYON_NUM_THREADS"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
MODELS = ["bpe", "tiktoken-gpt2", "sp-bpe", "unigram", "sp-unigram"]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpora" / "ko-movie-reviews.txt"
CALLS: dict[str, str] = {}  # model -> the peer call timed, as printed


def _word(text: str, size: int) -> str:
    """The first letters of ``text`` making ``size`` UTF-8 bytes (about)."""
    import regex

    letters = "".join(regex.findall(r"\p{L}+", text))
    while len(letters.encode("utf-8")) < size:
        letters += letters
    return letters.encode("utf-8")[:size].decode("utf-8", errors="ignore")


def _models(d: Path, corpus: Path, names: set[str]):
    """name -> (ours, peer ids function), for the models in ``names``."""
    import sentencepiece as spm
    import tiktoken
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    from core.bytelevel import CHAR_TO_BYTE
    from core.formats.hf_json import load_tokenizer_json
    from core.formats.sentencepiece_model import load_sentencepiece
    from core.formats.tiktoken_ranks import load_tiktoken, write_ranks
    from core.pre_tokenizers import TIKTOKEN_PATTERNS

    out = {}
    if "bpe" in names:
        hf = Tokenizer(models.BPE(unk_token="[UNK]"))
        hf.pre_tokenizer = pre_tokenizers.Whitespace()
        hf.train(
            [str(corpus)],
            trainers.BpeTrainer(vocab_size=8000, special_tokens=["[UNK]"], show_progress=False),
        )
        hf.save(str(d / "bpe.json"))
        out["bpe"] = (load_tokenizer_json(d / "bpe.json"), lambda s, hf=hf: hf.encode(s).ids)
        CALLS["bpe"] = "tokenizers encode(word).ids"
    if "tiktoken-gpt2" in names:
        bl = Tokenizer(models.BPE())
        bl.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        alphabet = pre_tokenizers.ByteLevel.alphabet()
        bl.train(
            [str(corpus)],
            trainers.BpeTrainer(vocab_size=8000, initial_alphabet=alphabet, show_progress=False),
        )
        ranks = {bytes(CHAR_TO_BYTE[c] for c in t): i for t, i in bl.get_vocab().items()}
        write_ranks(ranks, d / "ranks.tiktoken")
        enc = tiktoken.Encoding(
            "gpt2-shaped", pat_str=TIKTOKEN_PATTERNS["gpt2"], mergeable_ranks=ranks, special_tokens={}
        )
        out["tiktoken-gpt2"] = (load_tiktoken(d / "ranks.tiktoken", "gpt2"), enc.encode_ordinary)
        CALLS["tiktoken-gpt2"] = "tiktoken encode_ordinary(word)"
    if "sp-bpe" in names:
        spm.SentencePieceTrainer.train(
            input=str(corpus),
            model_prefix=str(d / "sp"),
            vocab_size=8000,
            model_type="bpe",
            byte_fallback=True,
            minloglevel=2,
            num_threads=1,
        )
        sp = spm.SentencePieceProcessor(model_file=str(d / "sp.model"))
        out["sp-bpe"] = (load_sentencepiece(d / "sp.model"), sp.encode)
        CALLS["sp-bpe"] = "sentencepiece encode(word)"
    if "unigram" in names:
        uni = Tokenizer(models.Unigram())
        uni.normalizer = normalizers.NFKC()
        uni.pre_tokenizer = pre_tokenizers.Metaspace()
        uni.train(
            [str(corpus)],
            trainers.UnigramTrainer(
                vocab_size=8000, special_tokens=["<unk>"], unk_token="<unk>", show_progress=False
            ),
        )
        uni.save(str(d / "unigram.json"))
        out["unigram"] = (load_tokenizer_json(d / "unigram.json"), lambda s, uni=uni: uni.encode(s).ids)
        CALLS["unigram"] = "tokenizers encode(word).ids"
    if "sp-unigram" in names:
        spm.SentencePieceTrainer.train(
            input=str(corpus),
            model_prefix=str(d / "sp-unigram"),
            vocab_size=8000,
            model_type="unigram",
            minloglevel=2,
            num_threads=1,
        )
        sp_uni = spm.SentencePieceProcessor(model_file=str(d / "sp-unigram.model"))
        out["sp-unigram"] = (load_sentencepiece(d / "sp-unigram.model"), sp_uni.encode)
        CALLS["sp-unigram"] = "sentencepiece encode(word)"
    return out


def _time(fn, arg) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn(arg)
    return time.perf_counter() - start, result


def _unspaced_line(kind: str, size: int, korean: str) -> str | None:
    """``size`` characters of one kind of unspaced text, or None if the real text is shorter."""
    if kind == "low-variety":
        rng = random.Random(size)
        letters = "abcdefghijklmnopqrstuvwxyzàéîõ"
        return "".join(rng.choice(letters) for _ in range(size))
    if kind == "Korean":
        text = korean
    else:
        text = "".join(
            (ROOT.parent / "shared" / "corpora" / "ja-wagahaiwa.txt").read_text(encoding="utf-8").split()
        )
    return text[:size] if len(text) >= size else None


def _train_unigram(line: str) -> tuple[float, float, float]:
    """(seconds, CPU seconds, longest wait between two events) to train on one line.

    The CPU time is this process's: on a machine shared with other jobs, the wall time grows
    with their load and the CPU time far less (it still grows with the cache they take)."""
    from core.events import drain
    from core.options import TrainOptions
    from core.training import train_from_counts

    options = TrainOptions("unigram", vocab_size=8000, pre_tokenizer="none")
    cpu = time.process_time()
    start = last = time.perf_counter()
    longest = 0.0

    def on_event(_event: object) -> None:
        nonlocal last, longest
        now = time.perf_counter()
        longest, last = max(longest, now - last), now

    drain(train_from_counts({line: 1}, options), on_event)
    return time.perf_counter() - start, time.process_time() - cpu, longest


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--sizes", default="100000,1000000", help="word sizes in UTF-8 bytes")
    ap.add_argument(
        "--train-sizes", default="", help="Unigram training sizes in characters (none by default)"
    )
    ap.add_argument(
        "--only", help="comma-separated subset of: bpe, tiktoken-gpt2, sp-bpe, unigram, sp-unigram"
    )
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]  # --sizes "" times training only
    text = args.corpus.read_text(encoding="utf-8")
    lines = text.splitlines()[:20000]
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        corpus = d / "corpus.txt"
        corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
        names = args.only.split(",") if args.only else MODELS
        models = _models(d, corpus, set(names)) if sizes else {}
        print(
            "| model | peer call | word | peer s | ours `encode_ids` s | ours `encode` s | ours/peer (ids) |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- |")
        times: dict[str, list[tuple[float, float, float]]] = {}
        for name, (ours, peer) in models.items():
            ours.encode_ids("워밍업")  # loads compiled kernels (numba) before any timing
            for size in sizes:
                word = _word(text, size)
                t_peer, want = _time(peer, word)
                t_ids, got = _time(ours.encode_ids, word)
                t_enc, enc = _time(ours.encode, word)
                if got != want or enc.ids != want:
                    first = next((k for k, (a, b) in enumerate(zip(want, got)) if a != b), None)
                    print(
                        f"{name} {size}: ids differ (from id {first} of {len(want)}); not reported",
                        flush=True,
                    )
                    continue
                times.setdefault(name, []).append((t_peer, t_ids, t_enc))
                print(
                    f"| {name} | `{CALLS[name]}` | {size / 1000:,.0f} KB | {t_peer:.2f} | {t_ids:.2f} | {t_enc:.2f} |"
                    f" x{t_ids / t_peer:.1f} |",
                    flush=True,
                )
        if len(sizes) == 2:
            print()
            print(
                f"time({sizes[1] // 1000:,} KB) / time({sizes[0] // 1000:,} KB): linear is about {sizes[1] / sizes[0]:.0f}"
            )
            for name, ((p0, i0, e0), (p1, i1, e1)) in ((n, t) for n, t in times.items() if len(t) == 2):
                print(
                    f"  {name:<14} peer {p1 / p0:5.1f}   ours encode_ids {i1 / i0:5.1f}   ours encode {e1 / e0:5.1f}"
                )
    train_sizes = [int(s) for s in args.train_sizes.split(",") if s]
    if train_sizes:
        _train_unigram(_unspaced_line("low-variety", 2000, "") or "")  # warm-up: loads numba's kernels
    import regex

    korean = "".join(regex.findall(r"\p{L}+", text)) if train_sizes else ""
    for kind in ("low-variety", "Korean", "Japanese"):
        seconds, cpu_seconds = [], []
        for size in train_sizes:
            line = _unspaced_line(kind, size, korean)
            if line is None:
                print(f"Unigram training, {kind}: {size:,} characters skipped (the text is shorter)")
                continue
            took, cpu, longest = _train_unigram(line)
            seconds.append(took)
            cpu_seconds.append(cpu)
            print(
                f"Unigram training, one unspaced line of {size:,} {kind} characters: {took:.1f} s "
                f"({cpu:.1f} s CPU; longest wait between progress events {longest:.2f} s)",
                flush=True,
            )
        if len(seconds) == len(train_sizes) >= 2:
            print(
                f"  {kind}: time ratio {seconds[-1] / seconds[0]:.1f} (CPU {cpu_seconds[-1] / cpu_seconds[0]:.1f}) "
                f"for {train_sizes[-1] / train_sizes[0]:.0f}x the characters "
                f"(linear is about {train_sizes[-1] / train_sizes[0]:.0f})",
                flush=True,
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
