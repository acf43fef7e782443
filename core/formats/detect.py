"""Open any supported tokenizer file or folder, and save to any format, saying what it loses.

    >>> loaded = open_tokenizer("some/folder")        # or a file
    >>> loaded.format, loaded.warnings
    ('sentencepiece', [])
    >>> save_tokenizer(loaded.tokenizer, "out", "gpt2")
    ['vocab.json + merges.txt carry no normalizer: ...']

Detection, in order (first match wins):

=====================  ====================================================
folder with            format
=====================  ====================================================
``training.json``      ``project`` (our own save, :mod:`core.formats.project`)
``tokenizer.json``     ``hf-json``
``vocab.json`` +       ``gpt2``
``merges.txt``
one ``*.model``        ``sentencepiece``
``vocab.txt``          ``bert``
one ``*.tiktoken``     ``tiktoken``
``codes``/``*.codes``  ``subword-nmt``
one ``*.vocab``        ``sentencepiece-vocab``
=====================  ====================================================

A file is recognised by its name first (``tokenizer.json``, ``vocab.json``,
``merges.txt``, ``vocab.txt``, ``*.model``, ``*.vocab``, ``*.tiktoken``,
``*.codes``), else by a look at its first bytes (a JSON object, ``#version:``,
``base64 rank`` lines, ``piece<TAB>score`` lines, two units per line, a
protobuf). Every problem is one :class:`FormatError` naming the file.

Leaves out: WordLevel models, ``tokenizer_config.json`` / ``special_tokens_map.json``
(settings some checkpoints keep beside the vocabulary).
"""

from __future__ import annotations

import base64
import binascii
import os
import shutil
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import ConfigError, FormatError
from core.paths import require_regular_file

# Formats save_tokenizer can write (also the choices of `subword convert --to`).
SAVE_FORMATS = ("hf-json", "gpt2", "bert", "subword-nmt", "tiktoken", "sentencepiece", "project")
LOAD_FORMATS = (
    "project",
    "hf-json",
    "gpt2",
    "sentencepiece",
    "bert",
    "tiktoken",
    "subword-nmt",
    "sentencepiece-vocab",
)


@dataclass
class LoadedTokenizer:
    tokenizer: Any
    format: str
    path: Path
    warnings: list[str] = field(default_factory=list)
    training: Any = None  # a TrainingRecord for projects


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
    from core.formats.project import SIDECAR

    def one(pattern: str) -> Path | None:
        found = sorted(p for p in folder.glob(pattern) if p.is_file())
        return found[0] if len(found) == 1 else None

    if (folder / SIDECAR).is_file():
        return "project", folder
    if (folder / "tokenizer.json").is_file():
        return "hf-json", folder / "tokenizer.json"
    if (folder / "vocab.json").is_file() and (folder / "merges.txt").is_file():
        return "gpt2", folder / "vocab.json"
    if model := one("*.model"):
        return "sentencepiece", model
    if (folder / "vocab.txt").is_file():
        return "bert", folder / "vocab.txt"
    if ranks := one("*.tiktoken"):
        return "tiktoken", ranks
    if (folder / "codes").is_file():
        return "subword-nmt", folder / "codes"
    if codes := one("*.codes"):
        return "subword-nmt", codes
    if vocab := one("*.vocab"):
        return "sentencepiece-vocab", vocab
    raise FormatError(
        f"{folder}: no tokenizer found (looked for training.json, tokenizer.json, vocab.json + merges.txt, "
        "*.model, vocab.txt, *.tiktoken, codes, *.vocab)"
    )


def _detect_file(path: Path) -> str:
    name = path.name.lower()
    if name == "training.json":
        return "project"
    if name in ("vocab.json", "merges.txt"):
        return "gpt2"
    if name == "vocab.txt":
        return "bert"
    suffix = path.suffix.lower()
    by_suffix = {
        ".model": "sentencepiece",
        ".tiktoken": "tiktoken",
        ".codes": "subword-nmt",
        ".vocab": "sentencepiece-vocab",
        ".json": "hf-json",
    }
    if suffix in by_suffix:
        return by_suffix[suffix]
    return _sniff(path)


