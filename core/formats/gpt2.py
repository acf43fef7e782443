"""GPT-2 style BPE files: ``vocab.json`` (token -> id) and ``merges.txt`` (one merge per line).

    >>> from core.events import drain
    >>> from core.options import TrainOptions
    >>> from core.training import train_from_counts
    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> model = drain(train_from_counts({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5},
    ...                                 TrainOptions("bpe", vocab_size=12))).model
    >>> [p.name for p in save_gpt2(model, folder.name)]
    ['vocab.json', 'merges.txt']
    >>> load_gpt2(folder.name).merges[:2]
    [('u', 'g'), ('u', 'n')]

``merges.txt`` starts with ``#version: 0.2``; each following line is ``left right``
separated by one space, in rank order. A token that contains a space (possible
with pre-tokenizer ``none``) cannot be written there: saving refuses with a
:class:`FormatError` before touching any file (``tokenizer.json`` holds such models).

Both files are replaced together (:func:`core.atomic.save_folder`): a reader never
sees a new vocab.json beside an old merges.txt, nor a half-written file. Loading checks everything and names the file and line of
the first problem.

Leaves out: the files carry no pipeline; :func:`load_gpt2_tokenizer` assumes
GPT-2's own (byte-level pre-tokenizer and decoder), which is what these files mean.
"""

from __future__ import annotations

import errno
import json
from itertools import chain
from pathlib import Path

from core.atomic import save_folder, write_atomic
from core.errors import ConfigError, FormatError
from core.limits import check_token_id, loads_json
from core.models.base import vocab_by_id
from core.models.bpe.model import BPE

VOCAB_NAME = "vocab.json"
MERGES_NAME = "merges.txt"
MERGES_HEADER = "#version: 0.2"


def save_gpt2(model: BPE | _BpeFiles, directory, prefix: str | None = None) -> tuple[Path, Path]:
    """Write ``[prefix-]vocab.json`` and ``[prefix-]merges.txt`` into ``directory``; returns both paths."""
    directory = Path(directory)
    merges = model.ranked_merges()
    every_part = "".join(chain.from_iterable(merges))  # (one scan; the loop names the token)
    if " " in every_part or "\n" in every_part or "\r" in every_part:
        for a, b in merges:
            if " " in a or " " in b or "\n" in a + b or "\r" in a + b:
                raise FormatError(
                    f"merges.txt cannot hold the token {a if (' ' in a or chr(10) in a) else b!r} "
                    "(it contains a space or line end); save as tokenizer.json instead"
                )
    vocab = vocab_by_id(model.get_vocab())
    vocab_text = json.dumps(vocab, ensure_ascii=False)
    merges_text = "\n".join([MERGES_HEADER, *map(" ".join, merges)]) + "\n"
    name = (lambda n: f"{prefix}-{n}") if prefix else (lambda n: n)
    vocab_path, merges_path = directory / name(VOCAB_NAME), directory / name(MERGES_NAME)
    # The pair is replaced together, never one without the other (core.atomic.save_folder);
    # other files in the folder (a tokenizer.json) are left as they are.
    if not directory.is_dir():  # as before: the folder is the caller's to make
        raise FileNotFoundError(errno.ENOENT, "no such folder", str(directory))
    with save_folder(directory, replaces=()) as stage:
        write_atomic(stage / vocab_path.name, vocab_text)
        write_atomic(stage / merges_path.name, merges_text)
    return vocab_path, merges_path


def load_gpt2(path, merges_path=None, **model_options) -> BPE:
    """Read a BPE model from a directory holding both files, or from ``vocab.json`` + ``merges.txt``.

    ``model_options`` go to :class:`~core.models.bpe.BPE` (e.g. ``unk_token="<unk>"``).
    """
    vocab_path = Path(path)
    if merges_path is None:
        if vocab_path.is_dir():
            vocab_path, merges_path = vocab_path / VOCAB_NAME, vocab_path / MERGES_NAME
        else:
            merges_path = vocab_path.with_name(MERGES_NAME)
    merges_path = Path(merges_path)
    vocab = read_vocab_json(vocab_path)
    merges = read_merges_txt(merges_path)
    try:
        return BPE(vocab, merges, **model_options).prepared()  # (read to encode)
    except ConfigError as e:
        raise FormatError(f"{vocab_path} and {merges_path} do not fit together: {e}") from None


