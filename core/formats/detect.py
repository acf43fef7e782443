"""Open any supported tokenizer file or folder, and save to any format, saying what it loses.

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> tok = drain(train_from_counts({"hug": 10, "pug": 5, "hugs": 5}, TrainOptions("bpe", vocab_size=10)))
    >>> save_tokenizer(tok, folder.name, "gpt2")[0]
    'vocab.json + merges.txt: no pre-tokenizer is stored; Whitespace is lost'
    >>> loaded = open_tokenizer(folder.name)        # a folder or a file
    >>> loaded.format, loaded.tokenizer.encode("hugs pug").tokens
    ('gpt2', ['hugs', 'pug'])

The formats, and the module that reads and writes each, are the rows of
:data:`core.formats.registry.FORMATS`; this module only chooses a row and calls it.

Detection (first match wins):

1. a folder: the first row, in table order, whose module finds its file there
   (``training.json``, ``tokenizer.json``, ``tekken.json``, ``vocab.json`` + ``merges.txt``,
   one ``*.model``, ``vocab.txt``, one ``*.tiktoken``, ``codes``/``*.codes``, CLIP's
   ``bpe_simple_vocab*.txt.gz``, one ``*.gguf``, one ``*.vocab``);
2. a file, by its name: the most specific glob of a row (``vocab.json`` before
   ``*tekken*.json`` before ``*.json``; ``*.model``, ``*.tiktoken``, ``*.codes``, ``*.vocab``...);
3. a file, by a look at its first bytes: each row's ``sniff`` in ``sniff_priority``
   order (tekken's or another JSON object, CLIP's gzip, GGUF's magic, a protobuf, ``base64 rank`` lines,
   ``piece<TAB>score`` lines,
   ``#version:`` or two units per line, one unit per line).

Every problem is one :class:`FormatError` naming the file.

A Hugging Face model folder's ``tokenizer_config.json`` / ``special_tokens_map.json`` /
``chat_template.jinja`` beside the opened file are read and applied too
(:mod:`core.formats.hf_config`: added tokens and their flags, named special tokens,
BOS/EOS, the chat template); opening ``tokenizer_config.json`` itself opens its folder.
"""

from __future__ import annotations

import os
from pathlib import Path

from core.atomic import recover_folder, save_folder
from core.errors import ConfigError, FormatError
from core.formats.common import Head, LoadedTokenizer
from core.formats.hf_config import (
    CONFIG_FILE,
    SPECIAL_MAP_FILE,
    apply_model_config,
    model_config_losses,
    read_model_config,
    save_model_config,
)
from core.formats.registry import FORMATS, LOAD_FORMATS, SAVE_FORMATS, format_for_name, format_named
from core.paths import require_regular_file

__all__ = [
    "LOAD_FORMATS",
    "SAVE_FORMATS",
    "LoadedTokenizer",
    "convert",
    "detect_format",
    "open_tokenizer",
    "save_tokenizer",
]


# -- detection ---------------------------------------------------------------------------


def detect_format(path: str | os.PathLike) -> tuple[str, Path]:
    """``(format, main_file_or_folder)`` of ``path``; FormatError when nothing fits."""
    path = Path(path)
    if not path.exists():
        raise FormatError(f"{path} does not exist")
    if path.is_dir():
        return _detect_folder(path)
    return _detect_file(path), path


def _detect_folder(folder: Path) -> tuple[str, Path]:
    for fmt in FORMATS:
        found = fmt.load_module().find_in_folder(folder)
        if found is not None:
            return fmt.name, found
    looked_for = ", ".join(f.folder_hint for f in FORMATS if f.folder_hint)
    raise FormatError(f"{folder}: no tokenizer found (looked for {looked_for})")


def _detect_file(path: Path) -> str:
    by_name = format_for_name(path.name)
    if by_name is not None:
        return by_name.name
    return _sniff(path)


def _sniff(path: Path) -> str:
    """Guess from the content of a file with an uninformative name."""
    head = Head.of(path)
    for fmt in sorted((f for f in FORMATS if f.sniff_priority > 0), key=lambda f: f.sniff_priority):
        if fmt.load_module().sniff(head):
            return fmt.name
    if head.binary:
        raise FormatError(f"{path} is a binary file that is not a SentencePiece model")
    raise FormatError(
        f"{path}: unrecognised tokenizer file (not JSON, codes, rank, .vocab or vocab.txt lines)"
    )


# -- opening -------------------------------------------------------------------------------