def _sniff(path: Path) -> str:
    """Guess from the content of a file with an uninformative name."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError as e:
        raise FormatError(f"cannot read {path}: {e.strerror or e}") from None
    if not head.strip():
        raise FormatError(f"{path} is empty")
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(b"{"):
        return "hf-json"
    if b"\x00" in head or _not_text(head):
        if head[:1] == b"\x0a":  # field 1, length-delimited: a ModelProto's first piece
            return "sentencepiece"
        raise FormatError(f"{path} is a binary file that is not a SentencePiece model")
    lines = [ln.strip(b"\r") for ln in head.split(b"\n")[:20]]
    lines = [ln for ln in lines if ln.strip()]
    if len(lines) > 1 and len(head) == 4096:
        lines = lines[:-1]  # the last line may be cut
    if lines[0].startswith(b"#version:"):
        return "subword-nmt"
    if all(_is_rank_line(ln) for ln in lines):
        return "tiktoken"
    if all(_is_score_line(ln) for ln in lines):
        return "sentencepiece-vocab"
    if all(len(ln.split(b" ")) == 2 for ln in lines):
        return "subword-nmt"
    if all(b" " not in ln.strip() for ln in lines):
        return "bert"
    raise FormatError(
        f"{path}: unrecognised tokenizer file (not JSON, codes, rank, .vocab or vocab.txt lines)"
    )


def _not_text(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return False
    except UnicodeDecodeError as e:
        return e.start < len(data) - 4  # a cut multi-byte character at the end is fine


def _is_rank_line(line: bytes) -> bool:
    parts = line.split()
    if len(parts) != 2 or not parts[1].isdigit():
        return False
    try:
        base64.b64decode(parts[0], validate=True)
        return True
    except (binascii.Error, ValueError):
        return False


def _is_score_line(line: bytes) -> bool:
    parts = line.split(b"\t")
    if len(parts) != 2:
        return False
    try:
        float(parts[1])
        return True
    except ValueError:
        return False


# -- opening -------------------------------------------------------------------------------


def open_tokenizer(
    path: str | os.PathLike, format: str | None = None, pattern: str | None = None
) -> LoadedTokenizer:
    """Open a tokenizer file or folder; ``format`` skips detection, ``pattern`` is tiktoken's split pattern.

    Nothing is changed on disk; any problem is a FormatError naming the file.
    """
    path = Path(path)
    require_regular_file(
        path, FormatError, "a tokenizer file or folder", allow_folder=True
    )  # a FIFO would block the read
    if format is None:
        format, main = detect_format(path)
    else:
        if format not in LOAD_FORMATS:
            raise ConfigError(f"unknown format {format!r}; choose from {', '.join(LOAD_FORMATS)}")
        if not path.exists():
            raise FormatError(f"{path} does not exist")
        main = path
        if path.is_dir() and format != "project":
            detected, main = _detect_folder(path)
            if detected != format:
                raise FormatError(f"{path}: asked for {format} but the folder holds {detected}")
    loader = _LOADERS[format]
    try:
        loaded = loader(main, pattern)
    except ConfigError as e:  # a model refusing what a file says is still a bad file
        raise FormatError(f"{main}: {e}") from None
    loaded.path = path
    return loaded


def _load_project(path: Path, pattern) -> LoadedTokenizer:
    from core.formats.project import load_project

    folder = path if path.is_dir() else path.parent
    tok, record = load_project(folder)
    return LoadedTokenizer(tok, "project", folder, list(tok.extra.get("warnings") or []), record)


def _load_hf_json(path: Path, pattern) -> LoadedTokenizer:
    from core.formats.hf_json import load_tokenizer_json

    tok = load_tokenizer_json(path)
    return LoadedTokenizer(tok, "hf-json", path, list(tok.extra.get("warnings") or []))


def _load_gpt2(path: Path, pattern) -> LoadedTokenizer:
    folder = path.parent
    vocab, merges = path.with_name("vocab.json"), path.with_name("merges.txt")
    for p in (vocab, merges):
        if not p.is_file():
            raise FormatError(f"{p} is missing: the GPT-2 format is vocab.json and merges.txt side by side")
    from core.formats import gpt2

    tok = gpt2.load_gpt2_tokenizer(vocab, merges)
    warnings = [
        f"{folder}: vocab.json + merges.txt say nothing of normalization or pre-tokenization; "
        "assumed GPT-2's byte-level pre-tokenizer"
    ]
    return LoadedTokenizer(tok, "gpt2", path, warnings)


def _load_sentencepiece(path: Path, pattern) -> LoadedTokenizer:
    from core.formats.sentencepiece_model import load_sentencepiece

    return LoadedTokenizer(load_sentencepiece(path), "sentencepiece", path, [])


def _load_sentencepiece_vocab(path: Path, pattern) -> LoadedTokenizer:
    from core.formats.sentencepiece_model import load_sentencepiece_vocab

    tok, warnings = load_sentencepiece_vocab(path)
    return LoadedTokenizer(tok, "sentencepiece-vocab", path, warnings)


def _load_bert(path: Path, pattern) -> LoadedTokenizer:
    from core import decoders
    from core.formats.bert_vocab import read_bert_vocab
    from core.models.wordpiece import WordPiece
    from core.normalizers import BertNormalizer
    from core.pre_tokenizers import BertPreTokenizer
    from core.tokenizer import AddedToken, Tokenizer

    vocab = read_bert_vocab(path)
    unk = next((t for t in ("[UNK]", "<unk>", "[unk]") if t in vocab), None)
    if unk is None:
        raise FormatError(f"{path} has no unknown token ([UNK]): not a BERT vocab.txt")
    model = WordPiece(vocab, unk, "##", 100)
    # subtle: uncased BERT vocabularies hold no upper-case letters; cased ones many.
    words = [t for t in vocab if not (t.startswith("[") and t.endswith("]"))]
    lowercase = not any(c.isupper() for t in words for c in t)
    # subtle: accent stripping (NFD, marks dropped) turns every Hangul syllable into jamo
    # and 'é' into 'e'; a vocabulary that holds such characters was not made with it.
    strip_accents = lowercase and not any(
        unicodedata.normalize("NFD", c) != c for t in words for c in t.removeprefix("##")
    )
    specials = [t for t in ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]") if t in vocab]
    tok = Tokenizer(
        model,
        normalizer=BertNormalizer(strip_accents=strip_accents, lowercase=lowercase),
        pre_tokenizer=BertPreTokenizer(),
        decoder=decoders.WordPiece("##"),
        added_tokens=[AddedToken(t, vocab[t], special=True) for t in specials],
    )
    warnings = [
        f"{path.name} holds no normalizer settings: assumed BERT's, with lowercase={lowercase} "
        f"({'no' if lowercase else 'some'} upper-case letters in the vocabulary) and "
        f"strip_accents={strip_accents} ({'no' if strip_accents else 'some'} precomposed letters such as "
        "Hangul syllables or accented Latin in it)"
    ]
    return LoadedTokenizer(tok, "bert", path, warnings)


def _load_tiktoken(path: Path, pattern) -> LoadedTokenizer:
    from core.formats.tiktoken_ranks import load_tiktoken

    warnings = []
    if pattern is None:
        pattern = "cl100k_base"
        warnings.append(
            f"{path.name} does not store its split pattern: assumed cl100k_base (choose with --pattern)"
        )
    return LoadedTokenizer(load_tiktoken(path, pattern), "tiktoken", path, warnings)


def _load_subword_nmt(path: Path, pattern) -> LoadedTokenizer:
    from core import decoders
    from core.formats.subword_nmt_codes import load_codes
    from core.models.bpe import BPE
    from core.pre_tokenizers import WhitespaceSplit
    from core.tokenizer import Tokenizer

    codes = load_codes(path)
    suffix = "</w>" if codes.version >= (0, 2) else None
    vocab: dict[str, int] = {"<unk>": 0}
    # 1. every character the codes mention, alone and as a word's last character
    chars = sorted({c for pair in codes.merges for unit in pair for c in unit.removesuffix("</w>")})
    for c in chars:
        vocab.setdefault(c, len(vocab))
        if suffix:
            vocab.setdefault(c + suffix, len(vocab))
    # 2. then every merge's parts and result, in merge order
    for a, b in codes.merges:
        for t in (a, b, a + b):
            vocab.setdefault(t, len(vocab))
    model = BPE(vocab, codes.merges, unk_token="<unk>", end_of_word_suffix=suffix)
    tok = Tokenizer(
        model, pre_tokenizer=WhitespaceSplit(), decoder=decoders.BPEDecoder("</w>") if suffix else None
    )
    warnings = [
        f"{path.name}: subword-nmt codes carry no vocabulary ids; ids follow the order units appear in the "
        "codes, and characters the codes never mention become <unk> (subword-nmt keeps them as they are)"
    ]
    if suffix is None:
        warnings.append(f"{path.name}: version 0.1 codes (a separate </w> unit) are applied approximately")
    return LoadedTokenizer(tok, "subword-nmt", path, warnings)


_LOADERS = {
    "project": _load_project,
    "hf-json": _load_hf_json,
    "gpt2": _load_gpt2,
    "sentencepiece": _load_sentencepiece,
    "sentencepiece-vocab": _load_sentencepiece_vocab,
    "bert": _load_bert,
    "tiktoken": _load_tiktoken,
    "subword-nmt": _load_subword_nmt,
}


# -- saving -----------------------------------------------------------------------------------


def _pipeline_losses(tok, target: str, keeps_pre_tokenizer: str | None = None) -> list[str]:
    from core.pre_tokenizers import NoSplit

    losses = []
    if tok.normalizer is not None:
        losses.append(f"{target}: no normalizer is stored; {_describe(tok.normalizer)} is lost")
    pre = tok.pre_tokenizer
    if pre is not None and not isinstance(pre, NoSplit):
        name = type(pre).__name__
        if keeps_pre_tokenizer is None or name != keeps_pre_tokenizer:
            losses.append(f"{target}: no pre-tokenizer is stored; {_describe(pre)} is lost")
    elif keeps_pre_tokenizer:
        losses.append(
            f"{target} implies the {keeps_pre_tokenizer} pre-tokenizer, which this tokenizer does not use"
        )
    if tok.added_tokens:
        names = ", ".join(t.content for t in sorted(tok.added_tokens, key=lambda t: t.id)[:5])
        losses.append(
            f"{target}: added/special tokens are not marked ({names}{', ...' if len(tok.added_tokens) > 5 else ''})"
        )
    if tok.post_processor is not None:
        losses.append(f"{target}: no post-processor is stored")
    return losses


def _describe(component) -> str:
    try:
        d = component.to_dict()
    except Exception:  # noqa: BLE001 - a description must never fail a save
        return type(component).__name__
    if d.get("type") == "Sequence":
        inner = d.get("normalizers") or d.get("pretokenizers") or []
        return "Sequence(" + ", ".join(x.get("type", "?") for x in inner) + ")"
    return str(d.get("type", type(component).__name__))


def _bpe_parts(tok, target: str) -> tuple[dict[str, int], list[tuple[str, str]], dict]:
    """Vocabulary, ranked merges and settings of a BPE-shaped model; ConfigError otherwise."""
    d = tok.model.to_dict()
    if d.get("type") != "BPE":
        raise ConfigError(f"{target} holds a BPE model; this tokenizer's model is {d.get('type')}")
    merges = [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in d.get("merges", [])]
    return dict(d["vocab"]), merges, d


class _BpeFiles:
    """Vocabulary and ranked merges of any BPE-shaped model, as the GPT-2 writer wants them."""

    def __init__(self, vocab: dict[str, int], merges: list[tuple[str, str]]):
        self._vocab, self._merges = vocab, merges

    def get_vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    def ranked_merges(self) -> list[tuple[str, str]]:
        return list(self._merges)


def save_tokenizer(tok, path: str | os.PathLike, format: str, record=None) -> list[str]:
    """Write ``tok`` in ``format`` at ``path``; return what that format cannot carry.

    ``path`` is a folder for ``gpt2`` and ``project``, a file otherwise. Files
    are written atomically. A tokenizer the format cannot hold at all (e.g. a
    WordPiece model as tiktoken ranks) is a ConfigError and nothing is written.
    """
    if format not in SAVE_FORMATS:
        raise ConfigError(f"unknown target format {format!r}; choose from {', '.join(SAVE_FORMATS)}")
    path = Path(path)
    if format not in ("gpt2", "project") and not path.parent.is_dir():
        raise ConfigError(f"cannot save to {path}: the folder {path.parent} does not exist")
    return _SAVERS[format](tok, path, record)


def _source_losses(tok, target: str) -> list[str]:
    extra = getattr(tok, "extra", {}) or {}
    if "sentencepiece" in extra:
        from core.formats.sentencepiece_model import APPROXIMATIONS

        return [f"{target}: {APPROXIMATIONS}; Viterbi ties may break differently than in SentencePiece"]
    return []


def _save_hf_json(tok, path: Path, record) -> list[str]:
    from core.formats.hf_compat import hf_compatible
    from core.formats.hf_json import save_tokenizer_json

    if path.is_dir():
        path = path / "tokenizer.json"
    portable, losses = hf_compatible(tok)  # our analyser and jamo steps have no tokenizers type
    save_tokenizer_json(portable, path)
    losses += _source_losses(tok, "tokenizer.json")
    if "tiktoken" in (tok.extra or {}):
        losses.append("tokenizer.json: tiktoken ranks become a BPE with merges derived from the ranks")
    return losses


def _save_gpt2(tok, path: Path, record) -> list[str]:
    from core.formats import gpt2

    vocab, merges, d = _bpe_parts(tok, "vocab.json + merges.txt")
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{path} is a file; the GPT-2 format is a folder with vocab.json and merges.txt")
    created = not path.exists()
    path.mkdir(parents=True, exist_ok=True)
    try:
        gpt2.save_gpt2(_BpeFiles(vocab, merges), path)
    except BaseException:
        if created:  # bad input changes nothing: not even an empty folder is left
            shutil.rmtree(path, ignore_errors=True)
        raise
    losses = _pipeline_losses(tok, "vocab.json + merges.txt", keeps_pre_tokenizer="ByteLevel")
    for key in ("unk_token", "continuing_subword_prefix", "end_of_word_suffix"):
        if d.get(key):
            losses.append(f"vocab.json + merges.txt do not record the model's {key} ({d[key]!r})")
    for key in ("byte_fallback", "fuse_unk", "ignore_merges"):
        if d.get(key):
            losses.append(f"vocab.json + merges.txt do not record {key}=true")
    return losses + _source_losses(tok, "vocab.json + merges.txt")


def _save_bert(tok, path: Path, record) -> list[str]:
    from core.formats.bert_vocab import save_bert_vocab

    if path.is_dir():
        path = path / "vocab.txt"
    d = tok.model.to_dict()
    vocab = tok.get_vocab()
    save_bert_vocab(vocab, path)
    losses = []
    if "[UNK]" not in vocab:
        losses.append("vocab.txt readers expect an [UNK] token, which this vocabulary lacks")
    if d.get("type") != "WordPiece":
        losses.append(
            f"vocab.txt is read as a WordPiece vocabulary; this tokenizer's {d.get('type')} model "
            "(merges or scores) is lost"
        )
    elif d.get("continuing_subword_prefix", "##") != "##":
        losses.append(f"vocab.txt does not record the subword prefix {d['continuing_subword_prefix']!r}")
    from core.normalizers import BertNormalizer
    from core.pre_tokenizers import BertPreTokenizer

    if tok.normalizer is not None and not isinstance(tok.normalizer, BertNormalizer):
        losses.append(
            f"vocab.txt carries no normalizer: {_describe(tok.normalizer)} is lost (readers assume BERT's)"
        )
    elif isinstance(tok.normalizer, BertNormalizer):
        losses.append("vocab.txt does not record the BertNormalizer settings (lowercase, accents)")
    if tok.pre_tokenizer is not None and not isinstance(tok.pre_tokenizer, BertPreTokenizer):
        losses.append(
            f"vocab.txt carries no pre-tokenizer: {_describe(tok.pre_tokenizer)} is lost "
            "(readers assume BERT's)"
        )
    return losses


def _save_subword_nmt(tok, path: Path, record) -> list[str]:
    from core.formats.subword_nmt_codes import save_codes

    vocab, merges, d = _bpe_parts(tok, "subword-nmt codes")
    if path.is_dir():
        path = path / "codes"
    save_codes(path, merges)
    losses = ["subword-nmt codes carry no vocabulary ids (only the merges, in order)"]
    losses += _pipeline_losses(tok, "subword-nmt codes")
    if d.get("end_of_word_suffix") != "</w>":
        losses.append(
            "subword-nmt applies codes with '</w>' on each word's last character; this model "
            f"uses end_of_word_suffix={d.get('end_of_word_suffix')!r}, so segmentations differ"
        )
    if d.get("continuing_subword_prefix"):
        losses.append(f"subword-nmt codes do not record the prefix {d['continuing_subword_prefix']!r}")
    return losses


def _save_tiktoken(tok, path: Path, record) -> list[str]:
    from core.formats.tiktoken_ranks import TiktokenSplit, save_tiktoken

    if path.is_dir():
        path = path / "ranks.tiktoken"
    save_tiktoken(tok, path)  # ConfigError (nothing written) unless byte-level
    losses = ["a tiktoken rank file does not store its split pattern"]
    if not isinstance(tok.pre_tokenizer, TiktokenSplit):
        losses.append(
            f"tiktoken applies a regex split pattern; this tokenizer's pre-tokenizer "
            f"{_describe(tok.pre_tokenizer) if tok.pre_tokenizer else 'None'} is lost"
        )
    if tok.normalizer is not None:
        losses.append(f"a tiktoken rank file carries no normalizer: {_describe(tok.normalizer)} is lost")
    if tok.added_tokens:
        losses.append("a tiktoken rank file carries no special tokens")
    if "tiktoken" not in (tok.extra or {}):
        losses.append(
            "ranks are the model's ids: tiktoken merges by rank, which equals this model's merge order "
            "only when ids were assigned in merge order (as trainers do)"
        )
    return losses


def _save_sentencepiece(tok, path: Path, record) -> list[str]:
    from core.formats.sentencepiece_model import save_sentencepiece

    if path.is_dir():
        path = path / "tokenizer.model"
    return save_sentencepiece(tok, path)


def _save_project(tok, path: Path, record) -> list[str]:
    from core.formats.project import save_project

    save_project(tok, path, record)
    return []


_SAVERS = {
    "hf-json": _save_hf_json,
    "gpt2": _save_gpt2,
    "bert": _save_bert,
    "subword-nmt": _save_subword_nmt,
    "tiktoken": _save_tiktoken,
    "sentencepiece": _save_sentencepiece,
    "project": _save_project,
}


def convert(
    source: str | os.PathLike,
    target: str | os.PathLike,
    to: str,
    pattern: str | None = None,
    source_format: str | None = None,
) -> tuple[LoadedTokenizer, list[str]]:
    """Open ``source`` (any format) and save it as ``to`` at ``target``: ``(what was opened, losses)``.

    A project keeps the training record it was opened with.
    """
    if to not in SAVE_FORMATS:
        raise ConfigError(f"unknown target format {to!r}; choose from {', '.join(SAVE_FORMATS)}")
    loaded = open_tokenizer(source, format=source_format, pattern=pattern)
    losses = save_tokenizer(loaded.tokenizer, target, to, record=loaded.training)
    return loaded, losses
