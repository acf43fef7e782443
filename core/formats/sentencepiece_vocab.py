"""SentencePiece's ``.vocab`` text file (``piece<TAB>score`` per line) as a format of its own.

    >>> import tempfile
    >>> folder = tempfile.TemporaryDirectory()
    >>> _ = Path(folder.name, "m.vocab").write_text("<unk>\\t0\\n▁hel\\t-1.5\\nlo\\t-2.5\\nh\\t-4.5\\ne\\t-5.5\\nl\\t-6.5\\no\\t-7.5\\n")
    >>> loaded = open_file(Path(folder.name, "m.vocab"))
    >>> loaded.warnings[1]
    'm.vocab: model type guessed from the scores: unigram'
    >>> loaded.tokenizer.encode("hello").tokens
    ['▁hel', 'lo']

The file is what ``spm_train`` writes beside the ``.model``; reading it is
:func:`core.formats.sentencepiece_model.load_sentencepiece_vocab` (the pieces and
their types are shared with the ``.model`` reader).

Leaves out: writing (save the ``.model``, which holds everything the ``.vocab`` does
and the normalization rules it lacks).
"""

from __future__ import annotations

from pathlib import Path

from core.formats.common import Head, LoadedTokenizer, one_file


def find_in_folder(folder: Path) -> Path | None:
    return one_file(folder, "*.vocab")


def sniff(head: Head) -> bool:
    """Every line is ``piece<TAB>number``."""
    return not head.binary and all(_is_score_line(ln) for ln in head.lines)


def _is_score_line(line: bytes) -> bool:
    parts = line.split(b"\t")
    if len(parts) != 2:
        return False
    try:
        float(parts[1])
        return True
    except ValueError:
        return False


def open_file(path: Path, pattern: str | None = None) -> LoadedTokenizer:
    """``pattern`` is unused."""
    from core.formats.sentencepiece_model import load_sentencepiece_vocab

    tok, warnings = load_sentencepiece_vocab(path)
    return LoadedTokenizer(tok, "sentencepiece-vocab", path, warnings)
