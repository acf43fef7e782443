"""The ``subword`` command line: train a tokenizer on files, encode text with it.

    $ subword train reviews.txt --algorithm bpe --vocab-size 8000 --output out/
    $ subword encode --model out/ "철수는 치킨을 먹고"
    $ subword encode --model out/ --input lines.txt --json
    $ subword evaluate -m out/ -m other/ --corpus reviews.txt --html card.html

Layout, so a new subcommand or option is a small edit:

- one ``_cmd_<name>(args) -> int`` per subcommand, registered in :data:`SUBCOMMANDS`
  with the function that adds its arguments;
- ``_add_train_options(parser)`` holds the options every algorithm shares;
  algorithm-specific flags go in ``_add_algorithm_options(parser)`` and are
  collected into ``TrainOptions.extra`` by ``_extra_options(args)``;
- ``_save_outputs(tokenizer, directory)`` writes the trained files.

Errors are one line on stderr (``subword: error: ...``) and exit status 1;
never a traceback. The progress bar goes to stderr; results to stdout.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from core import __version__
from core.errors import ConfigError, FormatError, SubwordError
from core.events import MergeEvent, Progress, StageStarted, TokenRemoved, TrainingStopped, Warning_, drain
from core.models.factory import TRAINERS
from core.options import TrainOptions

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130


# -- progress on stderr ----------------------------------------------------------


class ProgressBar:
    """Draws engine events on stderr: one bar per phase, redrawn at most 10 times a second.

    On a terminal the bar is redrawn in place; otherwise only each phase's end is printed.
    """

    WIDTH = 30

    def __init__(self, stream=None, enabled: bool = True, target: int | None = None):
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.target = target  # requested vocabulary size, for the merge phase
        self.phase: str | None = None
        self.last_draw = 0.0
        self.last_line = ""
        self.removed = 0  # tokens a PickyBPE run removed

    def __call__(self, event) -> None:
        if type(event) is MergeEvent:  # (one per merge: thousands a second, so tested first)
            if self.enabled:
                self._show("merges", event.vocab_size, self.target or event.vocab_size, "tokens")
            return
        if isinstance(event, Warning_):
            self._finish_line()
            print(f"subword: warning: {event.message}", file=self.stream)
        elif isinstance(event, TokenRemoved):  # PickyBPE's deletions are the train log's lines
            self.removed += 1
            if self.enabled:
                self._finish_line()
                print(
                    f"merge {event.step:,}: removed {event.token!r} (IoS {event.ios:.3f}), "
                    f"split into {' '.join(map(repr, event.parts))}",
                    file=self.stream,
                )
        elif isinstance(event, TrainingStopped) and event.vocab_size > event.requested_vocab_size:
            # subtle: a result larger than asked for (the alphabet alone is bigger) is a
            # surprise, so it is a warning that --quiet does not hide
            self.close()
            print(
                f"subword: warning: {event.reason}; the result has {event.vocab_size:,} tokens, "
                f"not the {event.requested_vocab_size:,} asked for",
                file=self.stream,
            )
        elif not self.enabled:
            return
        elif isinstance(event, Progress):
            self._show(event.phase, event.done, event.total, _unit(event.phase))
        elif isinstance(event, MergeEvent):  # (a subclass)
            self._show("merges", event.vocab_size, self.target or event.vocab_size, "tokens")
        elif isinstance(event, StageStarted) and event.stage > 1:
            self.close()
            print(
                f"stage {event.stage}: {event.description} (from {event.vocab_size:,} tokens)",
                file=self.stream,
            )
        elif isinstance(event, TrainingStopped):
            self.close()
            removed = f"; {self.removed:,} tokens removed on the way" if self.removed else ""
            print(
                f"stopped: {event.reason} ({event.vocab_size:,} of {event.requested_vocab_size:,} tokens{removed})",
                file=self.stream,
            )

    def _show(self, phase: str, done: int, total: int, unit: str) -> None:
        if phase != self.phase:
            self.close()
            self.phase = phase
        now = time.monotonic()
        final = total and done >= total
        if not final and now - self.last_draw < 0.1:
            return
        self.last_draw = now
        frac = min(done / total, 1.0) if total else 0.0
        filled = int(frac * self.WIDTH)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.last_line = f"{phase:<15} [{bar}] {frac:6.1%} {_amount(done, unit)} / {_amount(total, unit)}"
        if self.tty:
            self.stream.write("\r" + self.last_line)
            self.stream.flush()

    def _finish_line(self) -> None:
        if self.tty and self.last_line:
            self.stream.write("\n")
            self.stream.flush()
            self.last_line = ""

    def close(self) -> None:
        if self.phase is not None and self.last_line:
            if self.tty:
                self.stream.write("\n")
            else:
                print(self.last_line, file=self.stream)
            self.stream.flush()
        self.phase = None
        self.last_line = ""


def _unit(phase: str) -> str:
    return "bytes" if phase in ("count", "read", "encode") else "items"


def _amount(n: int, unit: str) -> str:
    if unit == "bytes":
        for suffix in ("B", "KB", "MB", "GB"):
            if n < 1024 or suffix == "GB":
                return f"{n:.0f} {suffix}" if suffix == "B" else f"{n:.1f} {suffix}"
            n /= 1024
    return f"{n:,}"


# -- train ----------------------------------------------------------------------------


def _add_train_options(p: argparse.ArgumentParser) -> None:
    """Options every algorithm shares."""
    p.add_argument("corpus", nargs="+", type=Path, help="text files (or word-count files with --counts)")
    p.add_argument("--algorithm", "-a", default="bpe", choices=list(TRAINERS), help="default: bpe")
    p.add_argument(
        "--vocab-size",
        "-v",
        type=int,
        required=True,
        help="tokens in the result, special tokens and alphabet included",
    )
    p.add_argument("--output", "-o", type=Path, required=True, help="directory to write the files into")
    p.add_argument(
        "--pre-tokenizer",
        help="whitespace, whitespace-split, bert, gpt2, bytelevel, metaspace, none, "
        "ko-morph (Korean morphemes, kiwipiepy), ja-morph (Japanese morphemes, SudachiPy); "
        "superbpe: its stage-2 split rule, superbpe (numbers, punctuation runs, extra spaces) or "
        "superbpe-unsplit (none) (default depends on the algorithm)",
    )
    p.add_argument(
        "--normalizer",
        help="comma-separated: nfc, nfkc, nfd, lowercase, jamo (Hangul syllables to jamo) ... "
        "e.g. nfkc,jamo (default: none)",
    )
    p.add_argument("--min-frequency", type=int, default=0, help="stop when no pair occurs this often")
    p.add_argument("--special-tokens", help="comma-separated, e.g. '<unk>,<s>,</s>' ('' for none)")
    p.add_argument("--end-of-word-suffix", help="e.g. '</w>'")
    p.add_argument("--continuing-subword-prefix", help="e.g. '##'")
    p.add_argument("--limit-alphabet", type=int, help="keep only this many most frequent characters")
    p.add_argument("--counts", action="store_true", help="inputs are 'word<TAB>count' files")
    p.add_argument(
        "--encoding", default="auto", help="corpus encoding: auto (UTF-8, CP949 fallback) or a codec"
    )
    _add_workers_option(p)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    _add_algorithm_options(p)


def _add_workers_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--workers",
        type=int,
        help="processes that count a large file (default: one per CPU; 1: no extra processes)",
    )


def _expand_globs(names: list[Path]) -> list[Path]:
    """Corpus arguments with glob patterns expanded (quoted, or too many files for the shell).

    An existing path is taken as it is, even if its name has ``*`` in it; ``**`` matches
    folders at any depth; a pattern that matches nothing is an error, not an empty corpus.
    """
    import glob

    out: list[Path] = []
    for name in names:
        text = str(name)
        if name.exists() or not glob.has_magic(text):
            out.append(name)
            continue
        matches = sorted(p for p in glob.glob(text, recursive=True) if not Path(p).is_dir())
        if not matches:
            raise SubwordError(f"no file matches {text}")
        out.extend(Path(p) for p in matches)
    return out


def _add_algorithm_options(p: argparse.ArgumentParser) -> None:
    """Flags that only some algorithms use; they end up in ``TrainOptions.extra``."""
    p.add_argument(
        "--unigram-textbook",
        action="store_true",
        help="unigram: the Hugging Face course's teaching recipe (chapter 6: 300 initial pieces, "
        "drop 10%% per round while more than 100 remain)",
    )
    p.add_argument(
        "--shrinking-factor", type=float, help="unigram: share of pieces kept per pruning round (0.75)"
    )
    p.add_argument("--max-piece-length", type=int, help="unigram: longest piece in characters (16)")
    p.add_argument(
        "--wordpiece-score",
        choices=["likelihood", "frequency"],
        help="wordpiece: merge score, count(ab)/(count(a)count(b)) as the Hugging Face course "
        "explains WordPiece (default) or the pair count as tokenizers' WordPieceTrainer",
    )
    p.add_argument(
        "--tau",
        "--picky-tau",
        type=float,
        help="picky-bpe: remove a merged token once more than this share of its occurrences sit in "
        "one merge (intersection over self; default 0.9; 1 or more: plain BPE)",
    )
    p.add_argument(
        "--transition",
        type=int,
        metavar="T",
        help="superbpe: vocabulary size where stage 2 (superwords, across spaces) begins "
        "(default: 90%% of --vocab-size)",
    )
    p.add_argument(
        "--max-words",
        type=int,
        metavar="N",
        help="superbpe: a superword holds at most N words (4, as the reference; 0: no limit)",
    )
    p.add_argument(
        "--allow-colon-space",
        action="store_true",
        help="superbpe: let superwords hold ': ' (the reference refuses them)",
    )
    # spm_train's options, for -a sentencepiece-bpe (names as spm_train spells them)
    p.add_argument(
        "--byte-fallback",
        action="store_true",
        help="sentencepiece-*: add the 256 byte pieces <0x00>..<0xFF>; unknown characters become their UTF-8 bytes",
    )
    p.add_argument(
        "--character-coverage",
        type=float,
        help="sentencepiece-*: share of the corpus's characters the alphabet covers, 0.98 to 1 (0.9995)",
    )
    p.add_argument(
        "--split-digits", action="store_true", help="sentencepiece-*: every digit is a piece of its own"
    )
    p.add_argument(
        "--max-sentencepiece-length",
        type=int,
        metavar="N",
        help="sentencepiece-*: longest piece in characters (16)",
    )
    p.add_argument(
        "--user-defined-symbols",
        metavar="A,B",
        help="sentencepiece-*: comma-separated pieces always kept whole, e.g. '<sep>,<cls>'",
    )
    p.add_argument(
        "--treat-whitespace-as-suffix",
        action="store_true",
        help="sentencepiece-*: '▁' ends a word instead of starting it",
    )
    p.add_argument(
        "--no-dummy-prefix",
        dest="no_dummy_prefix",
        action="store_true",
        help="sentencepiece-*: do not put '▁' before each line (spm_train --add_dummy_prefix=false)",
    )


SENTENCEPIECE_TRAINERS = ("sentencepiece-bpe", "sentencepiece-unigram")

# flag -> the algorithms that use it; given with another -a it is an error, not ignored.
ALGORITHM_FLAGS = {
    "--unigram-textbook": ("unigram_textbook", ("unigram",)),
    "--shrinking-factor": ("shrinking_factor", ("unigram",)),
    "--max-piece-length": ("max_piece_length", ("unigram",)),
    "--wordpiece-score": ("wordpiece_score", ("wordpiece",)),
    "--tau": ("tau", ("picky-bpe",)),
    "--transition": ("transition", ("superbpe",)),
    "--max-words": ("max_words", ("superbpe",)),
    "--allow-colon-space": ("allow_colon_space", ("superbpe",)),
    **{
        f"--{name.replace('_', '-')}": (name, SENTENCEPIECE_TRAINERS)
        for name in (
            "byte_fallback",
            "character_coverage",
            "split_digits",
            "max_sentencepiece_length",
            "user_defined_symbols",
            "treat_whitespace_as_suffix",
        )
    },
    "--no-dummy-prefix": ("no_dummy_prefix", SENTENCEPIECE_TRAINERS),
}


def _extra_options(args: argparse.Namespace) -> dict:
    """``TrainOptions.extra`` from the algorithm-specific flags."""
    for flag, (name, algorithms) in ALGORITHM_FLAGS.items():
        if getattr(args, name, None) not in (None, False) and args.algorithm not in algorithms:
            raise SubwordError(
                f"{flag} is a {' / '.join(algorithms)} option; -a {args.algorithm} does not use it"
            )
    extra: dict = {}
    if getattr(args, "unigram_textbook", False):
        extra["textbook"] = True
    for name in ("shrinking_factor", "max_piece_length"):
        if getattr(args, name, None) is not None:
            extra[name] = getattr(args, name)
    if getattr(args, "wordpiece_score", None) is not None:
        extra["score"] = args.wordpiece_score
    if getattr(args, "tau", None) is not None:
        extra["tau"] = args.tau
    for name in ("transition", "max_words"):
        if getattr(args, name, None) is not None:
            extra[name] = getattr(args, name)
    if getattr(args, "allow_colon_space", False):
        extra["colon_rule"] = False
    for name in ("byte_fallback", "split_digits", "treat_whitespace_as_suffix"):
        if getattr(args, name, False):
            extra[name] = True
    for name in ("character_coverage", "max_sentencepiece_length"):
        if getattr(args, name, None) is not None:
            extra[name] = getattr(args, name)
    if getattr(args, "user_defined_symbols", None):
        extra["user_defined_symbols"] = [t for t in args.user_defined_symbols.split(",") if t]
    if getattr(args, "no_dummy_prefix", False):
        extra["add_dummy_prefix"] = False
    return extra


def _train_options(args: argparse.Namespace) -> TrainOptions:
    special = None
    if args.special_tokens is not None:
        special = [t.strip() for t in args.special_tokens.split(",") if t.strip()]
    options = TrainOptions(
        algorithm=args.algorithm,
        vocab_size=args.vocab_size,
        min_frequency=args.min_frequency,
        special_tokens=special,
        normalizer=args.normalizer,
        pre_tokenizer=args.pre_tokenizer,
        limit_alphabet=args.limit_alphabet,
        end_of_word_suffix=args.end_of_word_suffix,
        continuing_subword_prefix=args.continuing_subword_prefix,
        extra=_extra_options(args),
    )
    # Fail on a bad normalizer or pre-tokenizer name now, not after counting a big corpus.
    from core.options import build_normalizer, build_pre_tokenizer

    build_normalizer(options)
    build_pre_tokenizer(options)
    return options


def _count_corpus(args: argparse.Namespace, options: TrainOptions, progress) -> dict[str, int]:
    from core import corpus
    from core.options import pre_tokenize_counts

    paths = _expand_globs(args.corpus)
    if args.counts:
        words: dict[str, int] = {}
        for path in paths:
            for word, n in pre_tokenize_counts(corpus.read_word_counts(path), options).items():
                words[word] = words.get(word, 0) + n
        return words
    # Training needs the words only: characters=False skips counting the characters.
    job = corpus.count_words(paths, options, encoding=args.encoding, workers=args.workers, characters=False)
    return drain(job, progress).words


def _save_outputs(tokenizer, directory: Path, stream) -> list[Path]:
    """Write ``tokenizer.json`` and the model's own files, all or nothing; returns what was written.

    The folder then holds exactly this model's files: those of an earlier model
    saved there that this one does not write (``vocab.json`` + ``merges.txt`` when
    WordPiece replaces BPE) are removed in the same step (see ``core.atomic``).
    """
    from core.atomic import save_folder
    from core.formats.hf_json import save_tokenizer_json
    from core.models.factory import model_kind

    kind = model_kind(tokenizer.model)
    with save_folder(directory) as stage:
        if kind == "BPE":
            from core.formats.gpt2 import save_gpt2

            try:
                save_gpt2(tokenizer.model, stage)
            except FormatError as e:
                print(f"subword: warning: merges.txt and vocab.json not written: {e}", file=stream)
        if kind == "WordPiece":
            from core.formats.bert_vocab import save_bert_vocab

            save_bert_vocab(tokenizer.model, stage / "vocab.txt")
        save_tokenizer_json(tokenizer, stage / "tokenizer.json")
        if "sentencepiece_training" in tokenizer.extra:  # trained as spm_train trains
            from core.formats.sentencepiece_model import save_sentencepiece

            save_sentencepiece(tokenizer, stage / "tokenizer.model")
        names = sorted(p.name for p in stage.iterdir() if not p.name.startswith("."))
    order = {"vocab.json": 0, "merges.txt": 1, "vocab.txt": 2, "tokenizer.json": 3, "tokenizer.model": 4}
    return [directory / name for name in sorted(names, key=lambda n: order.get(n, 9))]


def _output_bytes_needed(vocab_size: int) -> int:
    """A generous guess of the saved files' size, to refuse a nearly full disk before training.

    About 200 bytes per token across tokenizer.json, vocab.json and merges.txt (a
    32,000-token BPE writes about 2.5 MB), plus a megabyte.
    """
    return (1 << 20) + 200 * vocab_size


def _cmd_train(args: argparse.Namespace) -> int:
    """Count, train and save, with the cyclic garbage collector off: a training's objects (the
    word counts, the pieces, the events) are freed by their reference counts or live to its end,
    and each automatic collection walks all of them (and every module's objects) for nothing,
    5-10 % of a small training's CPU (a full collection after numpy's import alone: ~25 ms)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _train_and_save(args)
    finally:
        if was_enabled:
            gc.enable()


