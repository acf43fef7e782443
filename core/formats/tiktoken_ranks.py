"""tiktoken rank files: ``<base64 of the token's bytes> <rank>`` per line.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> ranks = {bytes([b]): b for b in range(256)} | {b"He": 256, b"ll": 257, b"llo": 258, b"Hello": 259}
    >>> write_ranks(ranks, Path(folder.name, "tiny.tiktoken"))
    >>> tok = load_tiktoken(Path(folder.name, "tiny.tiktoken"), pattern="cl100k_base")
    >>> tok.encode("Hello 한국어").ids       # Hello merged; the rest stays bytes (한 is ED 95 9C)
    [259, 32, 237, 149, 156, 234, 181, 173, 236, 150, 180]

A rank file is a byte-level BPE with no merge list: the rank of a token is its
id AND its merge priority. The tokenizer built from it (:func:`tiktoken_tokenizer`)
encodes as tiktoken does with stages and a model defined elsewhere: the text is split
with the pattern (:class:`core.pre_tokenizers.TiktokenSplit`, by name: ``gpt2``,
``cl100k_base``, ``o200k_base``; or a regex given as is), then each piece is merged by
rank (:class:`core.models.bpe.tiktoken.TiktokenBPE`).

Special tokens are not in a rank file: pass them to :func:`load_tiktoken`.
Leaves out: the pattern itself is not stored in the file either.
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path

from core.atomic import write_atomic
from core.bytelevel import CHAR_TO_BYTE
from core.errors import ConfigError, FormatError
from core.limits import check_token_id
from core.models.bpe.tiktoken import TiktokenBPE
from core.pre_tokenizers import TiktokenSplit

# -- the file -------------------------------------------------------------------------


def read_ranks(path: str | os.PathLike) -> dict[bytes, int]:
    """The ``bytes -> rank`` table of a rank file; FormatError naming the file and line."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        raise FormatError(f"{path}: cannot read ({e.strerror or e})") from None
    ranks: dict[bytes, int] = {}
    seen_rank: dict[int, int] = {}
    for lineno, line in enumerate(raw.splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) != 2:
            raise FormatError(f"{path}: line {lineno} is not '<base64 token> <rank>'")
        try:
            # subtle: an empty token is written "=" (Whisper's multilingual file ends "= 50256");
            # tiktoken's lenient decoding reads it as b"", strict decoding refuses it.
            token = b"" if parts[0] == b"=" else base64.b64decode(parts[0], validate=True)
        except (binascii.Error, ValueError):
            raise FormatError(f"{path}: line {lineno}: {parts[0][:40]!r} is not base64") from None
        try:
            rank = int(parts[1])
        except ValueError:
            raise FormatError(
                f"{path}: line {lineno}: rank {parts[1][:40]!r} is not a whole number"
            ) from None
        if rank < 0:
            raise FormatError(f"{path}: line {lineno}: negative rank {rank}")
        check_token_id(rank, "rank", f"{path}: line {lineno}")
        if token in ranks:
            raise FormatError(f"{path}: line {lineno}: token {token!r} already has rank {ranks[token]}")
        if rank in seen_rank:
            raise FormatError(f"{path}: duplicate id: rank {rank} on lines {seen_rank[rank]} and {lineno}")
        seen_rank[rank] = lineno
        ranks[token] = rank
    if not ranks:
        raise FormatError(f"{path}: empty rank file")
    return ranks


def write_ranks(ranks: dict[bytes, int], path: str | os.PathLike) -> None:
    """Write a rank file atomically (temp file + rename), ordered by rank."""
    lines = [
        f"{base64.b64encode(t).decode('ascii')} {r}\n" for t, r in sorted(ranks.items(), key=lambda x: x[1])
    ]
    write_atomic(Path(path), "".join(lines))