# The special token GPT-2's readers know without being told: transformers' GPT2Tokenizer makes it
# its bos, eos and unknown token by default, so text that spells it is that one token.
GPT2_SPECIAL = "<|endoftext|>"


def load_gpt2_tokenizer(path, merges_path=None):
    """A whole tokenizer from GPT-2 files: byte-level pre-tokenizer and decoder around the model,
    and :data:`GPT2_SPECIAL` a special token when the vocabulary has it."""
    from core import decoders
    from core.pre_tokenizers import ByteLevel
    from core.tokenizer import AddedToken, Tokenizer

    model = load_gpt2(path, merges_path)
    vocab = model.get_vocab()
    added = [AddedToken(GPT2_SPECIAL, vocab[GPT2_SPECIAL], special=True)] if GPT2_SPECIAL in vocab else []
    return Tokenizer(
        model,
        pre_tokenizer=ByteLevel(add_prefix_space=False),
        decoder=decoders.ByteLevel(),
        added_tokens=added,
    )


def read_vocab_json(path) -> dict[str, int]:
    path = Path(path)
    text = _read_text(path)
    try:
        data = loads_json(text, str(path))
    except json.JSONDecodeError as e:
        raise FormatError(f"{path} is not valid JSON (line {e.lineno}: {e.msg}); is it truncated?") from None
    if not isinstance(data, dict):
        raise FormatError(f"{path} must hold one JSON object mapping tokens to ids")
    ids: dict[int, str] = {}
    for token, i in data.items():
        if not isinstance(i, int) or isinstance(i, bool) or i < 0:
            raise FormatError(f"{path}: the id of {token!r} must be a non-negative whole number, not {i!r}")
        check_token_id(i, f"the id of {token!r}", str(path))
        if i in ids:
            raise FormatError(f"{path}: tokens {ids[i]!r} and {token!r} share the id {i}")
        ids[i] = token
    return data


def read_merges_txt(path) -> list[tuple[str, str]]:
    path = Path(path)
    merges = []
    for number, line in enumerate(_read_text(path).splitlines(), start=1):
        if line.startswith("#version") or not line:
            continue
        parts = line.split(" ")
        if len(parts) != 2 or not parts[0] or not parts[1]:
            raise FormatError(
                f"{path}, line {number}: expected two tokens separated by one space, got {line[:80]!r}"
            )
        merges.append((parts[0], parts[1]))
    return merges


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except IsADirectoryError:
        raise FormatError(f"{path} is a directory, not a file") from None
    except FileNotFoundError:
        raise FormatError(f"{path} does not exist") from None
    except OSError as e:
        raise FormatError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise FormatError(f"{path} is not UTF-8 text (byte {e.start})") from None


# -- as a row of core.formats.registry ---------------------------------------------------------


def find_in_folder(folder: Path) -> Path | None:
    if (folder / VOCAB_NAME).is_file() and (folder / MERGES_NAME).is_file():
        return folder / VOCAB_NAME
    return None


def sniff(head) -> bool:
    return False  # two files: recognised by their names only


def open_file(path: Path, pattern: str | None = None):
    """``path`` is either file of the pair; ``pattern`` is unused (GPT-2's byte-level split is implied)."""
    from core.formats.common import LoadedTokenizer

    folder = path.parent
    vocab, merges = path.with_name(VOCAB_NAME), path.with_name(MERGES_NAME)
    for p in (vocab, merges):
        if not p.is_file():
            raise FormatError(f"{p} is missing: the GPT-2 format is vocab.json and merges.txt side by side")
    vocab_map = read_vocab_json(vocab)
    if is_byte_level_vocab(vocab_map):
        tok = load_gpt2_tokenizer(vocab, merges)
        warnings = [
            f"{folder}: vocab.json + merges.txt say nothing of normalization or pre-tokenization; "
            "assumed GPT-2's byte-level pre-tokenizer"
        ]
        return LoadedTokenizer(tok, "gpt2", path, warnings)
    tok, unk = _load_character_level(vocab, merges, vocab_map)
    if unk is not None:
        kept = f"a character the vocabulary lacks becomes {unk!r} and is counted as unknown"
    else:
        kept = "it has no unknown token: a character the vocabulary lacks is left out of the encoding"
    warnings = [
        f"{folder}: vocab.json + merges.txt say nothing of normalization or pre-tokenization; their "
        "tokens are not GPT-2's byte alphabet, so they were read as a character-level BPE after a "
        f"whitespace pre-tokenizer (not byte-level); {kept}"
    ]
    return LoadedTokenizer(tok, "gpt2", path, warnings)


