"""SentencePiece trained the way our Unigram trainer is compared with it: identity normalization,
"▁" before each line, pieces of at most 16 characters, shrinking factor 0.75, every character
kept, ``<unk>`` the one special token, its Unicode-script and digit rules off (we do not have
them) and its line-length limit raised so it sees every line. And a small SentencePiece BPE
``.model``, opened by us, for the tests of what we do with such a file."""

from __future__ import annotations


def train_sentencepiece_unigram(lines: list[str], directory, vocab: int, **options):
    """A ``SentencePieceProcessor`` trained on ``lines`` (written to ``directory`` as UTF-8, LF);
    ``options`` add to or override SentencePiece's trainer settings."""
    import sentencepiece as spm

    text = directory / "corpus.txt"
    text.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")
    prefix = str(directory / "spm")
    settings = dict(
        input=str(text),
        model_prefix=prefix,
        vocab_size=vocab,
        model_type="unigram",
        normalization_rule_name="identity",
        num_threads=1,
        character_coverage=1.0,
        unk_id=0,
        bos_id=-1,
        eos_id=-1,
        max_sentencepiece_length=16,
        shrinking_factor=0.75,
        num_sub_iterations=2,
        split_by_unicode_script=False,
        split_by_number=False,
        max_sentence_length=1 << 20,
        add_dummy_prefix=True,
        remove_extra_whitespaces=False,
        input_sentence_size=0,
        minloglevel=2,
    )
    spm.SentencePieceTrainer.train(**(settings | options))
    return spm.SentencePieceProcessor(model_file=prefix + ".model")


def train_sentencepiece_bpe(lines: list[str], directory, vocab: int, **options):
    """Our tokenizer of a SentencePiece BPE ``.model`` trained on ``lines`` (written to ``directory``
    as UTF-8, LF) with SentencePiece's own settings but every character kept; ``options`` add to or
    override them (``byte_fallback=True``)."""
    import sentencepiece as spm

    from core.formats.detect import open_tokenizer

    text = directory / "corpus.txt"
    text.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")
    settings = dict(
        input=str(text),
        model_prefix=str(directory / "spm"),
        model_type="bpe",
        vocab_size=vocab,
        character_coverage=1.0,
        num_threads=1,
        minloglevel=2,
    )
    spm.SentencePieceTrainer.train(**(settings | options))
    return open_tokenizer(directory / "spm.model").tokenizer
