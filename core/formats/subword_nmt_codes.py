"""subword-nmt files: BPE codes (``#version: 0.2`` then ``left right`` lines) and vocabularies (``word count``).

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name, "codes")
    >>> save_codes(path, [("u", "g</w>"), ("h", "ug</w>")])
    >>> path.read_text()
    '#version: 0.2\\nu g</w>\\nh ug</w>\\n'
    >>> load_codes(path)
    Codes(version=(0, 2), merges=[('u', 'g</w>'), ('h', 'ug</w>')])

Reading follows ``subword_nmt.apply_bpe``: a first line starting ``#version:`` gives the
version (``0.2`` and ``0.2.0`` are the same; no such line means 0.1); every other line,
stripped of ``\\r``, ``\\n`` and spaces, must be exactly two units separated by one space.
``max_merges`` keeps only the first lines, like ``apply-bpe --merges``. Where subword-nmt
prints an error and exits, or misreads (a byte-order mark turns the version line into a
merge), this raises :class:`FormatError` or skips the mark.

Vocabulary files are what ``subword-nmt get-vocab`` writes: ``word count`` per line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from core.atomic import write_atomic
from core.errors import ConfigError, FormatError
from core.models.bpe.model import BPE, Spans
from core.models.bpe.subword_nmt import SUPPORTED_VERSIONS

_EDGE = "\r\n "


@dataclass
class Codes:
    version: tuple[int, ...] = (0, 2)
    merges: list[tuple[str, str]] = field(default_factory=list)


def _read_text(path: Path, what: str) -> str:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise FormatError(f"cannot read {path}: {e.strerror or e}") from e
    if b"\x00" in data:
        raise FormatError(f"{path} is a binary file, not a subword-nmt {what} file")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        raise FormatError(f"{path} is not UTF-8 text (byte {e.start}): not a subword-nmt {what} file") from e


def _parse_version(line: str, path) -> tuple[int, ...]:
    """``#version: 0.2`` -> ``(0, 2)`` (trailing ``.0`` parts dropped, as subword-nmt does)."""
    try:
        return tuple(int(x) for x in re.sub(r"(\.0+)*$", "", line.split()[-1]).split("."))
    except (ValueError, IndexError) as e:
        raise FormatError(f"{path}, line 1: cannot read the version in {line.strip()!r}") from e


def load_codes(path, max_merges: int = -1) -> Codes:
    """Read a codes file; FormatError names the first bad line."""
    path = Path(path)
    text = _read_text(path, "codes")
    first_line_end = text.find("\n")
    first = text if first_line_end < 0 else text[: first_line_end + 1]
    offset = 1
    if first.startswith("#version:"):
        version = _parse_version(first, path)
        text = text[len(first) :]
        offset += 1
    else:
        version = (0, 1)
    if version not in SUPPORTED_VERSIONS:
        raise FormatError(
            f"{path}: codes version {'.'.join(map(str, version))} is not supported (0.1 or 0.2)"
        )
    lines = text.rstrip("\n").split("\n")
    merges: list[tuple[str, str]] = []
    for n, line in enumerate(lines):
        if max_merges != -1 and n >= max_merges:
            break
        parts = tuple(line.strip(_EDGE).split(" "))
        if len(parts) != 2 or not all(parts):
            if not text.strip(_EDGE):
                raise FormatError(f"{path} holds no merges")
            raise FormatError(
                f"{path}, line {n + offset}: {line.strip(_EDGE)!r} should be exactly two "
                "subword units separated by one space"
            )
        merges.append((parts[0], parts[1]))
    return Codes(version, merges)


def save_codes(path, merges, version: tuple[int, ...] = (0, 2)) -> None:
    """Write a codes file atomically (with a ``#version:`` line unless version 0.1)."""
    version = tuple(version)
    if version not in SUPPORTED_VERSIONS:
        raise ConfigError(f"codes version {version} is not supported (0.1 or 0.2)")
    lines = [] if version == (0, 1) else ["#version: " + ".".join(map(str, version))]
    for n, pair in enumerate(merges, 1):
        pair = tuple(pair)
        if (
            len(pair) != 2
            or not all(isinstance(u, str) and u for u in pair)
            or any(c in u for u in pair for c in " \n\r")
        ):
            raise ConfigError(f"merge {n} ({pair!r}) cannot be written: two non-empty units without spaces")
        lines.append(" ".join(pair))
    if len(lines) == (0 if version == (0, 1) else 1):
        raise ConfigError("no merges to write (subword-nmt cannot read a codes file without merges)")
    write_atomic(Path(path), "".join(line + "\n" for line in lines))


def read_vocabulary(path) -> dict[str, int]:
    """``word count`` lines -> counts (a word listed twice keeps its larger count)."""
    path = Path(path)
    text = _read_text(path, "vocabulary")
    counts: dict[str, int] = {}
    lines = text.rstrip("\n").split("\n") if text.strip(_EDGE) else []
    for n, line in enumerate(lines, 1):
        parts = line.strip(_EDGE).split(" ")
        if len(parts) != 2 or not parts[0]:
            raise FormatError(f"{path}, line {n}: {line.strip(_EDGE)!r} is not 'word count'")
        try:
            count = int(parts[1])
        except ValueError:
            raise FormatError(f"{path}, line {n}: count {parts[1]!r} is not a whole number") from None
        counts[parts[0]] = max(count, counts.get(parts[0], count))
    if not counts:
        raise FormatError(f"{path} is empty: a vocabulary needs 'word count' lines")
    return counts