# The unknown tokens our trainers and the usual peers write into a character-level vocabulary.
UNKNOWN_TOKENS = ("<unk>", "[UNK]", "<UNK>")


def is_byte_level_vocab(vocab: dict[str, int]) -> bool:
    """Whether ``vocab`` reads as GPT-2's byte-level vocabulary: every token spelled in the
    256-symbol byte alphabet and a space written ``Ġ`` somewhere (GPT-2, RoBERTa and every
    byte-level BPE trained on text with spaces). A vocabulary of a whitespace-split BPE fails
    one or the other, and read byte-level would leave out every word not spelled in bytes.

    >>> is_byte_level_vocab({"Ġthe": 0, "í": 1}), is_byte_level_vocab({"the": 0, "철": 1})
    (True, False)
    """
    from core.bytelevel import CHAR_TO_BYTE

    space = False
    for token in vocab:
        if token.startswith("<") and token.endswith(">") and len(token) > 2:
            continue  # <|endoftext|>, <unk>: special tokens, spelled as they like
        if not all(c in CHAR_TO_BYTE for c in token):
            return False
        space = space or "Ġ" in token
    return space


def _load_character_level(vocab_path: Path, merges_path: Path, vocab: dict[str, int]):
    """A whitespace-split, character-level BPE from the pair, with the vocabulary's unknown
    token when it has one (GPT-2's files do not record it: the save reported that)."""
    from core.pre_tokenizers import Whitespace
    from core.tokenizer import AddedToken, Tokenizer

    unk = next((t for t in UNKNOWN_TOKENS if t in vocab), None)
    model = load_gpt2(vocab_path, merges_path, unk_token=unk)
    added = [AddedToken(unk, vocab[unk], special=True)] if unk is not None else []
    return Tokenizer(model, pre_tokenizer=Whitespace(), added_tokens=added), unk


class _BpeFiles:
    """Vocabulary and ranked merges of any BPE-shaped model, as :func:`save_gpt2` wants them."""

    def __init__(self, vocab: dict[str, int], merges: list[tuple[str, str]]):
        self._vocab, self._merges = vocab, merges

    def get_vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    def ranked_merges(self) -> list[tuple[str, str]]:
        return list(self._merges)


def save_file(tok, path: Path, record=None) -> list[str]:
    """Write the folder ``path`` (created if needed) with vocab.json and merges.txt."""
    import shutil

    from core.formats.common import bpe_parts, pipeline_losses, source_losses

    vocab, merges, d = bpe_parts(tok, "vocab.json + merges.txt")
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{path} is a file; the GPT-2 format is a folder with vocab.json and merges.txt")
    created = not path.exists()
    path.mkdir(parents=True, exist_ok=True)
    try:
        save_gpt2(_BpeFiles(vocab, merges), path)
    except BaseException:
        if created:  # bad input changes nothing: not even an empty folder is left
            shutil.rmtree(path, ignore_errors=True)
        raise
    byte_level = is_byte_level_vocab(vocab)
    implied = (GPT2_SPECIAL,) if byte_level else ()  # (the character-level reading marks none)
    losses = pipeline_losses(
        tok, "vocab.json + merges.txt", keeps_pre_tokenizer="ByteLevel", implied_specials=implied
    )
    if not byte_level:
        losses.append(
            "vocab.json + merges.txt are taken as GPT-2's byte-level files by readers such as "
            "transformers' GPT2Tokenizer, which would leave out every character not spelled in bytes; "
            "Subword Explorer reads them back as a character-level BPE after a whitespace pre-tokenizer"
        )
    for key in ("unk_token", "continuing_subword_prefix", "end_of_word_suffix"):
        if d.get(key):
            losses.append(f"vocab.json + merges.txt do not record the model's {key} ({d[key]!r})")
    for key in ("byte_fallback", "fuse_unk", "ignore_merges"):
        if d.get(key):
            losses.append(f"vocab.json + merges.txt do not record {key}=true")
    return losses + source_losses(tok, "vocab.json + merges.txt")