def looks_like_rank_file(path: str | os.PathLike, lines: int = 5) -> bool:
    """True if the first lines are ``base64 integer`` pairs (format detection)."""
    try:
        with open(path, "rb") as f:
            head = [f.readline() for _ in range(lines)]
    except OSError:
        return False
    head = [h.strip() for h in head if h.strip()]
    return bool(head) and all(_is_rank_line(h) for h in head)


# The encodings tiktoken ships (tiktoken_ext.openai_public), known by how many ranks their files hold.
ENDOFTEXT, ENDOFPROMPT = "<|endoftext|>", "<|endofprompt|>"
KNOWN_RANK_COUNTS: dict[int, tuple[str, dict[str, int]]] = {
    50256: ("r50k_base", {ENDOFTEXT: 50256}),
    50280: ("p50k_base", {ENDOFTEXT: 50256}),
    100256: (
        "cl100k_base",
        {
            ENDOFTEXT: 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            ENDOFPROMPT: 100276,
        },
    ),
    199998: ("o200k_base", {ENDOFTEXT: 199999, ENDOFPROMPT: 200018}),
}


def guess_encoding(n_ranks: int) -> tuple[str, dict[str, int], str]:
    """``(pattern name, special tokens, why)`` for a rank file of ``n_ranks`` ranks.

    A file the size of one tiktoken ships is that encoding, with its special tokens;
    any other size takes the pattern of the nearest family (GPT-2's ~50k, cl100k's
    ~100k, o200k's ~200k) and no special tokens.

    >>> guess_encoding(50257)[:2]      # Whisper's multilingual file: GPT-2 plus an empty token
    ('gpt2', {})
    """
    if n_ranks in KNOWN_RANK_COUNTS:
        name, specials = KNOWN_RANK_COUNTS[n_ranks]
        return name, dict(specials), f"{n_ranks:,} ranks, as tiktoken's {name}"
    if n_ranks < 75_000:
        name = "gpt2"
    elif n_ranks < 150_000:
        name = "cl100k_base"
    else:
        name = "o200k_base"
    return name, {}, f"{n_ranks:,} ranks, nearest in size to {name}"


def tiktoken_tokenizer(
    ranks: dict[bytes, int], pattern: str = "cl100k_base", special_tokens: dict[str, int] | None = None
):
    """``special_tokens`` (e.g. ``{"<|endoftext|>": 100257}``) are matched in the text first,
    as ``tiktoken.Encoding.encode(text, allowed_special="all")`` does."""
    from core import decoders
    from core.tokenizer import AddedToken, Tokenizer

    specials = dict(special_tokens or {})
    taken = {r: t for t, r in ranks.items()}
    for content, id in specials.items():
        if id in taken:
            raise ConfigError(
                f"special token {content!r} has id {id}, which the rank of {taken[id]!r} already uses"
            )
    split = TiktokenSplit(pattern)
    tok = Tokenizer(
        TiktokenBPE(ranks),
        pre_tokenizer=split,
        decoder=decoders.ByteLevel(),
        added_tokens=[AddedToken(content, id, special=True) for content, id in specials.items()],
    )
    tok.extra["tiktoken"] = {"pattern": split.name or pattern}
    return tok


def load_tiktoken(
    path: str | os.PathLike, pattern: str = "cl100k_base", special_tokens: dict[str, int] | None = None
):
    """A rank file as a Tokenizer that encodes as ``tiktoken.Encoding`` with the same ranks and pattern."""
    return tiktoken_tokenizer(read_ranks(path), pattern, special_tokens)