def load_vocabulary(path, threshold: int | None = None) -> set[str]:
    """The words of a vocabulary file seen at least ``threshold`` times (all if None).

    ConfigError when the threshold leaves nothing (subword-nmt would then silently
    apply no vocabulary at all).
    """
    counts = read_vocabulary(path)
    words = {w for w, c in counts.items() if threshold is None or c >= threshold}
    if not words:
        raise ConfigError(
            f"vocabulary threshold {threshold} is above every count in {path} "
            f"(the largest is {max(counts.values())}): nothing would be in the vocabulary"
        )
    return words


def save_vocabulary(path, counts: dict[str, int]) -> None:
    """Write ``word count`` lines, most frequent first (ties keep their order), atomically."""
    for word, count in counts.items():
        if not word or any(c in word for c in " \n\r") or not isinstance(count, int):
            raise ConfigError(f"vocabulary entry {word!r}: {count!r} cannot be written as 'word count'")
    ordered = sorted(counts.items(), key=lambda kv: kv[1], reverse=True)
    write_atomic(Path(path), "".join(f"{w} {c}\n" for w, c in ordered))


# -- as a row of core.formats.registry ---------------------------------------------------------


def find_in_folder(folder: Path) -> Path | None:
    from core.formats.common import one_file

    if (folder / "codes").is_file():
        return folder / "codes"
    return one_file(folder, "*.codes")


def sniff(head) -> bool:
    """``#version:`` first, or two units on every line (after the rank-file check, which this also fits)."""
    if head.binary:
        return False
    if head.lines[0].startswith(b"#version:"):
        return True
    return all(len(ln.split(b" ")) == 2 for ln in head.lines)


class CodesBPE(BPE):
    """BPE over subword-nmt codes: a character the codes never mention stays a token of its
    own text, with ``<unk>``'s id, as ``apply_bpe`` keeps it (``名前`` is ``名 前</w>``, not
    ``<unk> <unk>``); the ids are the plain model's.

        >>> CodesBPE({"<unk>": 0, "a</w>": 1}, [], unk_token="<unk>", end_of_word_suffix="</w>").tokenize("名a")
        [Token(id=0, value='名', start=0, end=1), Token(id=1, value='a</w>', start=1, end=2)]
    """

    def _spans(self, piece: str) -> Spans:
        found = super()._spans(piece)
        ids, tokens, starts, ends = found
        unk = self._unk_id
        if unk is None or unk not in ids:
            return found
        suffix = self.end_of_word_suffix or ""
        kept = tuple(
            piece[a:b] + (suffix if b == len(piece) else "") if i == unk else t
            for i, t, a, b in zip(ids, tokens, starts, ends)
        )
        found = (ids, kept, starts, ends)
        if piece in self._cache:  # (the batch path reads the cache directly)
            self._cache[piece] = found
        return found

    def token_lengths(self) -> None:
        """None: an unknown character keeps its text, which the chunk cache's table of token
        strings by id cannot say (each new chunk's tokens come from :meth:`tokenize`)."""
        return None

    def line_encoder(self, pre_tokenizer) -> None:
        return None

    def truncated(self, vocab_size: int) -> BPE:
        cut = super().truncated(vocab_size)
        cut.__class__ = type(self)  # the explorer's slider cut keeps the characters too
        return cut


def open_file(path: Path, pattern: str | None = None):
    """The codes as a BPE with ids in order of appearance; ``pattern`` is unused."""
    from core import decoders
    from core.formats.common import LoadedTokenizer
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
    model = CodesBPE(vocab, codes.merges, unk_token="<unk>", end_of_word_suffix=suffix).prepared()
    tok = Tokenizer(
        model, pre_tokenizer=WhitespaceSplit(), decoder=decoders.BPEDecoder("</w>") if suffix else None
    )
    # subtle: tokenizer.json cannot say that an unknown character keeps its text (CodesBPE); a
    # project (and the explorer's kept run) keeps the codes themselves beside it
    tok.extra["source_file"] = {"format": "subword-nmt", "name": path.name, "data": path.read_bytes()}
    warnings = [
        f"{path.name}: subword-nmt codes carry no vocabulary ids; ids follow the order units appear in the "
        "codes; a character the codes never mention is kept as it is, as subword-nmt keeps it, with "
        "<unk>'s id (the codes give it none)"
    ]
    if suffix is None:
        warnings.append(f"{path.name}: version 0.1 codes (a separate </w> unit) are applied approximately")
    return LoadedTokenizer(tok, "subword-nmt", path, warnings)


def save_file(tok, path: Path, record=None) -> list[str]:
    from core.formats.common import bpe_parts, file_in, pipeline_losses

    vocab, merges, d = bpe_parts(tok, "subword-nmt codes")
    save_codes(file_in(path, "codes"), merges)
    losses = ["subword-nmt codes carry no vocabulary ids (only the merges, in order)"]
    # apply_bpe cuts a line at spaces: a WhitespaceSplit tokenizer keeps its words (open_file)
    losses += pipeline_losses(tok, "subword-nmt codes", keeps_pre_tokenizer="WhitespaceSplit")
    if d.get("unk_token"):
        losses.append(
            "subword-nmt keeps a character its merges never build as it is, where this model gives "
            f"{d['unk_token']!r} for a unit its vocabulary lacks"
        )
    if d.get("end_of_word_suffix") != "</w>":
        losses.append(
            "subword-nmt applies codes with '</w>' on each word's last character; this model "
            f"uses end_of_word_suffix={d.get('end_of_word_suffix')!r}, so segmentations differ"
        )
    if d.get("continuing_subword_prefix"):
        losses.append(f"subword-nmt codes do not record the prefix {d['continuing_subword_prefix']!r}")
    return losses