# Endings of the files a folder of tokenizer files holds (tokenizer.json, tokenizer.model, vocab.txt,
# merges.txt) and of SentencePiece's .vocab: an --output that ends so was meant as a file.
FILE_LIKE_ENDINGS = (".json", ".model", ".txt", ".vocab")


def refuse_file_named_folder(output: Path, what: str, files: str) -> None:
    """ConfigError when ``output``, which names a folder, looks like a file's name (one of
    ``FILE_LIKE_ENDINGS``, any case) and is not a folder already: the user meant a file and would
    get a folder of that name. ``what`` is the argument as the user wrote it, ``files`` what the
    folder will hold.

    >>> refuse_file_named_folder(Path("bl.json"), "--output", "tokenizer.json, …")
    Traceback (most recent call last):
    ...
    core.errors.ConfigError: --output bl.json looks like a file name; --output is the folder the tokenizer files go into (tokenizer.json, …): give a folder such as bl/
    >>> refuse_file_named_folder(Path("bl"), "--output", "tokenizer.json, …")
    """
    if output.suffix.lower() not in FILE_LIKE_ENDINGS or output.is_dir():
        return
    folder = output.with_suffix("")
    raise ConfigError(
        f"{what} {output} looks like a file name; {what} is the folder the tokenizer files go into "
        f"({files}): give a folder such as {folder}/"
    )


