"""BERT's ``vocab.txt``: one token per line, the id is the line number (from 0).

    >>> save_bert_vocab(WordPiece({"[UNK]": 0, "h": 1, "##u": 2}), path)
    >>> load_bert_vocab(path).tokenize("hu")        # -> h ##u

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
from core.models.wordpiece import WordPiece


def read_bert_vocab(path) -> dict[str, int]:
    """Token -> id (its line number) of a vocab.txt file; FormatError if it is not one.

    >>> read_bert_vocab(path)            # file: "[UNK]\\nh\\n##u\\n"
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
    by_id = sorted(vocab.items(), key=lambda kv: kv[1])
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
