"""Mistral's ``tekken.json``: tiktoken-style ranks, their split pattern and special tokens, in one JSON file.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> ranks = [bytes([b]) for b in range(256)] + [b"Hi"]
    >>> _ = Path(folder.name, "tekken.json").write_text(json.dumps({
    ...     "config": {"pattern": r"\\S+|\\s+", "default_vocab_size": 260,
    ...                "default_num_special_tokens": 3, "version": "v7"},
    ...     "vocab": [{"rank": i, "token_bytes": base64.b64encode(t).decode()} for i, t in enumerate(ranks)],
    ...     "special_tokens": [{"rank": i, "token_str": s, "is_control": True}
    ...                        for i, s in enumerate(["<unk>", "<s>", "</s>"])]}))
    >>> tok = open_file(Path(folder.name, "tekken.json")).tokenizer
    >>> tok.encode("Hi").ids            # rank 256, shifted past the 3 special tokens
    [259]

The file, as mistral-common's ``Tekkenizer.from_file`` reads it::

    {"config": {"pattern": "...", "default_vocab_size": 131072,
                "default_num_special_tokens": 1000, "version": "v7", ...},
     "vocab": [{"rank": 0, "token_bytes": "<base64>", "token_str": "..."}, ...],
     "special_tokens": [{"rank": 0, "token_str": "<unk>", "is_control": true}, ...]}

Steps of loading:

1. ids ``0 .. N-1`` (``N = default_num_special_tokens``) are the special tokens:
   the file's list, then ``<SPECIAL_i>`` fillers up to N. A file of version v7 or
   older without a list gets the 20 that mistral-common used before files carried
   them (``<unk>``, ``<s>``, ``</s>``, ``[INST]``, ...);
2. the first ``default_vocab_size - N`` entries of ``vocab`` are the ranks (entry i
   must have rank i, and the first 256 be the single bytes); the rest is cut off;
3. text is encoded as tiktoken would with those ranks and the file's pattern, and
   each id is shifted by N (:class:`core.models.bpe.tiktoken.TiktokenBPE`, whose
   merge order only depends on the ranks' order, so the shift changes nothing else).

Special tokens spelled in the text are ordinary text, as mistral-common's ``encode``
has it; set the tokenizer's ``encode_special_tokens`` to False (``subword encode
--allow-special``) to have them recognised.

Leaves out: the image and audio settings (named in ``tok.extra["tekken"]["ignored"]``), and writing
(a project save keeps a copy of the file).
"""

from __future__ import annotations

import base64
import binascii
import json
from pathlib import Path

from core.errors import FormatError
from core.formats.common import Head, LoadedTokenizer
from core.limits import loads_json

SPECIAL_FILLER = "<SPECIAL_{id}>"
# mistral-common's special tokens of v7 and older files, which do not list them (ids 0..19).
OLD_SPECIAL_TOKENS = (
    "<unk>",
    "<s>",
    "</s>",
    "[INST]",
    "[/INST]",
    "[AVAILABLE_TOOLS]",
    "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    "[TOOL_CALLS]",
    "[IMG]",
    "<pad>",
    "[IMG_BREAK]",
    "[IMG_END]",
    "[PREFIX]",
    "[MIDDLE]",
    "[SUFFIX]",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
)


def find_in_folder(folder: Path) -> Path | None:
    from core.formats.common import one_file

    path = folder / "tekken.json"
    return path if path.is_file() else one_file(folder, "*tekken*.json")


def sniff(head: Head) -> bool:
    """A JSON object whose first keys are tekken's (``config`` with ``default_num_special_tokens``,
    ``vocab`` entries with ``token_bytes``)."""
    return head.stripped.startswith(b"{") and (
        b'"default_num_special_tokens"' in head.data or b'"token_bytes"' in head.data
    )


def open_file(path: Path, pattern: str | None = None) -> LoadedTokenizer:
    """``pattern`` replaces the file's own split pattern when given."""
    tok = load_tekken(path, pattern)
    return LoadedTokenizer(tok, "tekken", path, [])