def _train_and_save(args: argparse.Namespace) -> int:
    from core.atomic import check_writable_folder

    # Before anything is counted or written: `-o tok.json` means a file, and would get a folder.
    refuse_file_named_folder(args.output, "--output", "tokenizer.json, vocab.json, merges.txt, …")
    options = _train_options(args)
    # Permission and space problems now, not after an hour of training.
    check_writable_folder(args.output, _output_bytes_needed(options.vocab_size))
    progress = ProgressBar(enabled=not args.quiet, target=options.vocab_size)
    from core.training import train_from_counts

    words = _count_corpus(args, options, progress)
    progress.close()
    tokenizer = drain(train_from_counts(words, options), progress)
    progress.close()
    written = _save_outputs(tokenizer, args.output, sys.stderr)
    for path in written:
        print(path)
    _note_our_own_types(tokenizer, args.output)
    return 0


def _note_our_own_types(tokenizer, output: Path) -> None:
    """Say so when tokenizer.json holds parts (ko-morph, jamo, PickyBPE) that only Subword Explorer reads."""
    from core.formats.hf_compat import hf_compatible

    portable, losses = hf_compatible(tokenizer)
    if losses or portable.model is not tokenizer.model:
        what = "PickyBPE model" if portable.model is not tokenizer.model else "analyser/jamo steps"
        print(
            f"subword: note: {output / 'tokenizer.json'} keeps the {what} as Subword "
            "Explorer's own types; for Hugging Face tokenizers run: "
            f"subword convert {output} tokenizer-hf.json --to hf-json",
            file=sys.stderr,
        )


