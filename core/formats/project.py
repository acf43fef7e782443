"""The project's own save: a folder that keeps the whole tokenizer and how it was trained.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> opts = TrainOptions("bpe", vocab_size=10)
    >>> tok = drain(train_from_counts({"hug": 10, "pug": 5, "hugs": 5}, opts))
    >>> _ = save_project(tok, folder.name, TrainingRecord(corpus=["ko.txt"], options=opts.to_dict()))
    >>> tok, record = load_project(folder.name)
    >>> tok.encode("hugs").tokens, record.corpus
    (['hugs'], ['ko.txt'])

The folder holds:

- ``tokenizer.json``: the whole pipeline (see :mod:`core.formats.hf_json`), so
  `tokenizers` can load it too;
- ``training.json``: the sidecar, :class:`TrainingRecord` (corpus paths, the
  training options, date, engine version, why training stopped, and anything
  the caller adds under ``extra``);
- when the caller passes a :class:`TrainingLog`: ``merges.jsonl``, the merge log
  (one :class:`~core.events.MergeEvent` per line, the format of
  :mod:`core.formats.merge_log`), and ``unigram-rounds.jsonl``, the Unigram rounds
  (one :class:`~core.events.UnigramRound` per line). A project without them (older
  ones, or one saved from an opened file) reads as an empty log;
- for a tokenizer opened from a SentencePiece ``.model``, a tiktoken rank file,
  a ``tekken.json``, CLIP's merges or subword-nmt codes, a copy of that file (``source.model`` /
  ``source.tiktoken`` / ``source-<name>``): a ``tokenizer.json`` can only
  approximate those, so loading prefers the copy.

The folder is written all or nothing (:func:`core.atomic.save_folder`): a reader
sees the complete earlier project or the complete new one, never a mix.

Leaves out: the corpus itself (only its paths).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core import __version__ as ENGINE_VERSION
from core.atomic import write_atomic
from core.errors import ConfigError, FormatError
from core.events import MergeEvent, UnigramRound
from core.limits import loads_json

SIDECAR = "training.json"
TOKENIZER = "tokenizer.json"
MERGE_LOG = "merges.jsonl"
ROUNDS_LOG = "unigram-rounds.jsonl"
PROJECT_FORMAT = "subword-explorer-project"
PROJECT_FORMAT_VERSION = 1


@dataclass
class TrainingRecord:
    """How a tokenizer was trained. ``options`` is ``TrainOptions.to_dict()``."""

    corpus: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    date: str = ""  # ISO 8601, UTC; filled in on save when empty
    engine_version: str = ENGINE_VERSION
    stop_reason: str | None = None
    vocab_size: int | None = None
    requested_vocab_size: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_run(cls, corpus, options, stopped=None, **extra) -> TrainingRecord:
        """Build from a run: ``options`` a TrainOptions, ``stopped`` its TrainingStopped event (or None)."""
        corpus = [str(corpus)] if isinstance(corpus, (str, os.PathLike)) else [str(c) for c in corpus or []]
        return cls(
            corpus=corpus,
            options=options.to_dict() if hasattr(options, "to_dict") else dict(options or {}),
            stop_reason=getattr(stopped, "reason", None),
            vocab_size=getattr(stopped, "vocab_size", None),
            requested_vocab_size=getattr(stopped, "requested_vocab_size", None),
            extra=extra,
        )

    def to_dict(self) -> dict:
        return {"format": PROJECT_FORMAT, "format_version": PROJECT_FORMAT_VERSION, **asdict(self)}

    @classmethod
    def from_dict(cls, d: dict, source: str = SIDECAR) -> TrainingRecord:
        if not isinstance(d, dict) or d.get("format") != PROJECT_FORMAT:
            raise FormatError(
                f'{source} is not a Subword Explorer training record (no "format": {PROJECT_FORMAT!r})'
            )
        known = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        for key, value in known.items():
            kinds, meaning = _FIELD_KINDS[key]
            if not isinstance(value, kinds) or isinstance(value, bool) and bool not in kinds:
                raise FormatError(f'{source}: "{key}" must be {meaning}, not {_json_kind(value)}')
        if not all(isinstance(c, str) for c in known.get("corpus", [])):
            raise FormatError(f'{source}: "corpus" must be a list of paths (strings)')
        return cls(**known)


# What each field of a training record must be when a file holds it (a colleague's project may
# hold anything; a wrong type surfaced later as a traceback in a save or in the explorer).
_FIELD_KINDS: dict[str, tuple[tuple[type, ...], str]] = {
    "corpus": ((list,), "a list of paths"),
    "options": ((dict,), "an object"),
    "date": ((str,), "a string"),
    "engine_version": ((str,), "a string"),
    "stop_reason": ((str, type(None)), "a string or null"),
    "vocab_size": ((int, type(None)), "a whole number or null"),
    "requested_vocab_size": ((int, type(None)), "a whole number or null"),
    "extra": ((dict,), "an object"),
}


def _json_kind(value: object) -> str:
    """What JSON calls ``value``'s type: ``_json_kind([1]) -> 'an array'``."""
    kinds = {dict: "an object", list: "an array", str: "a string", bool: "true/false", type(None): "null"}
    return kinds.get(type(value), "a number")


