"""The table of tokenizer file formats: one row per format, one module per row.

    >>> [f.name for f in FORMATS][:3]
    ['project', 'hf-json', 'tekken']
    >>> format_named("tiktoken").title
    'tiktoken ranks'
    >>> SAVE_FORMATS[:2]
    ('hf-json', 'project')

Everything that lists formats reads this table: detection and opening
(:mod:`core.formats.detect`), ``subword convert --from/--to``, and the explorer's
open and save dialogs. Adding a format is one module plus one row.

A row's module (imported only when that format is used) provides:

- ``find_in_folder(folder) -> Path | None``: the file of this format in a folder;
- ``sniff(head: Head) -> bool``: whether a file with an uninformative name is one
  (see :class:`core.formats.common.Head`);
- ``open_file(path, pattern=None) -> LoadedTokenizer``: read it (``pattern`` is the
  split pattern of formats that do not store one; others ignore it);
- ``save_file(tok, path, record=None) -> list[str]``: write it and say what it
  loses (only for rows with ``saves=True``).

Order matters twice. In a folder the first row whose ``find_in_folder`` answers
wins, so rows run from the most telling file (our own ``training.json``) to the
least. Content sniffing runs by ``sniff_priority``, lowest first, so the
permissive checks (one token per line: BERT) come after the strict ones (base64
and a number: tiktoken).

Leaves out: the file formats that hold no tokenizer (merge logs, word counts).
"""

from __future__ import annotations

import fnmatch
import importlib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from core.errors import ConfigError


@dataclass(frozen=True)
class Format:
    name: str  # what --format/--to/--from say, e.g. "hf-json"
    title: str  # what a person reads, e.g. "Hugging Face tokenizer.json"
    module: str  # the module that recognises, reads and writes it
    globs: tuple[str, ...] = ()  # file names (lower case, fnmatch) that mean this format
    folder_hint: str = ""  # how a folder error message names what it looked for
    sniff_priority: int = 50  # content checks run lowest first (see the module docstring)
    saves: bool = False  # has save_file
    saves_folder: bool = False  # save_file writes a folder, not a file
    save_suffix: str = ""  # the ending of a saved file (a save dialog's filter)
    save_name: str = ""  # the file a save into a folder writes there, e.g. "tokenizer.model"

    def load_module(self) -> ModuleType:
        return importlib.import_module(self.module)

    def save_path(self, path: Path) -> Path:
        """Where saving to ``path`` writes: a folder format, the folder; a file format, ``save_name``
        inside a folder that exists, else ``path`` with ``save_suffix`` added when it has no ending.

        >>> str(format_named("sentencepiece").save_path(Path("uni-sp")))
        'uni-sp.model'
        """
        if self.saves_folder:
            return path
        if path.is_dir():
            return path / self.save_name
        if not path.suffix and self.save_suffix:
            return path.with_name(path.name + self.save_suffix)
        return path

    @property
    def dialog_filter(self) -> str:
        """``"SentencePiece model (*.model)"``."""
        return f"{self.title} ({' '.join(self.globs)})"