# -- count ----------------------------------------------------------------------------


def _add_count_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("corpus", nargs="+", type=Path, help="text files or glob patterns ('data/**/*.txt')")
    p.add_argument("--output", "-o", type=Path, required=True, help="the word-count file to write (.tsv)")
    p.add_argument(
        "--algorithm", "-a", default="bpe", choices=list(TRAINERS), help="its default pre-tokenizer (bpe)"
    )
    p.add_argument("--pre-tokenizer", help="as for train (default depends on the algorithm)")
    p.add_argument("--normalizer", help="as for train (default: none)")
    p.add_argument(
        "--encoding", default="auto", help="corpus encoding: auto (UTF-8, CP949 fallback) or a codec"
    )
    _add_workers_option(p)
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="count as a Dask job on this cluster (tcp://host:8786), or 'local' for a local Dask cluster",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def _cmd_count(args: argparse.Namespace) -> int:
    from core import corpus

    options = TrainOptions(
        algorithm=args.algorithm, normalizer=args.normalizer, pre_tokenizer=args.pre_tokenizer
    )
    from core.options import build_normalizer, build_pre_tokenizer

    build_normalizer(options)
    build_pre_tokenizer(options)
    if args.output.is_dir():
        raise SubwordError(f"--output {args.output} is a directory; give the word-count file's name")
    paths = _expand_globs(args.corpus)
    progress = ProgressBar(enabled=not args.quiet)
    if args.scheduler:
        from core.cluster_count import count_words_on_cluster

        address = None if args.scheduler == "local" else args.scheduler
        job = count_words_on_cluster(paths, options, encoding=args.encoding, scheduler=address)
    else:
        job = corpus.count_words(paths, options, encoding=args.encoding, workers=args.workers)
    counts = drain(job, progress)
    progress.close()
    corpus.write_word_counts(counts.words, args.output, options)
    if not args.quiet:
        print(
            f"{counts.n_words:,} words ({counts.distinct_words:,} distinct) in {counts.lines:,} lines "
            f"of {len(paths):,} file(s)",
            file=sys.stderr,
        )
    print(args.output)
    return 0


# -- encode ---------------------------------------------------------------------------


def _add_encode_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("text", nargs="?", help="text to encode (or use --input)")
    p.add_argument(
        "--model",
        "-m",
        type=Path,
        help="any supported tokenizer file or folder (tokenizer.json, vocab.json + merges.txt, "
        "vocab.txt, .model, .vocab, tiktoken ranks, tekken.json, subword-nmt codes, .gguf, a project)",
    )
    p.add_argument(
        "--pattern",
        help="split pattern of a tiktoken rank file: gpt2, cl100k_base, o200k_base or a regex "
        "(default: the one its number of ranks suggests)",
    )
    _add_casing_options(p)
    p.add_argument(
        "--allow-special",
        action="store_true",
        help="special tokens written in the text become their ids (tiktoken's allowed_special='all'); "
        "by default rank-file and tekken tokenizers encode them as ordinary text",
    )
    p.add_argument("--input", "-i", help="encode each line of this file ('-' for stdin)")
    p.add_argument("--json", action="store_true", help="one JSON object per line: tokens, ids, offsets")
    p.add_argument(
        "--ids",
        action="store_true",
        help="only ids: one line of space-separated ids per input line (as spm_encode --output_format=id), "
        "streamed; fastest for large files",
    )
    p.add_argument(
        "--progress",
        action="store_true",
        help="with --ids --input: a progress bar on stderr even when it is not a terminal",
    )
    p.add_argument("--quiet", "-q", action="store_true", help="with --ids --input: no progress bar")
    p.add_argument(
        "--workers",
        type=int,
        help="with --ids --input FILE: processes that encode it (default: one per CPU for a file of "
        "4 MB or more; 1: no extra processes); the output is the same",
    )
    p.add_argument(
        "--nbest", type=int, metavar="K", help="unigram: the K best segmentations with their scores"
    )
    p.add_argument(
        "--sample", action="store_true", help="unigram: one sampled segmentation (subword regularization)"
    )
    p.add_argument("--alpha", type=float, help="unigram: sampling sharpness for --sample (0.1)")
    p.add_argument(
        "--dropout",
        type=float,
        metavar="P",
        help="BPE: BPE-dropout, each merge skipped with probability P (as tokenizers' BPE(dropout=P))",
    )
    p.add_argument(
        "--seed", type=int, metavar="N", help="with --dropout or --sample: seed the draws (reproducible)"
    )
    p.add_argument(
        "--chat",
        type=Path,
        metavar="FILE.json",
        help="render this conversation (a JSON list of {role, content}) with the model's chat template "
        "and encode the text, as transformers' apply_chat_template; prints the warnings",
    )
    p.add_argument(
        "--add-generation-prompt",
        action="store_true",
        help="with --chat: end with the template's prompt for the assistant's turn",
    )
    p.add_argument("--chat-template", metavar="NAME", help="with --chat: which of several named templates")
    _add_subword_nmt_options(p)


