"""WordPiece against Hugging Face tokenizers: same vocab.txt -> same encodings; frequency
score -> the same vocabulary as their WordPieceTrainer.

subtle: tokenizers numbers its "##" characters in hash-map order, which changes from run to
run, and ties between equally frequent pairs go to the smaller ids, so two runs of their
own trainer can end with different vocabularies. To compare exactly, we hand our trainer
their alphabet numbering (``extra["alphabet_order"]``); everything after that (merge
order, ties, ids) must then match token for token.
"""

from __future__ import annotations

import pytest

from core.events import drain
from core.formats.bert_vocab import load_bert_vocab, save_bert_vocab
from core.models.wordpiece.trainer import train_wordpiece
from core.options import TrainOptions, pre_tokenize_lines
from core.pre_tokenizers import BertPreTokenizer
from core.tokenizer import Tokenizer

tokenizers = pytest.importorskip("tokenizers")


def their_trained(lines, vocab_size, min_frequency=0):
    tok = tokenizers.Tokenizer(tokenizers.models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    trainer = tokenizers.trainers.WordPieceTrainer(
        vocab_size=vocab_size, min_frequency=min_frequency, special_tokens=["[UNK]"], show_progress=False
    )
    tok.train_from_iterator(lines, trainer)
    return tok.get_vocab()


def our_frequency_vocab(lines, vocab_size, their_vocab, min_frequency=0):
    order = sorted(their_vocab, key=their_vocab.get)
    options = TrainOptions(
        "wordpiece",
        vocab_size=vocab_size,
        min_frequency=min_frequency,
        extra={"score": "frequency", "alphabet_order": order},
    )
    return drain(train_wordpiece(pre_tokenize_lines(lines, options), options)).get_vocab()


def read_lines(path, limit=None):
    lines = path.read_text(encoding="utf-8").splitlines()
    return lines if limit is None else lines[:limit]


@pytest.mark.usefixtures("bpe_kernels_build")  # each path of the BPE merge loop
def test_frequency_score_equals_word_piece_trainer_on_the_hug_table():
    lines = ["hug"] * 10 + ["pug"] * 5 + ["pun"] * 12 + ["bun"] * 4 + ["hugs"] * 5
    theirs = their_trained(lines, 100)
    assert our_frequency_vocab(lines, 100, theirs) == theirs
    assert {"##ug", "##un", "hug", "pun", "pug", "hugs", "bun"} <= set(theirs)


@pytest.mark.usefixtures("bpe_kernels_build")  # each path of the BPE merge loop
@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(["a"] * 7, id="one character"),
        pytest.param(["aaaa"] * 3 + ["aaaaaaa"] * 2 + ["aa", "a"], id="repeated symbols"),
        pytest.param(["ab", "cd", "ef", "ba", "dc", "fe"], id="all pairs tie"),
        pytest.param(["ab" * 3000 + "c"] * 2 + ["abc" * 2000, "ca" * 500], id="very long words"),
        pytest.param(["a##b", "##a##", "#a#", "aa##a"] * 3, id="words of # (tokens made two ways)"),
    ],
)
def test_frequency_score_equals_word_piece_trainer_on_awkward_inputs(lines):
    theirs = their_trained(lines, 60)
    assert our_frequency_vocab(lines, 60, theirs) == theirs


@pytest.mark.usefixtures("bpe_kernels_build")  # each path of the BPE merge loop
@pytest.mark.slow
@pytest.mark.parametrize(
    "name, limit", [("en-botchan.txt", None), ("ja-wagahaiwa.txt", None), ("ko-movie-reviews.txt", 30_000)]
)
def test_frequency_score_equals_word_piece_trainer(corpora_dir, name, limit):
    lines = read_lines(corpora_dir / name, limit)
    theirs = their_trained(lines, 8000)
    assert len(theirs) == 8000
    assert our_frequency_vocab(lines, 8000, theirs) == theirs


@pytest.mark.usefixtures("bpe_kernels_build")  # each path of the BPE merge loop
@pytest.mark.slow
def test_frequency_score_with_min_frequency(corpora_dir):
    lines = read_lines(corpora_dir / "en-botchan.txt")
    theirs = their_trained(lines, 100_000, min_frequency=3)
    assert len(theirs) < 100_000  # stopped by the minimum frequency, not the size
    assert our_frequency_vocab(lines, 100_000, theirs, min_frequency=3) == theirs


def assert_same_encodings(vocab_path, lines):
    theirs = tokenizers.Tokenizer(tokenizers.models.WordPiece.from_file(str(vocab_path), unk_token="[UNK]"))
    theirs.pre_tokenizer = tokenizers.pre_tokenizers.BertPreTokenizer()
    ours = Tokenizer(load_bert_vocab(vocab_path), pre_tokenizer=BertPreTokenizer())
    mismatches = []
    for i, (line, expected) in enumerate(zip(lines, theirs.encode_batch(lines))):
        got = ours.encode(line)
        if (got.tokens, got.ids, got.offsets) != (expected.tokens, expected.ids, expected.offsets):
            mismatches.append((i, line[:60], got.tokens[:8], expected.tokens[:8]))
    assert not mismatches[:5], f"{len(mismatches)} of {len(lines)} lines differ"


@pytest.mark.slow
@pytest.mark.parametrize("name", ["en-botchan.txt", "ja-wagahaiwa.txt", "ko-movie-reviews.txt"])
def test_every_line_encodes_as_tokenizers(corpora_dir, tmp_path, name):
    lines = read_lines(corpora_dir / name)
    save_bert_vocab(their_trained(lines, 8000), tmp_path / "vocab.txt")
    assert_same_encodings(tmp_path / "vocab.txt", lines)


@pytest.mark.slow
def test_our_likelihood_vocab_encodes_as_tokenizers(corpora_dir, tmp_path):
    # Our own likelihood-trained vocabulary (many rare, long ## pieces) through both encoders.
    lines = read_lines(corpora_dir / "ja-wagahaiwa.txt")
    options = TrainOptions("wordpiece", vocab_size=8000)
    model = drain(train_wordpiece(pre_tokenize_lines(lines, options), options))
    assert model.vocab_size == 8000
    save_bert_vocab(model, tmp_path / "vocab.txt")
    assert_same_encodings(tmp_path / "vocab.txt", lines)
