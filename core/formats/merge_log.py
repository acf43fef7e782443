"""Export a training run's merge log (its :class:`~core.events.MergeEvent` list) as CSV or JSON lines.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> run = []
    >>> _ = drain(train_from_counts({"hug": 10, "pug": 5}, TrainOptions("bpe", vocab_size=9)), on_event=run.append)
    >>> events = [e for e in run if isinstance(e, MergeEvent)]
    >>> save_merge_log(events, Path(folder.name, "merges.csv"))          # format from the extension
    >>> save_merge_log(events, Path(folder.name, "merges.jsonl"))
    >>> Path(folder.name, "merges.csv").read_text(encoding="utf-8-sig").splitlines()[:2]
    ['step,left,right,new_token,count,score,vocab_size,tie', '1,u,g,ug,15,15.0,6,false']

One row per merge, in step order, columns :data:`COLUMNS`. CSV is written with
Python's ``csv`` module (tokens holding commas, quotes or line breaks are
quoted) in UTF-8 with a BOM so spreadsheet programs read Korean correctly;
JSON lines have one object per line, non-ASCII kept as is. Files are written
atomically: an existing file is replaced only once the new one is complete.

Leaves out: Unigram rounds (they are not merges).
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable
from pathlib import Path

from core.atomic import write_atomic
from core.errors import ConfigError, FormatError
from core.events import MergeEvent
from core.limits import loads_json

COLUMNS = ("step", "left", "right", "new_token", "count", "score", "vocab_size", "tie")
FORMATS = ("csv", "jsonl")


def _row(e: MergeEvent) -> dict:
    return {
        "step": e.step,
        "left": e.left,
        "right": e.right,
        "new_token": e.new_token,
        "count": e.count,
        "score": e.score,
        "vocab_size": e.vocab_size,
        "tie": e.tie,
    }


def merge_log_csv(events: Iterable[MergeEvent]) -> str:
    """The log as CSV text (header first).

    >>> merge_log_csv([MergeEvent(1, "u", "g", "ug", 20, 12, 20.0)]).splitlines()[1]
    '1,u,g,ug,20,20.0,12,false'
    """
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    for e in events:
        r = _row(e)
        w.writerow([str(r[c]).lower() if c == "tie" else r[c] for c in COLUMNS])
    return buf.getvalue()


def merge_log_jsonl(events: Iterable[MergeEvent]) -> str:
    """The log as JSON lines.

    >>> merge_log_jsonl([MergeEvent(1, "u", "g", "ug", 20, 12, 20.0)])
    '{"step": 1, "left": "u", "right": "g", "new_token": "ug", "count": 20, "score": 20.0, "vocab_size": 12, "tie": false}\\n'
    """
    return "".join(json.dumps(_row(e), ensure_ascii=False) + "\n" for e in events)


def save_merge_log(events: Iterable[MergeEvent], path: str | os.PathLike, format: str | None = None) -> None:
    """Write the log; ``format`` is ``"csv"`` or ``"jsonl"`` (default: from the file's extension)."""
    path = Path(path)
    if format is None:
        format = "jsonl" if path.suffix.lower() in (".jsonl", ".json", ".ndjson") else "csv"
    if format not in FORMATS:
        raise ConfigError(f"merge log format must be one of {', '.join(FORMATS)}, not {format!r}")
    events = [e for e in events if isinstance(e, MergeEvent)]
    text = merge_log_csv(events) if format == "csv" else merge_log_jsonl(events)
    if format == "csv":
        text = "\ufeff" + text
    write_atomic(path, text)


def load_merge_log(path: str | os.PathLike) -> list[MergeEvent]:
    """Read back a log written by :func:`save_merge_log` (either format)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise FormatError(f"{path}: cannot read the merge log ({e})") from None
    try:
        if text.lstrip().startswith("{"):
            rows = [loads_json(line, str(path)) for line in text.splitlines() if line.strip()]
        else:
            reader = csv.DictReader(io.StringIO(text))
            if tuple(reader.fieldnames or ()) != COLUMNS:
                raise FormatError(f"{path}: not a merge log (header {reader.fieldnames})")
            rows = list(reader)
        return [
            MergeEvent(
                int(r["step"]),
                r["left"],
                r["right"],
                r["new_token"],
                int(r["count"]),
                int(r["vocab_size"]),
                float(r["score"]),
                r["tie"] in (True, "true"),
            )
            for r in rows
        ]
    except (
        ValueError,
        KeyError,
        TypeError,
        OverflowError,
    ) as e:  # (1e400 is read as inf; int(inf) overflows)
        raise FormatError(f"{path}: not a merge log ({e})") from None