def _add_subword_nmt_options(p: argparse.ArgumentParser) -> None:
    """``--format subword-nmt``: apply codes exactly as ``subword-nmt apply-bpe`` does."""
    p.add_argument(
        "--format",
        choices=["tokens", "subword-nmt"],
        default="tokens",
        help="subword-nmt: write each line as subword-nmt's apply-bpe does ('hug p@@ ug')",
    )
    p.add_argument("--codes", type=Path, help="subword-nmt: the BPE codes file (or give it as --model)")
    p.add_argument("--glossary", nargs="+", metavar="G", help="subword-nmt: words or regexes never split")
    p.add_argument("--vocabulary", type=Path, help="subword-nmt: 'word count' file (from get-vocab)")
    p.add_argument(
        "--vocabulary-threshold",
        type=int,
        metavar="N",
        help="subword-nmt: subwords seen fewer than N times in --vocabulary are split back",
    )
    p.add_argument("--separator", default="@@", help="subword-nmt: mark of a non-final subword (@@)")


def _encode_subword_nmt(args: argparse.Namespace) -> int:
    """Lines in, lines out, as ``subword-nmt apply-bpe`` (line ends and edge spaces kept)."""
    from core.formats.subword_nmt_codes import load_codes, load_vocabulary
    from core.models.bpe.subword_nmt import SubwordNmt

    codes_path = args.codes or args.model
    if codes_path is None:
        raise SubwordError("--format subword-nmt needs --codes FILE")
    if args.vocabulary_threshold is not None and args.vocabulary is None:
        raise SubwordError("--vocabulary-threshold needs --vocabulary FILE")
    from core.paths import require_regular_file

    require_regular_file(codes_path, FormatError, "a codes file")  # a FIFO would block the read
    if args.vocabulary:
        require_regular_file(args.vocabulary, FormatError, "a vocabulary file")
    codes = load_codes(codes_path)
    vocabulary = load_vocabulary(args.vocabulary, args.vocabulary_threshold) if args.vocabulary else None
    bpe = SubwordNmt(codes.merges, codes.version, args.separator, vocabulary, args.glossary)
    if args.text is not None:
        lines = [args.text if args.text.endswith("\n") else args.text + "\n"]
    elif args.input == "-":
        lines = _stdin()  # universal newlines, as apply-bpe reading stdin
    else:
        _check_text_file(args.input)
        try:
            data = Path(args.input).read_bytes().decode("utf-8")
        except UnicodeDecodeError as e:
            raise SubwordError(f"{args.input} is not UTF-8 text (byte {e.start})") from None
        # subtle: apply-bpe reads files through codecs, whose lines end at every Unicode
        # line boundary (\r, \x0b, \x85, \u2028 ...), each kept on its line.
        lines = data.splitlines(keepends=True)
    for line in lines:
        sys.stdout.write(bpe.segment_line(line))
    return 0


def load_model_path(path: Path, pattern: str | None = None, lowercase: bool | None = None):
    """A tokenizer from any supported file or folder (see core.formats.registry); warnings go to stderr."""
    from core.formats.detect import open_tokenizer

    if not path.exists():
        raise FormatError(f"--model {path} does not exist")
    loaded = open_tokenizer(path, pattern=pattern, lowercase=lowercase)
    for warning in loaded.warnings:
        print(f"subword: warning: {warning}", file=sys.stderr)
    return loaded.tokenizer


def _stdin():
    """``sys.stdin``; one line when it was closed (``subword encode --input - <&-``)."""
    if sys.stdin is None:
        raise SubwordError("standard input is closed; nothing to read from --input -")
    return sys.stdin


def _check_text_file(name: str) -> None:
    """One line unless ``name`` is a regular file of text: ``/dev/zero`` would be read forever,
    a file of NUL bytes (a 2 GB sparse file) is one endless line; training refuses both too."""
    from core.corpus import BLOCK_BYTES
    from core.errors import CorpusError
    from core.paths import require_regular_file

    require_regular_file(Path(name), CorpusError, "a text file")
    try:
        with open(name, "rb") as f:
            head = f.read(BLOCK_BYTES)
    except OSError as e:
        raise SubwordError(f"cannot read {name}: {e.strerror or e}") from None
    if b"\x00" in head:
        raise CorpusError(f"{name} looks like a binary file (it contains NUL bytes), not text")


def _read_lines(name: str) -> list[str]:
    from core.limits import bounded_lines

    if name == "-":
        return [line.removesuffix("\n") for line in bounded_lines(_stdin(), "standard input")]
    _check_text_file(name)
    try:
        with open(name, encoding="utf-8-sig") as f:
            return [line.removesuffix("\n") for line in bounded_lines(f, name)]
    except UnicodeDecodeError as e:
        raise SubwordError(f"{name} is not UTF-8 text (byte {e.start})") from None
    except OSError as e:
        raise SubwordError(f"cannot read {name}: {e.strerror or e}") from None


def _encode_unigram_alternatives(tokenizer, texts: list[str], args: argparse.Namespace) -> int:
    """``--nbest K`` / ``--sample``: other segmentations a Unigram model allows."""
    model = tokenizer.model
    if not model.can_nbest():
        raise SubwordError("--nbest and --sample need a Unigram model")
    if args.nbest is not None and args.sample:
        raise SubwordError("choose one of --nbest and --sample")
    if args.nbest is not None and args.nbest < 1:
        raise SubwordError("--nbest must be at least 1")
    words = [[p.normalized for p in tokenizer.pieces(text)] for text in texts]
    rng = random.Random(args.seed) if args.seed is not None else None
    for text, pieces in zip(texts, words):
        if args.nbest is not None:
            for tokens, score in model.nbest_words(pieces, args.nbest):
                line = {"text": text, "tokens": tokens, "score": score}
                sys.stdout.write(
                    json.dumps(line, ensure_ascii=False) + "\n"
                    if args.json
                    else f"{score:10.4f}  " + " ".join(tokens) + "\n"
                )
        else:
            tokens = [t.value for p in pieces for t in model.sample(p, args.alpha, rng)]
            sys.stdout.write(
                json.dumps({"text": text, "tokens": tokens}, ensure_ascii=False) + "\n"
                if args.json
                else "tokens:  " + " ".join(tokens) + "\n"
            )
    return 0