def ranks_of(tok) -> dict[bytes, int]:
    """The rank table of a byte-level tokenizer (ids as ranks), to save as a rank file.

    A byte-level BPE whose ids follow its merge order (as trained) encodes the
    same through tiktoken's algorithm; other tokenizers cannot be rank files.
    """
    model = tok.model
    if isinstance(model, TiktokenBPE):
        return dict(model.ranks)
    vocab = model.get_vocab()
    ranks: dict[bytes, int] = {}
    for token, id in vocab.items():
        if any(c not in CHAR_TO_BYTE for c in token):
            raise ConfigError(
                f"token {token!r} is not byte-level: only a byte-level BPE can be a tiktoken rank file"
            )
        ranks[bytes(CHAR_TO_BYTE[c] for c in token)] = id
    missing = [b for b in range(256) if bytes([b]) not in ranks]
    if missing:
        # subtle: tiktoken cannot encode a byte it has no rank for (it panics); a BPE over
        # characters whose tokens all look like byte symbols gets here with a few dozen
        raise ConfigError(
            f"a tiktoken rank file needs all 256 single bytes and this vocabulary lacks {len(missing)} "
            f"(e.g. {bytes([missing[0]])!r}): only a byte-level BPE can be a rank file; save it as tokenizer.json"
        )
    return ranks


def save_tiktoken(tok, path: str | os.PathLike) -> None:
    write_ranks(ranks_of(tok), path)


# -- as a row of core.formats.registry ---------------------------------------------------------


def find_in_folder(folder: Path) -> Path | None:
    from core.formats.common import one_file

    return one_file(folder, "*.tiktoken")


def sniff(head) -> bool:
    """Every line is ``base64 number``."""
    return not head.binary and all(_is_rank_line(ln) for ln in head.lines)


def _is_rank_line(line: bytes) -> bool:
    parts = line.split()
    if len(parts) != 2 or not parts[1].isdigit():
        return False
    if parts[0] == b"=":  # the empty token
        return True
    try:
        base64.b64decode(parts[0], validate=True)
        return True
    except (binascii.Error, ValueError):
        return False


def open_file(path: Path, pattern: str | None = None):
    """``pattern``: the split pattern, which the file does not store (a name or a regex);
    without it, the one its size suggests (:func:`guess_encoding`).

    A file the size of one of tiktoken's encodings gets that encoding's special tokens;
    text that spells one is encoded as ordinary text (``encode_ordinary``) until the
    tokenizer's ``encode_special_tokens`` is set to False (``allowed_special="all"``).
    """
    from core.formats.common import LoadedTokenizer

    tok, warnings = rank_file_tokenizer(path, pattern)
    return LoadedTokenizer(tok, "tiktoken", path, warnings)


def rank_file_tokenizer(path: Path, pattern: str | None = None):
    """``(tokenizer, warnings)`` of a rank file, its pattern and special tokens guessed from its size."""
    ranks = read_ranks(path)
    guessed, specials, why = guess_encoding(len(ranks))
    warnings = []
    if pattern is None:
        pattern = guessed
        warnings.append(
            f"{path.name} does not store its split pattern: assumed {guessed} ({why}; choose with --pattern)"
        )
    taken = set(ranks.values())
    tok = tiktoken_tokenizer(ranks, pattern, {t: i for t, i in specials.items() if i not in taken})
    tok.encode_special_tokens = True
    return tok, warnings


def save_file(tok, path: Path, record=None) -> list[str]:
    from core.formats.common import describe, file_in

    save_tiktoken(tok, file_in(path, "ranks.tiktoken"))  # ConfigError (nothing written) unless byte-level
    losses = ["a tiktoken rank file does not store its split pattern"]
    if not isinstance(tok.pre_tokenizer, TiktokenSplit):
        losses.append(
            f"tiktoken applies a regex split pattern; this tokenizer's pre-tokenizer "
            f"{describe(tok.pre_tokenizer) if tok.pre_tokenizer else 'None'} is lost"
        )
    if tok.normalizer is not None:
        losses.append(f"a tiktoken rank file carries no normalizer: {describe(tok.normalizer)} is lost")
    if tok.added_tokens:
        losses.append("a tiktoken rank file carries no special tokens")
    if "tiktoken" not in (tok.extra or {}):
        losses.append(
            "ranks are the model's ids: tiktoken merges by rank, which equals this model's merge order "
            "only when ids were assigned in merge order (as trainers do)"
        )
    return losses