def load_tekken(path: str | Path, pattern: str | None = None):
    """A ``tekken.json`` as a Tokenizer that encodes as mistral-common's ``Tekkenizer``."""
    from core.errors import ConfigError
    from core.formats.tiktoken_ranks import tiktoken_tokenizer
    from core.limits import MAX_VOCAB_SIZE, check_bound

    path = Path(path)
    d = _read_json(path)
    config = d.get("config")
    if not isinstance(config, dict):
        raise FormatError(f'{path}: no "config" object: not a tekken file')
    for key in ("pattern", "default_vocab_size", "default_num_special_tokens", "version"):
        if key not in config:
            raise FormatError(f"{path}: config has no {key!r}")
    version = str(config["version"])
    if not (version[:1] == "v" and version[1:].isdigit()):
        raise FormatError(f"{path}: version {version!r} is not 'v' and a number")
    n_special, vocab_size = config["default_num_special_tokens"], config["default_vocab_size"]
    if not (isinstance(n_special, int) and isinstance(vocab_size, int) and 0 <= n_special <= vocab_size):
        raise FormatError(f"{path}: default_num_special_tokens and default_vocab_size are not sizes")
    check_bound(vocab_size, MAX_VOCAB_SIZE, "default_vocab_size", str(path))  # ranges are allocated by it
    specials = _special_tokens(d.get("special_tokens"), int(version[1:]), n_special, path)
    ranks = _ranks(d.get("vocab"), vocab_size - n_special, path)
    shifted = {token: rank + n_special for token, rank in ranks.items()}
    try:
        tok = tiktoken_tokenizer(shifted, pattern or config["pattern"], specials)
    except ConfigError as e:
        raise FormatError(f"{path}: {e}") from None
    tok.encode_special_tokens = True
    tok.extra["tekken"] = {"version": version, "num_special_tokens": n_special}
    tok.extra.pop("tiktoken", None)  # not a plain rank file: saves must not take it for one
    tok.extra["source"] = str(path)
    # the exact original, which a project save keeps beside its approximate tokenizer.json
    tok.extra["source_file"] = {"format": "tekken", "name": path.name, "data": path.read_bytes()}
    ignored = [key for key in ("image", "audio", "multimodal") if key in d]
    if ignored:
        tok.extra["tekken"]["ignored"] = ignored  # settings of other modalities
    return tok


def _read_json(path: Path) -> dict:
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as e:
        raise FormatError(f"{path}: cannot read ({e.strerror or e})") from None
    except UnicodeDecodeError as e:
        raise FormatError(f"{path} is not UTF-8 text (byte {e.start})") from None
    try:
        d = loads_json(text, str(path))
    except json.JSONDecodeError as e:
        raise FormatError(f"{path} is truncated or not valid JSON (line {e.lineno}: {e.msg})") from None
    if not isinstance(d, dict):
        raise FormatError(f"{path}: not a JSON object")
    return d


def _special_tokens(items, version: int, n_special: int, path: Path) -> dict[str, int]:
    """content -> id of the special tokens, fillers included (step 1)."""
    if items is None:
        if version > 7:
            raise FormatError(f"{path}: a v{version} tekken file must list its special tokens")
        names = list(OLD_SPECIAL_TOKENS)
    else:
        if not isinstance(items, list) or not all(
            isinstance(t, dict) and isinstance(t.get("token_str"), str) and t["token_str"] for t in items
        ):
            raise FormatError(f"{path}: special_tokens is not a list of {{rank, token_str}} objects")
        names = [t["token_str"] for t in items]
        for i, t in enumerate(items):
            if t.get("rank", i) != i:
                raise FormatError(
                    f"{path}: special token {t['token_str']!r} has rank {t.get('rank')}, not {i}"
                )
    if len(set(names)) != len(names):
        raise FormatError(f"{path}: a special token is listed twice")
    if len(names) > n_special:
        raise FormatError(
            f"{path}: {len(names)} special tokens but default_num_special_tokens is {n_special}"
        )
    names += [SPECIAL_FILLER.format(id=i) for i in range(len(names), n_special)]
    return {name: i for i, name in enumerate(names)}


def _ranks(items, size: int, path: Path) -> dict[bytes, int]:
    """bytes -> rank of the first ``size`` vocab entries (step 2)."""
    if not isinstance(items, list):
        raise FormatError(f'{path}: no "vocab" list')
    if len(items) < size:
        raise FormatError(f"{path}: {len(items)} vocab entries, fewer than the {size} the config needs")
    ranks: dict[bytes, int] = {}
    for i, entry in enumerate(items[:size]):
        try:
            rank, token = entry["rank"], base64.b64decode(entry["token_bytes"], validate=True)
        except (KeyError, TypeError, binascii.Error, ValueError):
            raise FormatError(f"{path}: vocab entry {i} is not {{rank, token_bytes (base64)}}") from None
        if rank != i:
            raise FormatError(f"{path}: vocab entry {i} has rank {rank}")
        if i < 256 and token != bytes([i]):
            raise FormatError(f"{path}: vocab entry {i} must be the single byte {i:#04x}")
        if token in ranks:
            raise FormatError(f"{path}: token {token!r} has ranks {ranks[token]} and {i}")
        ranks[token] = i
    return ranks