def _cmd_encode(args: argparse.Namespace) -> int:
    if args.chat is not None:
        return _encode_chat(args)
    if args.add_generation_prompt or args.chat_template is not None:
        raise SubwordError("--add-generation-prompt and --chat-template apply to --chat")
    if (args.text is None) == (args.input is None):
        raise SubwordError("give either TEXT or --input FILE")
    if args.format == "subword-nmt":
        return _encode_subword_nmt(args)
    if args.model is None:
        raise SubwordError("--model is required (or --format subword-nmt --codes FILE)")
    if args.ids and (args.json or args.nbest is not None or args.sample):
        raise SubwordError("--ids cannot be combined with --json, --nbest or --sample")
    if args.workers is not None and (not args.ids or args.input in (None, "-")):
        raise SubwordError("--workers applies to --ids --input FILE only")
    if args.workers is not None and args.workers < 1:
        raise SubwordError(f"--workers must be at least 1, not {args.workers}")
    if args.alpha is not None and not args.sample:
        raise SubwordError("--alpha only applies to --sample")
    if args.sample:
        args.alpha = 0.1 if args.alpha is None else args.alpha
        # subtle: inf would make every piece but the best weigh nothing and print an empty line; NaN compares false
        if not (math.isfinite(args.alpha) and args.alpha > 0):
            raise SubwordError(f"--alpha must be a finite number greater than 0, not {args.alpha}")
    if args.seed is not None and args.dropout is None and not args.sample:
        raise SubwordError("--seed only applies to --dropout and --sample")
    if args.dropout is not None:
        # subtle: NaN compares false both ways, so the range is written as a positive test
        if not 0.0 <= args.dropout <= 1.0:
            raise SubwordError(f"--dropout must be a probability between 0 and 1, not {args.dropout}")
        if args.nbest is not None or args.sample:
            raise SubwordError("--dropout cannot be combined with --nbest or --sample")
        if args.workers is not None and args.workers > 1:
            raise SubwordError("--dropout draws in one process: --workers must be 1")
        args.workers = 1
    tokenizer = load_model_path(args.model, args.pattern, args.lowercase)
    if args.dropout is not None:
        if not tokenizer.model.can_dropout():
            raise SubwordError(f"--dropout needs a BPE model, not {type(tokenizer.model).__name__}")
        tokenizer.model = tokenizer.model.with_dropout(args.dropout, args.seed)
    if args.allow_special:
        tokenizer.encode_special_tokens = False
    if args.ids:
        return _encode_ids(tokenizer, args)
    texts = [args.text] if args.text is not None else _read_lines(args.input)
    if args.nbest is not None or args.sample:
        return _encode_unigram_alternatives(tokenizer, texts, args)
    out = sys.stdout
    for text, enc in zip(texts, _encodings(tokenizer, texts)):
        if args.json:
            out.write(
                json.dumps(
                    {
                        "text": text,
                        "tokens": enc.tokens,
                        "ids": enc.ids,
                        "offsets": [list(o) for o in enc.offsets],
                    },
                    ensure_ascii=False,
                )
                + "\n"
            )
        else:
            out.write("tokens:  " + " ".join(enc.tokens) + "\n")
            out.write("ids:     " + " ".join(map(str, enc.ids)) + "\n")
            out.write("offsets: " + " ".join(f"{s}:{e}" for s, e in enc.offsets) + "\n")
    return 0


