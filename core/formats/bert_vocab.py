"""BERT's ``vocab.txt``: one token per line, the id is the line number (from 0).

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name, "vocab.txt")
    >>> save_bert_vocab(WordPiece({"[UNK]": 0, "h": 1, "##u": 2}), path)
    >>> [t.value for t in load_bert_vocab(path).tokenize("hu")]
    ['h', '##u']

Reading follows Hugging Face ``tokenizers`` (``WordPiece.from_file``): lines end with
``\\n`` (a ``\\r`` before it is dropped) and trailing whitespace of a line is trimmed.
Unlike ``tokenizers``, a UTF-8 byte-order mark at the start is ignored (``tokenizers``
glues it to the first token), and where it lets a later duplicate line silently take
the token's id, a duplicate token, an empty line, a binary file or a vocabulary
without the unknown token is a :class:`FormatError`.

Leaves out: the tokenizer settings a BERT checkpoint keeps elsewhere
(``tokenizer_config.json``: lowercasing, accent stripping); load them as options.
"""

from __future__ import annotations

from pathlib import Path

from core.atomic import write_atomic
from core.errors import ConfigError, FormatError
from core.models.base import vocab_by_id
from core.models.wordpiece.model import WordPiece


def read_bert_vocab(path) -> dict[str, int]:
    """Token -> id (its line number) of a vocab.txt file; FormatError if it is not one.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = Path(folder.name, "vocab.txt")
    >>> _ = path.write_text("[UNK]\\nh\\n##u\\n")
    >>> read_bert_vocab(path)
    {'[UNK]': 0, 'h': 1, '##u': 2}
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise FormatError(f"cannot read {path}: {e.strerror or e}") from e
    if b"\x00" in data:
        raise FormatError(f"{path} is a binary file, not a vocab.txt (one token per line)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FormatError(f"{path} is not UTF-8 text (byte {e.start}): not a vocab.txt") from e
    text = text.removeprefix("\ufeff")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line
    if not lines:
        raise FormatError(f"{path} is empty: a vocab.txt needs one token per line")
    vocab: dict[str, int] = {}
    for i, line in enumerate(lines):
        token = line.rstrip()
        if not token:
            raise FormatError(f"{path}, line {i + 1}: empty line (every line must hold a token)")
        if token in vocab:
            raise FormatError(f"{path}, line {i + 1}: token {token!r} repeats line {vocab[token] + 1}")
        vocab[token] = i
    return vocab


def load_bert_vocab(
    path, unk_token: str = "[UNK]", continuing_subword_prefix: str = "##", max_input_chars_per_word: int = 100
) -> WordPiece:
    """A :class:`WordPiece` model from a vocab.txt; FormatError if the unknown token is missing."""
    vocab = read_bert_vocab(path)
    if unk_token not in vocab:
        raise FormatError(f"{path} has no unknown token {unk_token!r} (choose another with unk_token=...)")
    try:
        return WordPiece(vocab, unk_token, continuing_subword_prefix, max_input_chars_per_word)
    except ConfigError as e:
        raise FormatError(f"{path}: {e}") from e


def save_bert_vocab(model_or_vocab, path) -> None:
    """Write tokens in id order, one per line, atomically (temp file + ``os.replace``).

    The ids must be exactly ``0..n-1`` (a vocab.txt cannot have gaps) and no token may
    hold a line break or end in whitespace; otherwise ConfigError and nothing is written.
    """
    vocab = model_or_vocab.get_vocab() if hasattr(model_or_vocab, "get_vocab") else dict(model_or_vocab)
    if not vocab:
        raise ConfigError("cannot save an empty vocabulary as vocab.txt")
    by_id = list(vocab_by_id(vocab).items())
    tokens = [token for token, _ in by_id]
    text = "\n".join(tokens) + "\n"
    # The common case in a few C-level passes (8,000 tokens: ~1 ms, the loop ~5 ms); the loop
    # names the first id or token that fails.
    if (
        [i for _, i in by_id] == list(range(len(by_id)))
        and all(tokens)
        and list(map(str.rstrip, tokens)) == tokens
        and text.count("\n") == len(tokens)
        and "\r" not in text
    ):
        write_atomic(Path(path), text)
        return
    for expected, (token, i) in enumerate(by_id):
        if i != expected:
            raise ConfigError(
                f"vocab.txt needs ids 0..{len(by_id) - 1} without gaps; id {expected} is missing "
                f"(token {token!r} has id {i})"
            )
        if not token or token != token.rstrip() or any(c in token for c in "\n\r"):
            raise ConfigError(f"token {token!r} (id {i}) cannot be written as one line of a vocab.txt")
    text = "".join(token + "\n" for token, _ in by_id)
    write_atomic(Path(path), text)


# BERT's special tokens, which readers of a vocab.txt expect in it.
BERT_SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
# The unknown tokens a vocab.txt is opened with, the first found (BERT's, then SentencePiece's).
UNKNOWN_TOKENS = ("[UNK]", "<unk>", "[unk]")


# -- as a row of core.formats.registry ---------------------------------------------------------


def find_in_folder(folder: Path) -> Path | None:
    path = folder / "vocab.txt"
    return path if path.is_file() else None


def sniff(head) -> bool:
    """One unit per line (the most permissive check: the registry runs it last)."""
    return not head.binary and all(b" " not in ln.strip() for ln in head.lines)


def guess_lowercase(vocab: dict[str, int]) -> tuple[bool, str]:
    """Whether a bare vocab.txt was made for lowercased text, and why in a few words.

    Cased when word pieces that lowercasing could never produce come with their lowercase
    forms too (``The`` and ``the``), for at least 0.5 % of the word pieces (and three);
    otherwise lowercase, the default of `tokenizers`' ``BertWordPieceTokenizer`` and
    `transformers`' ``BertTokenizer``. A capital letter alone says little: the uncased
    BERT vocabulary holds ``ℝ`` (which has no lowercase) and a few symbols.

    >>> guess_lowercase({"[UNK]": 0, "the": 1, "The": 2, "a": 3, "A": 4, "is": 5, "Is": 6})
    (False, "3 of 6 word pieces have their lowercase form too (e.g. 'The' and 'the')")
    """
    words = [t.removeprefix("##") for t in vocab if not (t.startswith("[") and t.endswith("]"))]
    known = set(words)
    paired = [w for w in words if w.lower() != w and w.lower() in known]
    if len(paired) >= max(3, len(words) // 200):
        return False, (
            f"{len(paired)} of {len(words)} word pieces have their lowercase form too "
            f"(e.g. {paired[0]!r} and {paired[0].lower()!r})"
        )
    return True, (
        f"only {len(paired)} of {len(words)} word pieces have an upper-case form beside their "
        "lowercase one: assumed lowercase, the BERT libraries' default"
    )


def _guess_strip_accents(words: list[str], lowercase: bool) -> bool:
    """subtle: accent stripping (NFD, marks dropped) turns every Hangul syllable into jamo and
    'é' into 'e'; a vocabulary that holds such characters was not made with it."""
    import unicodedata

    return lowercase and not any(
        unicodedata.normalize("NFD", c) != c for t in words for c in t.removeprefix("##")
    )


def open_file(path: Path, pattern: str | None = None, lowercase: bool | None = None):
    """BERT's whole pipeline around the vocabulary, its settings guessed from the tokens
    (``lowercase`` True/False overrides the guess of :func:`guess_lowercase`).

    ``pattern`` is unused.
    """
    from core import decoders
    from core.formats.common import LoadedTokenizer
    from core.normalizers import BertNormalizer
    from core.pre_tokenizers import BertPreTokenizer
    from core.tokenizer import AddedToken, Tokenizer

    vocab = read_bert_vocab(path)
    unk = next((t for t in UNKNOWN_TOKENS if t in vocab), None)
    if unk is None:
        raise FormatError(f"{path} has no unknown token ([UNK]): not a BERT vocab.txt")
    model = WordPiece(vocab, unk, "##", 100)
    words = [t for t in vocab if not (t.startswith("[") and t.endswith("]"))]
    if lowercase is None:
        lowercase, why = guess_lowercase(vocab)
    else:
        why = "as asked (--lowercase)" if lowercase else "as asked (--cased)"
    strip_accents = _guess_strip_accents(words, lowercase)
    specials = [t for t in BERT_SPECIALS if t in vocab]
    tok = Tokenizer(
        model,
        normalizer=BertNormalizer(strip_accents=strip_accents, lowercase=lowercase),
        pre_tokenizer=BertPreTokenizer(),
        decoder=decoders.WordPiece("##"),
        added_tokens=[AddedToken(t, vocab[t], special=True) for t in specials],
    )
    warnings = [
        f"{path.name} holds no normalizer settings: assumed BERT's, with lowercase={lowercase} "
        f"({why}; choose with --lowercase or --cased) and "
        f"strip_accents={strip_accents} ({'no' if strip_accents else 'some'} precomposed letters such as "
        "Hangul syllables or accented Latin in it)"
    ]
    return LoadedTokenizer(tok, "bert", path, warnings)


def save_file(tok, path: Path, record=None) -> list[str]:
    from core.formats.common import describe, file_in
    from core.normalizers import BertNormalizer
    from core.pre_tokenizers import BertPreTokenizer

    path = file_in(path, "vocab.txt")
    d = tok.model.to_dict()
    vocab = tok.get_vocab()
    if not any(t in vocab for t in UNKNOWN_TOKENS):
        # subtle: a reader (ours, tokenizers' WordPiece) maps what the vocabulary cannot spell to the
        # unknown token; a file without one would be written and then refuse to open.
        raise ConfigError(
            f"vocab.txt needs an unknown token ({' or '.join(UNKNOWN_TOKENS[:2])}) and this "
            f"{d.get('type')} vocabulary has none (a byte-level vocabulary spells every text with its "
            "bytes): save it as tokenizer.json"
        )
    # tokenizers' BertWordPieceTokenizer refuses a vocab.txt without [SEP] and [CLS], and fails on
    # the first unknown character without [UNK]: BERT's special tokens the vocabulary lacks are
    # written after it (its ids do not move)
    unknown = next(t for t in UNKNOWN_TOKENS if t in vocab)
    added = [t for t in BERT_SPECIALS if t not in vocab and t != "[UNK]"]
    after = max(vocab.values(), default=-1) + 1
    vocab = vocab_by_id(vocab) | {t: after + k for k, t in enumerate(added)}
    if unknown != "[UNK]":
        vocab["[UNK]"] = after + len(added)
    save_bert_vocab(vocab, path)
    losses = []
    if added:
        losses.append(
            f"vocab.txt readers (tokenizers' BertWordPieceTokenizer) need BERT's special tokens: "
            f"{', '.join(added)} written after the vocabulary (ids {after}-{after + len(added) - 1})"
        )
    if unknown != "[UNK]":
        losses.append(
            f"the unknown token {unknown} is not BERT's: readers use [UNK], written as id {vocab['[UNK]']}, "
            f"so what the vocabulary cannot spell gets that id, not {unknown}'s {vocab[unknown]}"
        )
    if d.get("type") != "WordPiece":
        losses.append(
            f"vocab.txt is read as a WordPiece vocabulary; this tokenizer's {d.get('type')} model "
            "(merges or scores) is lost"
        )
    elif d.get("continuing_subword_prefix", "##") != "##":
        losses.append(f"vocab.txt does not record the subword prefix {d['continuing_subword_prefix']!r}")
    # what a reader of the file will assume (this module's open_file, BertWordPieceTokenizer)
    words = [t for t in vocab if not (t.startswith("[") and t.endswith("]"))]
    lowercase = guess_lowercase(vocab)[0]
    strip_accents = _guess_strip_accents(words, lowercase)
    norm = tok.normalizer
    had = describe(norm) if norm is not None else "no normalizer"
    if not (
        isinstance(norm, BertNormalizer)
        and norm.clean_text
        and norm.handle_chinese_chars
        and norm.lowercase == lowercase
        and bool(lowercase if norm.strip_accents is None else norm.strip_accents) == strip_accents
    ):
        losses.append(
            "vocab.txt carries no normalizer and readers apply BERT's: control characters removed, "
            f"each CJK ideograph split off, lowercase={lowercase}, strip_accents={strip_accents} (as "
            f"guessed from this vocabulary; --lowercase/--cased choose when reading); this tokenizer "
            f"had {had}, so text may encode differently"
        )
    if not isinstance(tok.pre_tokenizer, BertPreTokenizer):
        pre = describe(tok.pre_tokenizer) if tok.pre_tokenizer is not None else "no pre-tokenizer"
        losses.append(
            "vocab.txt carries no pre-tokenizer and readers apply BERT's (split on whitespace and "
            f"every punctuation character); this tokenizer had {pre}"
        )
    return losses