@dataclass
class TrainingLog:
    """What a run's trainer reported, step by step: its merges (BPE, WordPiece) or its
    Unigram rounds. Empty for a tokenizer that was not trained here."""

    merges: list[MergeEvent] = field(default_factory=list)
    rounds: list[UnigramRound] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.merges or self.rounds)


def _rounds_jsonl(rounds) -> str:
    """Unigram rounds as JSON lines (``removed`` as ``[piece, loss increase]`` pairs).

    >>> _rounds_jsonl([UnigramRound("prune", 1, 90, 12.5, (("ab", 0.25),))])
    '{"phase": "prune", "round": 1, "vocab_size": 90, "loss": 12.5, "removed": [["ab", 0.25]]}\\n'
    """
    return "".join(
        json.dumps(
            {
                "phase": r.phase,
                "round": r.round,
                "vocab_size": r.vocab_size,
                "loss": r.loss,
                "removed": [list(pair) for pair in r.removed],
            },
            ensure_ascii=False,
        )
        + "\n"
        for r in rounds
    )


def load_training_log(folder: str | os.PathLike) -> TrainingLog:
    """The merge log and Unigram rounds kept in a project folder (empty where absent);
    FormatError naming the file if one is damaged."""
    from core.formats.merge_log import load_merge_log

    folder = Path(folder)
    log = TrainingLog()
    if (folder / MERGE_LOG).is_file():
        log.merges = load_merge_log(folder / MERGE_LOG)
    path = folder / ROUNDS_LOG
    if path.is_file():
        try:
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    d = loads_json(line, str(path))
                    log.rounds.append(
                        UnigramRound(
                            str(d["phase"]),
                            int(d["round"]),
                            int(d["vocab_size"]),
                            float(d["loss"]),
                            tuple((str(p), float(x)) for p, x in d.get("removed") or ()),
                        )
                    )
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, OverflowError) as e:
            raise FormatError(f"{path}: not a log of Unigram rounds ({e})") from None
    return log


def is_project(folder: str | os.PathLike) -> bool:
    """True if ``folder`` looks like a saved project (a sidecar naming our format)."""
    sidecar = Path(folder) / SIDECAR
    if not sidecar.is_file():
        return False
    try:
        return json.loads(sidecar.read_text(encoding="utf-8")).get("format") == PROJECT_FORMAT
    except (OSError, ValueError, AttributeError, RecursionError):
        return False


def save_project(
    tok, folder: str | os.PathLike, record: TrainingRecord | None = None, log: TrainingLog | None = None
) -> Path:
    """Write the project folder (created if needed), all or nothing; returns its path.

    ``log``: the run's merge log and Unigram rounds, kept beside the tokenizer (an earlier
    project's log does not survive a save without one).

    The folder's earlier tokenizer files are replaced together (see ``core.atomic.save_folder``):
    a reader sees the whole old project or the whole new one, and a ``source.model``
    of an earlier project does not survive beside a new one that has none. Files of
    other programs in it are left alone.
    """
    from core.atomic import MODEL_FILES, save_folder
    from core.formats.hf_json import save_tokenizer_json

    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{folder} is a file; a project is saved as a folder")
    record = record or TrainingRecord()
    if not record.date:
        record.date = datetime.now(UTC).replace(microsecond=0).isoformat()
    # an earlier project's copy of its source file (source-tekken.json ...) goes too, unless rewritten
    earlier_sources = [p.name for p in folder.glob("source-*")] if folder.is_dir() else []
    logs = (MERGE_LOG, ROUNDS_LOG)
    with save_folder(folder, replaces=(*MODEL_FILES, *logs, *earlier_sources)) as stage:
        # 1. the tokenizer, readable by `tokenizers` too
        save_tokenizer_json(tok, stage / TOKENIZER)
        # 2. the exact original of formats tokenizer.json only approximates
        source = _save_source(tok, stage)
        if source:
            record.extra = dict(record.extra, source=source)
        else:
            record.extra = {k: v for k, v in record.extra.items() if k != "source"}
        # 3. how it was learned, step by step
        if log is not None and log.merges:
            from core.formats.merge_log import merge_log_jsonl

            write_atomic(stage / MERGE_LOG, merge_log_jsonl(log.merges))
        if log is not None and log.rounds:
            write_atomic(stage / ROUNDS_LOG, _rounds_jsonl(log.rounds))
        # 4. the sidecar
        write_atomic(stage / SIDECAR, json.dumps(record.to_dict(), ensure_ascii=False, indent=2) + "\n")
    return folder