def _encode_chat(args: argparse.Namespace) -> int:
    """``--chat FILE.json``: the rendered conversation, its tokens and ids, and what looks wrong."""
    from core.chat import conversation_from_json, encode_chat

    if args.text is not None or args.input is not None:
        raise SubwordError("--chat takes its text from the conversation: give no TEXT or --input")
    if args.model is None:
        raise SubwordError("--chat needs --model (a folder or file with a chat template)")
    if (
        args.ids
        or args.nbest is not None
        or args.sample
        or args.dropout is not None
        or args.format != "tokens"
    ):
        raise SubwordError("--chat cannot be combined with --ids, --nbest, --sample, --dropout or --format")
    try:
        raw = args.chat.read_bytes()
        data = json.loads(raw.decode("utf-8-sig"))
    except OSError as e:
        raise SubwordError(f"cannot read {args.chat}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise SubwordError(f"{args.chat} is not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise SubwordError(
            f"{args.chat} is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})"
        ) from None
    messages = conversation_from_json(data, str(args.chat))
    tokenizer = load_model_path(args.model, args.pattern, args.lowercase)
    if args.allow_special:
        tokenizer.encode_special_tokens = False
    chat = encode_chat(tokenizer, messages, args.add_generation_prompt, args.chat_template)
    enc = chat.encoding
    out = sys.stdout
    if args.json:
        record = {
            "template": chat.template_name,
            "text": chat.text,
            "tokens": enc.tokens,
            "ids": enc.ids,
            "offsets": [list(o) for o in enc.offsets],
            "warnings": chat.warnings,
        }
        out.write(json.dumps(record, ensure_ascii=False) + "\n")
    else:
        out.write(
            f"rendered ({chat.template_name} template, {len(chat.text):,} characters, {len(enc.ids):,} tokens):\n"
        )
        out.write(chat.text + ("" if chat.text.endswith("\n") else "\n"))
        out.write("tokens:  " + " ".join(enc.tokens) + "\n")
        out.write("ids:     " + " ".join(map(str, enc.ids)) + "\n")
    for warning in chat.warnings:
        print(f"subword: warning: {warning}", file=sys.stderr)
    return 0


def _encodings(tokenizer, texts: list[str], batch: int = 1024):
    """``tokenizer.encode`` of each text, a batch at a time (the words new to a batch go through
    the model together, and nothing per token is kept past its batch)."""
    for at in range(0, len(texts), batch):
        yield from tokenizer.encode_batch(texts[at : at + batch])


def _encode_ids(tokenizer, args: argparse.Namespace) -> int:
    """``--ids``: stream the input, one line of space-separated ids per line.

    Lines are read as ``--json`` reads them (UTF-8, an optional BOM, universal line
    ends), so the ids are exactly those of ``--json``. The progress bar (bytes read)
    goes to stderr when it is a terminal, or with ``--progress``. A large file is
    encoded by several processes (``core.encode_parallel``), with the same output.
    """
    from core.encode_parallel import default_workers, encode_file_ids, ids_lines
    from core.limits import bounded_lines

    out = sys.stdout
    if args.text is not None:
        out.write(" ".join(map(str, tokenizer.encode_ids(args.text))) + "\n")
        return 0
    show = not args.quiet and (args.progress or bool(getattr(sys.stderr, "isatty", lambda: False)()))
    progress = ProgressBar(enabled=show)
    if args.input == "-":
        stream, total, close = _stdin(), 0, False
    else:
        _check_text_file(args.input)
        try:
            stream = open(args.input, encoding="utf-8-sig")  # noqa: SIM115 (closed below)
            total = Path(args.input).stat().st_size
        except OSError as e:
            raise SubwordError(f"cannot read {args.input}: {e.strerror or e}") from None
        close = True
    raw = getattr(stream, "buffer", None)
    done = line_number = 0

    def numbered(lines):
        nonlocal line_number
        for line in lines:
            line_number += 1
            yield line

    try:
        workers = args.workers or (default_workers(total) if close else 1)
        if workers > 1 and Path(args.input).is_file():
            encode_file_ids(tokenizer, args.input, out.write, workers, progress if show else None)
            return 0
        try:
            lines = bounded_lines(stream, "standard input" if args.input == "-" else args.input)
            for text in ids_lines(tokenizer, numbered(lines)):
                out.write(text)
                if show:
                    # subtle: the text layer reads ahead in blocks, so this is exact to a block
                    done = raw.tell() if raw is not None and raw.seekable() else done
                    progress(Progress("encode", min(done, total) if total else done, total))
        except UnicodeDecodeError as e:
            raise SubwordError(
                f"{args.input} is not UTF-8 text (after line {line_number}, byte {e.start} of a block)"
            ) from None
    finally:
        if close:
            stream.close()
        if show:
            progress(Progress("encode", total, total))
            progress.close()
    return 0


# -- convert ---------------------------------------------------------------------------


def _add_casing_options(p: argparse.ArgumentParser) -> None:
    """``--lowercase/--cased``: a bare BERT vocab.txt does not say; the guess is in its warning."""
    casing = p.add_mutually_exclusive_group()
    casing.add_argument(
        "--lowercase",
        dest="lowercase",
        action="store_const",
        const=True,
        help="a BERT vocab.txt: lowercase the text (uncased BERT; the default when the vocabulary "
        "does not show it is cased)",
    )
    casing.add_argument(
        "--cased", dest="lowercase", action="store_const", const=False, help="a BERT vocab.txt: keep case"
    )


def _add_convert_options(p: argparse.ArgumentParser) -> None:
    from core.formats.registry import FORMATS, LOAD_FORMATS, SAVE_FORMATS

    folders = " and ".join(f.name for f in FORMATS if f.saves_folder)
    p.add_argument("input", type=Path, help="any supported tokenizer file or folder")
    p.add_argument("output", type=Path, help=f"where to write (a folder for {folders})")
    # subtle: every format name is accepted here, so that one we only read (gguf...) is refused
    # by the format table in a line that says so, not by argparse's "invalid choice"
    p.add_argument(
        "--to",
        required=True,
        choices=LOAD_FORMATS,
        metavar="{" + ",".join(SAVE_FORMATS) + "}",
        help="the target format",
    )
    p.add_argument(
        "--from",
        dest="source_format",
        choices=LOAD_FORMATS,
        help="the input's format, when detection should not guess it",
    )
    p.add_argument(
        "--pattern",
        help="split pattern of a tiktoken rank file: gpt2, cl100k_base, o200k_base or a regex "
        "(default: the one its number of ranks suggests)",
    )
    _add_casing_options(p)


def _cmd_convert(args: argparse.Namespace) -> int:
    """Open INPUT, save it as --to at OUTPUT, and say what the target format loses."""
    from core.formats.detect import convert
    from core.formats.registry import format_named

    target = format_named(args.to, saving=True)
    if target.saves_folder:  # `convert x out.json --to gpt2` would make a folder named out.json
        refuse_file_named_folder(args.output, "OUTPUT", f"{target.title} with --to {args.to}")
    written = target.save_path(args.output)  # what convert writes
    loaded, losses = convert(
        args.input,
        args.output,
        args.to,
        pattern=args.pattern,
        source_format=args.source_format,
        lowercase=args.lowercase,
    )
    for warning in loaded.warnings:
        print(f"subword: warning: {warning}", file=sys.stderr)
    print(f"converted {args.input} ({loaded.format}) -> {written} ({args.to})")
    if losses:
        print(f"{args.to} loses:")
        for loss in losses:
            print(f"  - {loss}")
    else:
        print(f"{args.to} keeps everything")
    return 0


# -- evaluate --------------------------------------------------------------------------


def _add_evaluate_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--model",
        "-m",
        type=Path,
        action="append",
        required=True,
        help="a tokenizer file or folder (repeat to compare)",
    )
    p.add_argument("--corpus", type=Path, required=True, help="UTF-8 text, one line a sentence or document")
    p.add_argument(
        "--parallel",
        action="append",
        default=[],
        metavar="LANG=FILE",
        help="parallel lines in one language (repeat: same line count in each) for parity across languages",
    )
    p.add_argument(
        "--pivot", metavar="LANG", help="parity's reference language (default: en, else the first)"
    )
    p.add_argument(
        "--alpha", type=float, help="order of Rényi efficiency (default 3, as tokenization-scorer)"
    )
    p.add_argument(
        "--language",
        choices=["auto", "ko", "ja", "none"],
        default="auto",
        help="morphological alignment with kiwipiepy (ko) or SudachiPy (ja); auto: from the corpus' script",
    )
    p.add_argument(
        "--alignment-lines",
        type=int,
        default=1000,
        metavar="N",
        help="lines spread over the corpus whose morphemes are compared (default 1000; 0: none)",
    )
    p.add_argument("--html", type=Path, metavar="OUT", help="write the card as one self-contained HTML file")
    p.add_argument("--json", type=Path, metavar="OUT", help="write every figure and token list as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def _cmd_evaluate(args: argparse.Namespace) -> int:
    """Every measure of core.measures for each --model on --corpus: a table on stdout, files on request."""
    from core.atomic import write_atomic
    from core.measures import DEFAULT_ALPHA, report
    from core.report_export import format_table, render_html, report_dict

    for flag, out in (("--html", args.html), ("--json", args.json)):
        if out is not None and (out.is_dir() or not out.parent.is_dir()):
            raise SubwordError(
                f"{flag} {out}: " + ("is a folder" if out.is_dir() else "its folder does not exist")
            )
    if args.alignment_lines < 0:
        raise SubwordError(f"--alignment-lines must be 0 or more, not {args.alignment_lines}")
    parallel_files: dict[str, str] = {}
    for item in args.parallel:
        lang, sep, name = item.partition("=")
        if not sep or not lang or not name:
            raise SubwordError(f"--parallel takes LANG=FILE, not {item!r}")
        if lang in parallel_files:
            raise SubwordError(f"--parallel gives {lang} twice")
        parallel_files[lang] = name
    if args.pivot is not None and not parallel_files:
        raise SubwordError("--pivot needs --parallel files")
    lines = _read_lines(str(args.corpus))
    if not any(line.strip() for line in lines):
        raise SubwordError(f"--corpus {args.corpus} has no text")
    parallel = {lang: _read_lines(name) for lang, name in parallel_files.items()} or None
    tokenizers: dict[str, object] = {}
    about_tokenizers = []
    for path in args.model:
        tokenizer = load_model_path(path)
        name = path.name or str(path)
        if name in tokenizers:  # two models of one name (a/tokenizer.json, b/tokenizer.json)
            name = str(path)
        while name in tokenizers:  # the same path twice
            name += "'"
        tokenizers[name] = tokenizer
        about_tokenizers.append(
            {"path": str(path), "format": _format_name(path), "tokens": tokenizer.id_to_token}
        )
    progress = ProgressBar(enabled=not args.quiet)
    card = drain(
        report(
            tokenizers,
            lines,
            parallel,
            pivot=args.pivot,
            alpha=DEFAULT_ALPHA if args.alpha is None else args.alpha,
            language=None if args.language == "none" else args.language,
            alignment_lines=args.alignment_lines,
        ),
        progress,
    )
    progress.close()
    sys.stdout.write(format_table(card))
    about = {
        "corpus": str(args.corpus),
        "parallel": parallel_files,
        "created": time.strftime("%Y-%m-%d %H:%M:%S %z"),
        "versions": _versions(card.language),
        "tokenizers": about_tokenizers,
    }
    if args.json is not None:
        data = report_dict(card, about)
        write_atomic(args.json, json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        print(f"wrote {args.json}", file=sys.stderr)
    if args.html is not None:
        write_atomic(args.html, render_html(card, about))
        print(f"wrote {args.html}", file=sys.stderr)
    return 0


def _format_name(path: Path) -> str:
    from core.formats.detect import detect_format

    try:
        return detect_format(path)[0]
    except SubwordError:
        return ""


def _versions(language: str | None) -> dict[str, str]:
    """Versions a reader needs to reproduce a card: ours, Python's, and the analyser's."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    found = {"subword-explorer": __version__, "python": platform.python_version()}
    for package in {"ko": ("kiwipiepy", "kiwipiepy_model"), "ja": ("sudachipy", "sudachidict_core")}.get(
        language or "", ()
    ):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            pass
    return found


# -- the parser ----------------------------------------------------------------------

# name -> (help, add-arguments function, command function)
SUBCOMMANDS: dict[str, tuple[str, Callable, Callable]] = {
    "train": ("train a tokenizer on text files", _add_train_options, _cmd_train),
    "count": ("count the words of text files into a word-count file", _add_count_options, _cmd_count),
    "encode": ("encode text with a trained tokenizer", _add_encode_options, _cmd_encode),
    "convert": ("convert a tokenizer to another file format", _add_convert_options, _cmd_convert),
    "evaluate": ("measure and compare tokenizers on a corpus", _add_evaluate_options, _cmd_evaluate),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``subword`` parser; with ``only`` (a subcommand), the other subcommands get their name
    and help but not their arguments, which is all that parsing ``only``'s command line, or
    ``subword --help``, reads of them.

    Why: argparse formats each argument as it is added, and ``convert``'s options import the
    format registry; the whole parser cost 5.7 ms of a fresh process, train's alone 4.0 ms (the
    rest is argparse's own first use), in a ``subword train`` of a short novel of ~0.24 s.
    """
    parser = argparse.ArgumentParser(prog="subword", description="Train and use subword tokenizers.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (help_text, add_arguments, command) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or name == only:
            add_arguments(p)
        p.set_defaults(func=command)
    return parser


def _named_command(argv: list[str]) -> str | None:
    """The subcommand a command line names: its first word that is not an option (the top-level
    options, ``--help`` and ``--version``, take no value), if that is a subcommand.

    >>> _named_command(["train", "corpus.txt", "-v", "8000"]), _named_command(["--help"])
    ('train', None)
    """
    for word in argv:
        if not word.startswith("-"):
            return word if word in SUBCOMMANDS else None
    return None


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    _no_blas_threads()
    parser = build_parser(only=_named_command(argv))
    args = parser.parse_args(argv)
    if sys.stdout is None:  # (`subword ... >&-`: every print would end in a traceback)
        print(
            "subword: error: standard output is closed; give it a file (> FILE or > /dev/null)",
            file=sys.stderr,
        )
        return EXIT_ERROR
    try:
        return args.func(args) or 0
    except SubwordError as e:
        _error(str(e))
    except (OSError, UnicodeError) as e:
        _error(
            f"{getattr(e, 'filename', None) or ''}{': ' if getattr(e, 'filename', None) else ''}"
            f"{getattr(e, 'strerror', None) or e}"
        )
    except MemoryError:
        _error("out of memory")
    except KeyboardInterrupt:
        print("\nsubword: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return EXIT_ERROR


_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def _no_blas_threads() -> None:
    """One OpenBLAS thread for a command, unless the user chose a number (any of
    :data:`_THREAD_VARIABLES`).

    Why: numpy's import loads OpenBLAS, which starts a worker per core that waits by spinning;
    nothing here calls BLAS (the kernels are numba's, the arrays numpy's), so those workers
    only burned CPU: ~0.1 s of a 0.3 s SentencePiece Unigram training on a short novel, on 2
    cores. OpenBLAS reads the variable when it is loaded, so this runs before any numpy import.
    """
    import os

    if not any(os.environ.get(name) for name in _THREAD_VARIABLES):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


def _error(message: str) -> None:
    sys.stdout.flush()
    print(f"subword: error: {message}", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
