"""Acceptance: SentencePiece ``char`` and ``word`` models trained here encode as
``SentencePieceProcessor.encode``; a unigram ``.model`` gives SentencePiece's n-best
segmentations (same scores, same segmentations wherever the score is not tied) and
samples that are segmentations of the text; `tokenizers`' own
``SentencePieceUnigramTokenizer`` file (with its ``Nmt`` normalizer) encodes as `tokenizers`."""

from __future__ import annotations

import random

import pytest

spm = pytest.importorskip("sentencepiece")
tokenizers = pytest.importorskip("tokenizers")

from conftest import CORPORA  # noqa: E402
from spans import sentencepiece_spans  # noqa: E402

from core.formats.detect import open_tokenizer  # noqa: E402

PROBES = [
    "",
    "  a  b ",
    "hello  wörld 안녕 zzqq",
    "한국어 텍스트 xyzzy<sep>ab",
    "tabs\tand\u200bzero\u2028width\x07bell",
    "ｆｕｌｌｗｉｄｔｈ ＡＢＣ 😀 👍🏽",
]


def _lines(n: int = 600) -> list[str]:
    return (CORPORA / "en-botchan.txt").read_text(encoding="utf-8").splitlines()[:n]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = tmp_path_factory.mktemp("spm") / "corpus.txt"
    path.write_text("\n".join(_lines(3000)), encoding="utf-8")
    return path


def _train(corpus, prefix, **options):
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(prefix), minloglevel=2, **options)
    return spm.SentencePieceProcessor(model_file=f"{prefix}.model"), open_tokenizer(f"{prefix}.model")


VARIANTS = {
    "char": dict(model_type="char", vocab_size=60),
    "char, byte fallback": dict(model_type="char", vocab_size=400, byte_fallback=True),
    "char, user-defined": dict(model_type="char", vocab_size=80, user_defined_symbols=["<sep>", "ab"]),
    "word": dict(model_type="word", vocab_size=2000),
    "word, byte fallback": dict(model_type="word", vocab_size=2000, byte_fallback=True),
    "word, user-defined": dict(model_type="word", vocab_size=2000, user_defined_symbols=["<sep>"]),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_char_and_word_models_encode_as_sentencepiece(corpus, tmp_path, variant):
    sp, loaded = _train(corpus, tmp_path / "m", **VARIANTS[variant])
    assert loaded.format == "sentencepiece"
    tok = loaded.tokenizer
    for line in _lines() + PROBES:
        assert tok.encode(line).ids == sp.encode(line), line
        assert tok.encode(line).tokens == [sp.id_to_piece(i) for i in sp.encode(line)], line


def test_unigram_nbest_is_sentencepieces_up_to_ties(corpus, tmp_path):
    sp, loaded = _train(corpus, tmp_path / "m", model_type="unigram", vocab_size=500)
    tok = loaded.tokenizer
    checked = 0
    for line in _lines(400):
        theirs = sp.nbest_encode_as_ids(line, 6)
        if any(0 in ids for ids in theirs):  # an unknown piece has no score of its own to compare
            continue
        ours = tok.model.nbest_words([p.normalized for p in tok.pieces(line)], 6)
        our_ids = [[tok.token_to_id(t) for t in tokens] for tokens, _ in ours]
        our_scores = [round(score, 3) for _, score in ours]
        their_scores = [round(sum(sp.get_score(i) for i in ids), 3) for ids in theirs]
        assert our_scores == their_scores, line
        assert our_ids[0] == theirs[0] == sp.encode(line), line
        # subtle: among paths of equal score SentencePiece's heap order is its own; and the
        # last score may be shared with paths neither list shows.
        for i, score in enumerate(our_scores[:-1]):
            if our_scores.count(score) == 1:
                assert our_ids[i] == theirs[i], line
        checked += 1
    assert checked > 300


def test_unigram_samples_are_segmentations_of_the_text(corpus, tmp_path):
    sp, loaded = _train(corpus, tmp_path / "m", model_type="unigram", vocab_size=500)
    tok = loaded.tokenizer
    rng = random.Random(7)
    line = "The unigram model samples another segmentation each time."
    (piece,) = [p.normalized for p in tok.pieces(line)]
    seen = set()
    for _ in range(50):
        tokens = [t.value for t in tok.model.sample(piece, 0.1, rng)]
        assert "".join(tokens) == piece
        seen.add(tuple(tokens))
    assert len(seen) > 1  # it is a distribution, not the best path again
    # SentencePiece's own samples are segmentations of the same normalized text
    assert "".join(sp.encode(line, out_type=str, enable_sampling=True, alpha=0.1, nbest_size=-1)) == piece


def test_tokenizers_sentencepiece_unigram_file_with_nmt_normalizer(tmp_path):
    from tokenizers import SentencePieceUnigramTokenizer

    theirs = SentencePieceUnigramTokenizer()
    theirs.train_from_iterator(
        _lines(2000), vocab_size=400, show_progress=False, unk_token="<unk>", special_tokens=["<unk>"]
    )
    theirs.save(str(tmp_path / "tokenizer.json"))
    loaded = open_tokenizer(tmp_path / "tokenizer.json")
    assert "Nmt" in str(loaded.tokenizer.normalizer.to_dict())
    assert loaded.warnings == []
    for line in _lines(300) + PROBES + ["a\tb\x07c\u200bd\r\ne\ufeff f\u2581g\x01\x02"]:
        a, b = theirs.encode(line), loaded.tokenizer.encode(line)
        assert b.ids == a.ids, line
        assert [tuple(o) for o in b.offsets] == sentencepiece_spans(a.offsets), line  # ours never overlap