def _save_source(tok, folder: Path) -> dict | None:
    extra = getattr(tok, "extra", {}) or {}
    if "sentencepiece_model" in extra:
        path = folder / "source.model"
        write_atomic(path, extra["sentencepiece_model"])
        return {"format": "sentencepiece", "file": path.name}
    if "tiktoken" in extra:
        from core.formats.tiktoken_ranks import ranks_of, write_ranks

        write_ranks(ranks_of(tok), folder / "source.tiktoken")
        return {"format": "tiktoken", "file": "source.tiktoken", "pattern": extra["tiktoken"]["pattern"]}
    if "source_file" in extra:  # any other format tokenizer.json only approximates (tekken, clip, codes)
        source = extra["source_file"]
        name = f"source-{source['name']}"
        write_atomic(folder / name, source["data"])
        return {"format": source["format"], "file": name}
    return None


def load_project(folder: str | os.PathLike):
    """``(Tokenizer, TrainingRecord)`` of a saved project; FormatError naming the bad file."""
    from core.formats.hf_json import load_tokenizer_json

    folder = Path(folder)
    sidecar = folder / SIDECAR
    if not sidecar.is_file():
        raise FormatError(f"{folder} is not a Subword Explorer project (no {SIDECAR})")
    try:
        d = loads_json(sidecar.read_text(encoding="utf-8"), str(sidecar))
    except UnicodeDecodeError as e:
        raise FormatError(f"{sidecar} is not UTF-8 text (byte {e.start})") from None
    except json.JSONDecodeError as e:
        raise FormatError(f"{sidecar} is truncated or not valid JSON (line {e.lineno}: {e.msg})") from None
    record = TrainingRecord.from_dict(d, str(sidecar))
    source = record.extra.get("source") if isinstance(record.extra, dict) else None
    path = _source_file(folder, source, sidecar)
    if path is not None and isinstance(source, dict):
        if source.get("format") == "sentencepiece":
            from core.formats.sentencepiece_model import load_sentencepiece

            return load_sentencepiece(path), record
        if source.get("format") == "tiktoken":
            from core.formats.tiktoken_ranks import rank_file_tokenizer

            return rank_file_tokenizer(path, source.get("pattern") or "cl100k_base")[0], record
        if source.get("format") in ("tekken", "clip", "subword-nmt"):
            from core.formats.registry import format_named

            return format_named(source["format"]).load_module().open_file(path).tokenizer, record
    return load_tokenizer_json(folder / TOKENIZER), record


def _source_file(folder: Path, source: object, sidecar: Path) -> Path | None:
    """The project's copy of its source file, if it has one; only a file inside ``folder``.

    subtle: a project folder may come from someone else, and ``extra.source.file`` set to
    ``../other/secret.model``, an absolute path or a link out of the folder would make the
    project encode with a tokenizer that is not its own, silently. A save writes a plain
    name (``source.model``), so anything else is refused in one line.
    """
    if not source:
        return None
    if not isinstance(source, dict) or not isinstance(source.get("file", ""), str):
        raise FormatError(f'{sidecar}: "extra.source" must be an object whose "file" is a file name')
    name = source.get("file", "")
    if not name:
        return None
    path = folder / name
    outside = name in (".", "..") or "/" in name or "\\" in name or "\0" in name
    if not outside:
        try:
            outside = not path.resolve().is_relative_to(folder.resolve())
        except (OSError, RuntimeError):  # a link loop
            outside = True
    if outside:
        raise FormatError(
            f"{sidecar}: the source file {name!r} is not a file inside the project folder; not followed"
        )
    return path if path.is_file() else None


# -- as a row of core.formats.registry ---------------------------------------------------------


def find_in_folder(folder: Path) -> Path | None:
    """The folder itself when it holds a sidecar."""
    return folder if (folder / SIDECAR).is_file() else None


def sniff(head) -> bool:
    return False  # a project is a folder, never recognised from one file's content


def open_file(path: Path, pattern: str | None = None):
    """Open the project at ``path`` (the folder, or its ``training.json``); ``pattern`` is unused."""
    from core.formats.common import LoadedTokenizer

    folder = path if path.is_dir() else path.parent
    tok, record = load_project(folder)
    return LoadedTokenizer(tok, "project", folder, list(tok.extra.get("warnings") or []), record)


def save_file(tok, path: Path, record: TrainingRecord | None = None) -> list[str]:
    save_project(tok, path, record)
    return []