def open_tokenizer(
    path: str | os.PathLike,
    format: str | None = None,
    pattern: str | None = None,
    lowercase: bool | None = None,
) -> LoadedTokenizer:
    """Open a tokenizer file or folder; ``format`` skips detection, ``pattern`` is tiktoken's split
    pattern, ``lowercase`` (True/False) overrides the guess of a BERT vocab.txt's casing.

    Nothing is changed on disk (except that a save killed part-way in the folder is
    finished or undone first, so it never reads as two models: ``core.atomic``); any
    problem is a FormatError naming the file.
    """
    path = Path(path)
    # subtle: before any open: a FIFO would block the read forever
    require_regular_file(path, FormatError, "a tokenizer file or folder", allow_folder=True)
    if format is None and path.name.lower() in (CONFIG_FILE, SPECIAL_MAP_FILE):
        path = path.parent  # the settings of the tokenizer in that folder
    left_alone = recover_folder(path if path.is_dir() else path.parent)
    if format is None:
        format, main = detect_format(path)
    else:
        format_named(format)  # ConfigError for an unknown name
        if not path.exists():
            raise FormatError(f"{path} does not exist")
        main = path
        if path.is_dir() and format != "project":
            detected, main = _detect_folder(path)
            if detected != format:
                raise FormatError(f"{path}: asked for {format} but the folder holds {detected}")
    module = format_named(format).load_module()
    options = {}
    if lowercase is not None:
        if format != "bert":
            raise ConfigError(
                f"{path} is {format_named(format).title}, which records its own normalizer: "
                "--lowercase/--cased apply to a BERT vocab.txt"
            )
        options["lowercase"] = lowercase
    try:
        loaded = module.open_file(main, pattern=pattern, **options)
    except ConfigError as e:  # a model refusing what a file says is still a bad file
        raise FormatError(f"{main}: {e}") from None
    loaded.path = path
    loaded.warnings[:0] = left_alone
    if format not in _OWN_SETTINGS:
        _apply_model_config(loaded, main if main.is_dir() else main.parent, format)
    return loaded


# Formats whose file holds its own special tokens and template (a GGUF), so a config beside it is not theirs.
_OWN_SETTINGS = ("gguf",)


def _apply_model_config(loaded: LoadedTokenizer, folder: Path, format: str) -> None:
    """Read and apply the Hugging Face settings files in ``folder``; problems become warnings."""
    config, messages = read_model_config(folder)
    if config is not None:
        has_json = format in ("hf-json", "project")
        messages += apply_model_config(loaded.tokenizer, config, has_json, str(folder))
    loaded.warnings += messages


# -- saving -----------------------------------------------------------------------------------


def save_tokenizer(tok, path: str | os.PathLike, format: str, record=None) -> list[str]:
    """Write ``tok`` in ``format`` at ``path``; return what that format cannot carry.

    ``path`` is a folder for ``gpt2`` and ``project``, a file otherwise (a folder
    given for a file format gets the format's usual file name inside it). A file
    is replaced atomically; a folder all or nothing, losing the files of an earlier
    model saved there that this format does not write (see ``core.atomic.save_folder``). A tokenizer the format cannot hold at all (e.g. a
    WordPiece model as tiktoken ranks) is a ConfigError and nothing is written.
    """
    fmt = format_named(format, saving=True)
    path = Path(path)
    module = fmt.load_module()
    if not fmt.saves_folder and not path.parent.is_dir():
        raise ConfigError(f"cannot save to {path}: the folder {path.parent} does not exist")
    if path.is_dir() or (fmt.saves_folder and not path.exists()):
        # A folder is written all or nothing, and the files of an earlier model saved
        # there that this format does not write go in the same step (core.atomic).
        with save_folder(path) as stage:
            losses = module.save_file(tok, stage, record)
            if save_model_config(tok, stage):  # beside it, as in a Hugging Face model folder
                losses = [x for x in losses if _KEPT_IN_CONFIG not in x]
            return losses
    losses = module.save_file(tok, path, record)
    if "gguf" in (tok.extra or {}):  # the GGUF reader's own line names its template key
        return losses + [x for x in model_config_losses(tok, path.name) if "chat template" not in x]
    return losses + model_config_losses(tok, path.name)


# The GGUF reader's loss line for its chat template, which tokenizer_config.json keeps.
_KEPT_IN_CONFIG = "(tokenizer.chat_template) is not kept"


def convert(
    source: str | os.PathLike,
    target: str | os.PathLike,
    to: str,
    pattern: str | None = None,
    source_format: str | None = None,
    lowercase: bool | None = None,
) -> tuple[LoadedTokenizer, list[str]]:
    """Open ``source`` (any format) and save it as ``to`` at ``target``: ``(what was opened, losses)``.

    ``target`` is read as :meth:`core.formats.registry.Format.save_path` says: a name without an
    ending gets the format's (``uni-sp`` -> ``uni-sp.model``), a folder its usual file name.

    A project keeps the training record it was opened with.
    """
    fmt = format_named(to, saving=True)  # refuse an unknown target before reading anything
    if not Path(target).is_dir():  # a folder is save_tokenizer's to fill (its config files too)
        target = fmt.save_path(Path(target))  # "uni-sp" becomes uni-sp.model
    loaded = open_tokenizer(source, format=source_format, pattern=pattern, lowercase=lowercase)
    losses = save_tokenizer(loaded.tokenizer, target, to, record=loaded.training)
    return loaded, losses