FORMATS: tuple[Format, ...] = (
    Format(
        "project",
        "Project folder: tokenizer.json + training record",
        "core.formats.project",
        globs=("training.json",),
        folder_hint="training.json",
        sniff_priority=0,  # never by content: it is a folder
        saves=True,
        saves_folder=True,
    ),
    Format(
        "hf-json",
        "Hugging Face tokenizer.json",
        "core.formats.hf_json",
        globs=("*.json",),
        folder_hint="tokenizer.json",
        sniff_priority=10,
        saves=True,
        save_suffix=".json",
        save_name="tokenizer.json",
    ),
    Format(
        "tekken",
        "Mistral tekken.json",
        "core.formats.tekken",
        globs=("*tekken*.json",),  # as mistral-common's is_tekken
        folder_hint="tekken.json",
        sniff_priority=5,  # a JSON object too: before hf-json's check
    ),
    Format(
        "gpt2",
        "GPT-2 folder: vocab.json + merges.txt",
        "core.formats.gpt2",
        globs=("vocab.json", "merges.txt"),
        folder_hint="vocab.json + merges.txt",
        sniff_priority=0,  # never by content: two files
        saves=True,
        saves_folder=True,
    ),
    Format(
        "sentencepiece",
        "SentencePiece model",
        "core.formats.sentencepiece_model",
        globs=("*.model",),
        folder_hint="*.model",
        sniff_priority=10,
        saves=True,
        save_suffix=".model",
        save_name="tokenizer.model",
    ),
    Format(
        "bert",
        "BERT vocab.txt",
        "core.formats.bert_vocab",
        globs=("vocab.txt",),
        folder_hint="vocab.txt",
        sniff_priority=90,  # any file of single words: the last guess
        saves=True,
        save_suffix=".txt",
        save_name="vocab.txt",
    ),
    Format(
        "tiktoken",
        "tiktoken ranks",
        "core.formats.tiktoken_ranks",
        globs=("*.tiktoken",),
        folder_hint="*.tiktoken",
        sniff_priority=20,
        saves=True,
        save_suffix=".tiktoken",
        save_name="ranks.tiktoken",
    ),
    Format(
        "subword-nmt",
        "subword-nmt codes",
        "core.formats.subword_nmt_codes",
        globs=("*.codes",),
        folder_hint="codes",
        sniff_priority=40,
        saves=True,
        save_suffix=".codes",
        save_name="codes",
    ),
    Format(
        "clip",
        "CLIP merges",
        "core.formats.clip_bpe",
        globs=("bpe_simple_vocab*.txt.gz",),
        folder_hint="bpe_simple_vocab*.txt.gz",
        sniff_priority=5,  # gzip: before the SentencePiece protobuf check
    ),
    Format(
        "gguf",
        "GGUF model (llama.cpp)",
        "core.formats.gguf",
        globs=("*.gguf",),
        folder_hint="*.gguf",
        sniff_priority=5,  # a magic number: before the SentencePiece protobuf check
    ),
    Format(
        "sentencepiece-vocab",
        "SentencePiece .vocab",
        "core.formats.sentencepiece_vocab",
        globs=("*.vocab",),
        folder_hint="*.vocab",
        sniff_priority=30,
    ),
)

LOAD_FORMATS: tuple[str, ...] = tuple(f.name for f in FORMATS)
# The formats save_tokenizer can write (also the choices of `subword convert --to`), in dialog order.
# subtle: hf-json first, because a save dialog preselects its first filter and tokenizer.json keeps most.
SAVE_FORMATS: tuple[str, ...] = tuple(
    f.name for f in sorted((f for f in FORMATS if f.saves), key=lambda f: f.name != "hf-json")
)


def format_named(name: str, saving: bool = False) -> Format:
    """The row called ``name``; ConfigError listing the choices when there is none."""
    choices = SAVE_FORMATS if saving else LOAD_FORMATS
    if saving and name in LOAD_FORMATS and name not in choices:
        title = next(f.title for f in FORMATS if f.name == name)
        raise ConfigError(
            f"{name} ({title}) is a format Subword Explorer reads but does not write; "
            f"choose from {', '.join(choices)}"
        )
    if name not in choices:
        what = "target format" if saving else "format"
        raise ConfigError(f"unknown {what} {name!r}; choose from {', '.join(choices)}")
    return next(f for f in FORMATS if f.name == name)


def format_for_name(file_name: str) -> Format | None:
    """The row a file's name alone decides, or None; the most specific glob wins (the one with
    the most characters that are not wildcards), so ``vocab.json`` beats ``*.json``.

    >>> format_for_name("Vocab.JSON").name, format_for_name("m.model").name
    ('gpt2', 'sentencepiece')
    """
    name = file_name.lower()
    best, best_literal = None, -1
    for f in FORMATS:
        for glob in f.globs:
            literal = len(glob) - glob.count("*") - glob.count("?")
            if literal > best_literal and fnmatch.fnmatchcase(name, glob):
                best, best_literal = f, literal
    return best


def open_dialog_filters() -> list[str]:
    """Filters for a file dialog that opens any tokenizer: all formats first, then one per format."""
    globs = sorted({g for f in FORMATS for g in f.globs})
    return [f"Tokenizers ({' '.join(globs)})"] + [f.dialog_filter for f in FORMATS] + ["All files (*)"]


def save_dialog_filters() -> list[tuple[str, str]]:
    """``(filter, format name)`` for a save dialog, in :data:`SAVE_FORMATS` order."""
    rows = [format_named(n, saving=True) for n in SAVE_FORMATS]
    return [(f"{f.title} (*{f.save_suffix})", f.name) for f in rows]


def save_format_for_suffix(file_name: str, default: str = "hf-json") -> str:
    """The save format a file name's ending asks for, else ``default``.

    >>> save_format_for_suffix("x.model"), save_format_for_suffix("x")
    ('sentencepiece', 'hf-json')
    """
    name = file_name.lower()
    for f in FORMATS:
        if f.saves and f.save_suffix and name.endswith(f.save_suffix):
            return f.name
    return default
