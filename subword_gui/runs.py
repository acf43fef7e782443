"""The session's training runs, and the last one kept on disk for the next launch.

    >>> import tempfile
    >>> from pathlib import Path
    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> options = TrainOptions("bpe", vocab_size=11)
    >>> tok = drain(train_from_counts({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, options))
    >>> data_dir = Path(tempfile.mkdtemp())
    >>> run = Run(1, "Run 1", tok, options, corpus="hug.txt", duration_s=4.2)
    >>> folder = save_last_run(run, data_dir, shown_vocab_size=9)   # <data_dir>/runs/<stamp>/
    >>> folder.parent == data_dir / "runs", sorted(p.name for p in folder.iterdir())
    (True, ['tokenizer.json', 'training.json'])
    >>> restored, shown = load_last_run(data_dir)                   # (Run, 9), or None
    >>> restored.name, restored.corpus, shown, restored.tokenizer.encode("hugs").tokens
    ('Run 1', 'hug.txt', 9, ['hug', 's'])
    >>> forget_last_run(data_dir)                                   # the next launch starts empty
    >>> load_last_run(data_dir) is None
    True

Every finished training run is a :class:`Run`: the trained tokenizer (uncut),
its options, the corpus it was counted from, how long it took and its final
figures. ``AppState.runs`` holds them for the session; the Runs panel lists them.

On disk a run is a project folder (:mod:`core.formats.project`: ``tokenizer.json``,
its merge log or Unigram rounds, and the ``training.json`` sidecar, whose ``extra``
carries the name, duration, figures, the held-out curve and the slider's position). Saving is all-or-nothing: the folder is
written under a fresh name, then one small pointer file, ``last-run.json``, is
swapped in atomically to name it, and only then are older folders removed. A
crash at any point leaves either the old run or the new one, never half of one.
A folder kept by an older version has no log: the run comes back without one.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from core.atomic import write_atomic
from core.errors import FormatError, SubwordError

POINTER = "last-run.json"
RUNS_DIR = "runs"
RESTART_POINTER = "restart-runs.json"  # the other runs of a session restarted for its language
RESTART_DIR = "restart"
DEFAULT_KEEP_MB = 500  # the runs kept between launches take at most this much disk (Runs panel)
KEEP_SETTING = "runs/keep_mb"


@dataclass
class Run:
    """One finished training run (or a tokenizer restored from the last session)."""

    id: int
    name: str
    tokenizer: object  # core.tokenizer.Tokenizer, the full (uncut) model
    options: object = None  # core.options.TrainOptions | None (None: opened from a file)
    corpus: str = ""  # path (or name) of the corpus it was counted from
    corpus_words: int = 0
    duration_s: float = 0.0
    stop_reason: str | None = None
    merge_events: list = field(default_factory=list)
    round_events: list = field(default_factory=list)  # UnigramRounds (Unigram runs)
    # final figures on held-out text: {"tokens_per_word": 1.8, "chars_per_token": 2.1, "on": "held-out lines"}
    figures: dict = field(default_factory=dict)
    # the held-out curve (background.jobs.CurvePoint), measured after training
    curve: list = field(default_factory=list)
    finished_at: float = field(default_factory=time.time)
    saved_to: str | None = None
    restored: bool = False  # from the previous session
    # (number, algorithm label, vocab size) of a default name the user has not changed: the name
    # is said again in the interface's language when the run comes back (default_run_name)
    default_name: tuple | None = None
    # what could not be restored with it (a damaged merge log), said once when it comes back
    restore_warning: str | None = None

    @property
    def algorithm(self) -> str:
        if self.options is not None:
            return self.options.algorithm
        return type(self.tokenizer.model).__name__

    @property
    def vocab_size(self) -> int:
        return self.tokenizer.vocab_size


def default_run_name(
    number: int, algorithm_label: str, vocab_size: int, template: str = "Run {0}: {1} {2}"
) -> str:
    """The name a new run gets until the user renames it (``template``: the translated wording).

    >>> default_run_name(3, "Unigram", 4000)
    'Run 3: Unigram 4,000'
    """
    return template.format(number, algorithm_label, f"{vocab_size:,}")


def next_run_number(names: list[str], template: str = "Run {0}: {1} {2}") -> int:
    """The number for a new run's default name: one more than the highest number the runs'
    default-style names carry (a run restored at launch keeps its "Run 8"), and than their count.

    >>> next_run_number(["Run 8: BPE 8,000"]), next_run_number(["mine", "Run 2: BPE 300"])
    (9, 3)
    """
    highest = len(names)
    prefixes = {template.split("{0}")[0], "Run "}  # the wording in use, and the English one
    for name in names:
        for prefix in prefixes:
            found = re.match(r"\d+", name[len(prefix) :]) if prefix and name.startswith(prefix) else None
            if found:
                highest = max(highest, int(found.group()))
    return highest + 1


def save_last_run(run: Run, data_dir: str | Path, shown_vocab_size: int | None = None) -> Path:
    """Write ``run`` as the one to restore at the next launch; returns its folder.

    All-or-nothing (see the module docstring): a failure leaves the previous run in place.
    """
    data_dir = Path(data_dir)
    runs = data_dir / RUNS_DIR
    runs.mkdir(parents=True, exist_ok=True)
    folder = runs / f"{time.strftime('%Y%m%d-%H%M%S')}-{time.monotonic_ns() % 1_000_000:06d}"
    try:
        write_run_project(run, folder, shown_vocab_size)
        write_atomic(data_dir / POINTER, json.dumps({"folder": folder.name}) + "\n")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    for old in runs.iterdir():  # only now is the previous run no longer needed
        if old != folder and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
    return folder


def save_restart_runs(runs: list[Run], data_dir: str | Path, limit_bytes: int | None = None) -> list[str]:
    """Keep ``runs`` (the session's runs besides the shown one, oldest first) for the next launch,
    in at most ``limit_bytes`` on disk (None: no bound): the newest are written first and the
    oldest that do not fit are dropped; returns the names of those dropped, which the next launch
    also reads (:func:`take_kept_runs`). All-or-nothing: the pointer file naming them is written
    last; a failure leaves none."""
    data_dir = Path(data_dir)
    root = data_dir / RESTART_DIR
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    try:
        kept: list[str] = []
        dropped: list[str] = []
        used = 0
        for i in range(len(runs) - 1, -1, -1):  # newest first: the oldest are the ones to go
            run = runs[i]
            if limit_bytes is not None and (dropped or used >= limit_bytes):
                dropped.insert(0, run.name)
                continue
            folder = root / f"{i:03d}"
            write_run_project(run, folder)
            size = _size_on_disk(folder)
            if limit_bytes is not None and used + size > limit_bytes:
                shutil.rmtree(folder, ignore_errors=True)
                dropped.insert(0, run.name)
                continue
            used += size
            kept.insert(0, folder.name)
        write_atomic(data_dir / RESTART_POINTER, json.dumps({"folders": kept, "dropped": dropped}) + "\n")
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise
    return dropped


def _size_on_disk(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def take_restart_runs(data_dir: str | Path) -> list[Run]:
    """The runs :func:`save_restart_runs` kept, once (removed as they are taken); [] if none."""
    return take_kept_runs(data_dir)[0]


def take_kept_runs(data_dir: str | Path) -> tuple[list[Run], list[str]]:
    """The runs :func:`save_restart_runs` kept and the names of those it dropped to stay within
    its bound, once (removed as they are taken); ``([], [])`` if none."""
    data_dir = Path(data_dir)
    pointer = data_dir / RESTART_POINTER
    if not pointer.is_file():
        return [], []
    try:
        kept = json.loads(pointer.read_text(encoding="utf-8"))
        runs = [_read_run(data_dir / RESTART_DIR / str(name))[0] for name in kept["folders"]]
        dropped = [str(name) for name in kept.get("dropped") or []]
    except (OSError, ValueError, KeyError, TypeError, AttributeError, SubwordError) as exc:
        raise FormatError(f"{pointer}: the runs kept for this launch cannot be read ({exc})") from None
    finally:
        forget_restart_runs(data_dir)  # taken once, read or not: a bad one must not come back
    return runs, dropped


def forget_restart_runs(data_dir: str | Path) -> None:
    """Drop what :func:`save_restart_runs` kept (pointer first, as in :func:`forget_last_run`)."""
    data_dir = Path(data_dir)
    (data_dir / RESTART_POINTER).unlink(missing_ok=True)
    shutil.rmtree(data_dir / RESTART_DIR, ignore_errors=True)


def write_run_project(run: Run, folder: Path, shown_vocab_size: int | None = None) -> None:
    """One run as a project folder: its whole tokenizer, its merge log and Unigram rounds, and a
    training record that says why it stopped, its size, duration and figures (Runs › Save… as a
    project folder writes the same as a relaunch keeps)."""
    from core.formats.project import TrainingLog, TrainingRecord, save_project

    record = TrainingRecord.from_run(
        [run.corpus] if run.corpus else [],
        run.options if run.options is not None else {},
        name=run.name,
        duration_s=round(run.duration_s, 3),
        corpus_words=run.corpus_words,
        figures=dict(run.figures),
        shown_vocab_size=shown_vocab_size,
        default_name=list(run.default_name) if run.default_name else None,
        curve=[[p.vocab_size, p.tokens_per_word, p.chars_per_token, p.unk_rate] for p in run.curve],
    )
    record.stop_reason = run.stop_reason
    record.vocab_size = run.vocab_size
    save_project(run.tokenizer, folder, record, TrainingLog(run.merge_events, run.round_events))


def load_last_run(data_dir: str | Path) -> tuple[Run, int | None] | None:
    """The run the last session left (and where its slider stood), or None if there is none.

    A damaged folder raises ``FormatError`` naming the file; nothing is changed on disk.
    """
    data_dir = Path(data_dir)
    pointer = data_dir / POINTER
    if not pointer.is_file():
        return None
    try:
        name = json.loads(pointer.read_text(encoding="utf-8"))["folder"]
    except (OSError, ValueError, KeyError, TypeError):
        raise FormatError(f"{pointer} is damaged (it should name the last run's folder)") from None
    folder = data_dir / RUNS_DIR / str(name)
    if not folder.is_dir():
        raise FormatError(f"{pointer} names {folder}, which is gone")
    return _read_run(folder)


def _read_run(folder: Path) -> tuple[Run, int | None]:
    """A run written by :func:`write_run_project`, and the slider's size kept with it."""
    from core.formats.project import TrainingLog, load_project, load_training_log
    from core.options import TrainOptions

    tokenizer, record = load_project(folder)
    warning = None
    try:
        log = load_training_log(folder)
    except FormatError as exc:  # the tokenizer is whole: it comes back without its log
        log, warning = TrainingLog(), f"{exc}; the run is restored without its log"
    options = None
    if record.options:
        try:
            options = TrainOptions(**record.options)
        except (TypeError, ValueError, SubwordError) as exc:
            raise FormatError(f"{folder / 'training.json'}: bad training options ({exc})") from None
    extra = record.extra if isinstance(record.extra, dict) else {}
    try:
        run = _restored_run(folder, tokenizer, record, extra, options, log)
    except (TypeError, ValueError, OverflowError) as exc:  # a hand-edited sidecar: "duration_s": [1]
        raise FormatError(f"{folder / 'training.json'}: a field of the wrong type ({exc})") from None
    run.restore_warning = warning
    shown = extra.get("shown_vocab_size")
    return run, int(shown) if isinstance(shown, int) else None


def _restored_run(folder: Path, tokenizer, record, extra: dict, options, log) -> Run:
    """The :class:`Run` a kept folder describes (TypeError or ValueError when a field is not
    of its kind)."""
    return Run(
        id=0,
        name=str(extra.get("name") or folder.name),
        tokenizer=tokenizer,
        options=options,
        corpus=record.corpus[0] if record.corpus else "",
        corpus_words=int(extra.get("corpus_words") or 0),
        duration_s=float(extra.get("duration_s") or 0.0),
        stop_reason=record.stop_reason,
        figures=dict(extra.get("figures") or {}),
        merge_events=log.merges,
        round_events=log.rounds,
        curve=_curve(extra.get("curve"), folder),
        saved_to=None,
        restored=True,
        default_name=_default_name(extra.get("default_name")),
    )


def _default_name(parts) -> tuple | None:
    """The parts of a default name kept in the sidecar, or None (renamed, or an older sidecar).

    >>> _default_name([3, "Unigram", 4000]), _default_name(None)
    ((3, 'Unigram', 4000), None)
    """
    try:
        number, label, vocab_size = parts
        return (int(number), str(label), int(vocab_size))
    except (TypeError, ValueError):
        return None


def _curve(rows, folder: Path) -> list:
    """The held-out curve kept in the sidecar: ``[[vocab_size, tokens/word, chars/token, unk rate], ...]``.

    >>> _curve([[100, 1.5, 2.25, 0.0]], Path("run"))[0].chars_per_token
    2.25
    """
    from subword_gui.background.jobs import CurvePoint

    try:
        return [CurvePoint(int(v), float(t), float(c), float(u)) for v, t, c, u in rows or []]
    except (TypeError, ValueError):
        raise FormatError(f"{folder / 'training.json'}: a bad held-out curve") from None


def forget_last_run(data_dir: str | Path) -> None:
    """Keep nothing for the next launch (the user discarded the run that was kept).

    The pointer goes first, so a crash half-way leaves no pointer to a half-removed folder."""
    data_dir = Path(data_dir)
    try:
        (data_dir / POINTER).unlink()
    except FileNotFoundError:
        pass
    shutil.rmtree(data_dir / RUNS_DIR, ignore_errors=True)
