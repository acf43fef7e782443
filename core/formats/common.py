"""What every format module shares: the result of opening a file, the first look at a file, and
the wording of what a save loses.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> _ = Path(folder.name, "codes").write_text("#version: 0.2\\nu g\\n")
    >>> head = Head.of(Path(folder.name, "codes"))
    >>> head.binary, head.lines
    (False, [b'#version: 0.2', b'u g'])
    >>> from core.normalizers import BertNormalizer
    >>> describe(BertNormalizer())
    'BertNormalizer'

Leaves out: anything one format alone needs; that lives in the format's own module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.errors import ConfigError, FormatError

HEAD_BYTES = 4096  # how much of a file content sniffing reads


@dataclass
class LoadedTokenizer:
    tokenizer: Any
    format: str
    path: Path
    warnings: list[str] = field(default_factory=list)
    training: Any = None  # a TrainingRecord for projects


# -- the first look at a file ------------------------------------------------------------------


@dataclass(frozen=True)
class Head:
    """The first :data:`HEAD_BYTES` of a file, as the formats' ``sniff`` functions see them.

    ``lines`` are the first 20 non-blank lines without their ``\\r`` (the last one is dropped
    when the read stopped inside it); empty for a binary file.
    """

    data: bytes
    binary: bool
    lines: list[bytes]

    @property
    def stripped(self) -> bytes:
        """The data without a leading byte-order mark or white space."""
        return self.data.lstrip(b"\xef\xbb\xbf \t\r\n")

    @classmethod
    def of(cls, path: Path) -> Head:
        try:
            with open(path, "rb") as f:
                data = f.read(HEAD_BYTES)
        except OSError as e:
            raise FormatError(f"cannot read {path}: {e.strerror or e}") from None
        if not data.strip():
            raise FormatError(f"{path} is empty")
        binary = b"\x00" in data or _not_text(data)
        lines: list[bytes] = []
        if not binary:
            lines = [ln.strip(b"\r") for ln in data.split(b"\n")[:20]]
            lines = [ln for ln in lines if ln.strip()]
            if len(lines) > 1 and len(data) == HEAD_BYTES:
                lines = lines[:-1]  # the last line may be cut
        return cls(data, binary, lines)


def _not_text(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return False
    except UnicodeDecodeError as e:
        return e.start < len(data) - 4  # a cut multi-byte character at the end is fine


def one_file(folder: Path, pattern: str) -> Path | None:
    """The only file in ``folder`` matching ``pattern``, or None when there are none or several.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> _ = Path(folder.name, "tokenizer.model").write_bytes(b"")
    >>> one_file(Path(folder.name), "*.model").name, one_file(Path(folder.name), "*.json")
    ('tokenizer.model', None)
    """
    found = sorted(p for p in folder.glob(pattern) if p.is_file())
    return found[0] if len(found) == 1 else None


def file_in(path: Path, name: str) -> Path:
    """``path`` itself, or ``path/name`` when ``path`` is a folder (where a single-file format saves)."""
    return path / name if path.is_dir() else path


# -- what a save loses ---------------------------------------------------------------------------


def pipeline_losses(
    tok, target: str, keeps_pre_tokenizer: str | None = None, implied_specials: tuple[str, ...] = ()
) -> list[str]:
    """The parts of ``tok``'s pipeline a file that stores only a model cannot carry
    (``implied_specials``: special tokens the format's readers mark without being told)."""
    from core.pre_tokenizers import NoSplit

    losses = []
    if tok.normalizer is not None:
        losses.append(f"{target}: no normalizer is stored; {describe(tok.normalizer)} is lost")
    pre = tok.pre_tokenizer
    if pre is not None and not isinstance(pre, NoSplit):
        name = type(pre).__name__
        if keeps_pre_tokenizer is None or name != keeps_pre_tokenizer:
            losses.append(f"{target}: no pre-tokenizer is stored; {describe(pre)} is lost")
    elif keeps_pre_tokenizer:
        losses.append(
            f"{target} implies the {keeps_pre_tokenizer} pre-tokenizer, which this tokenizer does not use"
        )
    unmarked = [t for t in sorted(tok.added_tokens, key=lambda t: t.id) if t.content not in implied_specials]
    if unmarked:
        names = ", ".join(t.content for t in unmarked[:5])
        losses.append(
            f"{target}: added/special tokens are not marked ({names}{', ...' if len(unmarked) > 5 else ''})"
        )
    if tok.post_processor is not None:
        losses.append(f"{target}: no post-processor is stored")
    return losses


def describe(component) -> str:
    """A component's ``type`` as a save message names it (a Sequence lists its parts)."""
    try:
        d = component.to_dict()
    except Exception:  # noqa: BLE001 - a description must never fail a save
        return type(component).__name__
    if d.get("type") == "Sequence":
        inner = d.get("normalizers") or d.get("pretokenizers") or []
        return "Sequence(" + ", ".join(x.get("type", "?") for x in inner) + ")"
    return str(d.get("type", type(component).__name__))


def bpe_parts(tok, target: str) -> tuple[dict[str, int], list[tuple[str, str]], dict]:
    """Vocabulary, ranked merges and settings of a BPE-shaped model; ConfigError otherwise."""
    d = tok.model.to_dict()
    if d.get("type") != "BPE":
        raise ConfigError(f"{target} holds a BPE model; this tokenizer's model is {d.get('type')}")
    pairs = (m.split(" ", 1) if isinstance(m, str) else m for m in d.get("merges", []))
    merges = [(str(a), str(b)) for a, b in pairs]
    return dict(d["vocab"]), merges, d


def source_losses(tok, target: str) -> list[str]:
    """What a tokenizer opened from a SentencePiece model or a GGUF file loses in any other format."""
    extra = getattr(tok, "extra", {}) or {}
    if "sentencepiece" in extra:
        from core.normalizers_sentencepiece import APPROXIMATIONS

        return [f"{target}: {APPROXIMATIONS}; Viterbi ties may break differently than in SentencePiece"]
    if "gguf" in extra:
        return _gguf_losses(tok, target)
    return []


def _gguf_losses(tok, target: str) -> list[str]:
    """What a tokenizer opened from a GGUF file (core.formats.gguf) loses in another format."""
    gguf = tok.extra.get("gguf") or {}
    losses = []
    if gguf.get("model") in ("llama", "t5"):
        from core.normalizers_sentencepiece import APPROXIMATIONS

        losses.append(f"{target}: {APPROXIMATIONS}")
    if "chat_template" in tok.extra:
        losses.append(f"{target}: the chat template (tokenizer.chat_template) is not kept")
    if gguf.get("charsmap"):
        losses.append(
            f"{target}: `tokenizers` applies the precompiled charsmap to whole grapheme clusters, "
            "llama.cpp (and this tokenizer) the longest match at each character"
        )
    return losses
