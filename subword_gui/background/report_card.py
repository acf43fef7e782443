"""The Compare panel's report card, as a worker job: every measure of ``core.measures`` for
every column, and Rényi efficiency at a few vocab sizes cut from one model (its slider);
and the Vocabulary panel's hygiene lists (:func:`hygiene_job`).

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> tok = drain(train_from_counts(counts, TrainOptions("bpe", vocab_size=11)))
    >>> card = drain(report_card_job({"A": tok}, ("lines", ["hug pug"]), {}, curve=("A", tok, [9, 11])))
    >>> card.report.tokenizers[0].renyi, card.curve
    (1.0..., [(9, 0.84...), (11, 1.0...)])

Qt-free, as every job (a child process runs it, see ``subword_gui.background.workers``);
what it takes and returns pickles. The corpus is read here, in the worker: a text file
(as the Corpus panel opened it) or in-memory lines (the text of the Compare panel).

Leaves out: drawing (``subword_gui.panels.report_card``), the HTML (``core.report_export``).
"""

from __future__ import annotations

import platform
from collections import Counter
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from itertools import chain
from typing import Any

from core.errors import SubwordError
from core.events import Progress
from core.measures import DEFAULT_ALPHA, Report, renyi_efficiency, report
from subword_gui.background.jobs import _python_encoding, can_truncate, truncate_tokenizer

# The Rényi curve encodes this many corpus lines (spread evenly) per vocab size: its points
# move little past a few thousand lines, and the whole corpus at every size would cost as
# many full encodings as there are points.
CURVE_LINES = 5000
CURVE_POINTS = 6  # vocab sizes of the curve, the full model's included


@dataclass
class CardResult:
    """What the report card job returns: the report, the Rényi curve and what they were made from."""

    report: Report
    curve: list[tuple[int, float]] = field(default_factory=list)  # (vocab size, Rényi efficiency)
    curve_of: str | None = None  # the column the curve was cut from
    about: dict[str, Any] = field(default_factory=dict)  # corpus, parallel files, versions


def read_lines(source: tuple) -> list[str]:
    """The lines of a corpus source: ``("file", path, encoding)`` or ``("lines", [...])``."""
    kind = source[0]
    if kind == "lines":
        return list(source[1])
    if kind == "file":
        path, encoding = source[1], source[2] if len(source) > 2 else "auto"
        try:
            with open(path, encoding=_python_encoding(encoding, path), errors="replace") as f:
                return [line.rstrip("\n") for line in f]
        except OSError as e:
            raise SubwordError(f"cannot read {path}: {e.strerror or e}") from None
    raise SubwordError("the report card needs the corpus's text (a word-count file has no lines)")


def curve_vocab_sizes(low: int, high: int, n: int = CURVE_POINTS) -> list[int]:
    """``n`` vocab sizes from ``low`` to ``high``, evenly spaced on a log scale.

    >>> curve_vocab_sizes(100, 1000, 3)
    [100, 316, 1000]
    """
    from subword_gui.background.jobs import curve_sizes

    return curve_sizes(low, high, n)


def versions(language: str | None) -> dict[str, str]:
    """Versions a reader needs to reproduce a card: ours, Python's, and the analyser's."""
    from core import __version__

    found = {"subword-explorer": __version__, "python": platform.python_version()}
    packages = {"ko": ("kiwipiepy", "kiwipiepy_model"), "ja": ("sudachipy", "sudachidict_core")}
    for package in packages.get(language or "", ()):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            pass
    return found


def report_card_job(
    tokenizers: Mapping[str, Any],
    source: tuple,
    parallel_files: Mapping[str, str],
    alpha: float = DEFAULT_ALPHA,
    curve: tuple[str, Any, list[int]] | None = None,
    corpus_name: str = "",
) -> Generator[Progress, None, CardResult]:
    """Read the corpus (and the parallel files), run :func:`core.measures.report` over every
    tokenizer, then Rényi efficiency of one model cut to a few vocab sizes: ``curve`` is
    ``(its name, the full tokenizer, the sizes)``, as the slider cuts it.

    Choice: the curve encodes :data:`CURVE_LINES` lines spread over the corpus (all of a
    smaller one), so its last point may differ from the table's figure in the third decimal.

    Progress phases: ``read``, then those of ``report``, then ``curve`` (sizes done).
    """
    yield Progress("read", 0, 1)
    lines = read_lines(source)
    if not any(line.strip() for line in lines):
        raise SubwordError("the report card needs some text: the corpus (or the text above) is empty")
    parallel = {lang: read_lines(("file", path, "auto")) for lang, path in parallel_files.items()} or None
    yield Progress("read", 1, 1)
    card = yield from report(dict(tokenizers), lines, parallel, alpha=alpha)
    points: list[tuple[int, float]] = []
    curve_of, full, sizes = curve if curve is not None else (None, None, [])
    if full is not None and sizes and can_truncate(full):
        step = max(1, len(lines) // CURVE_LINES)
        sample = lines[::step]
        for n, size in enumerate(sizes):
            yield Progress("curve", n, len(sizes))
            cut = truncate_tokenizer(full, size)
            counts = Counter(chain.from_iterable(cut.encode_batch_ids(sample)))
            points.append((cut.vocab_size, renyi_efficiency(counts.values(), alpha)))
        yield Progress("curve", len(sizes), len(sizes))
    about = {
        "corpus": corpus_name or (source[1] if source[0] == "file" else "the text of the Compare panel"),
        "parallel": dict(parallel_files),
        "versions": versions(card.language),
    }
    return CardResult(card, points, curve_of if points else None, about)


def hygiene_job(tokenizer: Any, used: Mapping[int, int] | None) -> Generator[Progress, None, Any]:
    """The Vocabulary panel's hygiene lists (:func:`core.measures.vocabulary_hygiene`) in a worker:
    a 200,000-token vocabulary takes seconds. ``used``: id -> uses on the corpus, or None."""
    from core.measures import vocabulary_hygiene

    yield Progress("hygiene", 0, 1)
    found = vocabulary_hygiene(tokenizer, used)
    yield Progress("hygiene", 1, 1)
    return found
