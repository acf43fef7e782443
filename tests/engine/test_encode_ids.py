"""The ids fast path (``Tokenizer.encode_ids``/``encode_batch_ids``, ``Model.tokenize_ids``)
gives exactly the ids of ``encode``: on every line of the real corpora, on nasty text, with
added tokens and post-processors, and, for the BPE merge loops, on random strings
(hypothesis) against the heap that ``tokenize`` uses.

The tokenizers are trained here with our own trainers (no peer library): the fast path
must agree with our own slow path; tests/parity compares both with the peers.
"""

from __future__ import annotations

import pytest
from conftest import CORPORA
from hypothesis import given, settings
from hypothesis import strategies as st

from core.corpus import count_words
from core.events import drain
from core.formats.tiktoken_ranks import tiktoken_tokenizer
from core.models.bpe.model import BPE
from core.models.bpe.tiktoken import TiktokenBPE
from core.normalizers import NFKC, Lowercase, Replace
from core.normalizers import Sequence as NormSequence
from core.options import TrainOptions
from core.pre_tokenizers import Metaspace, Whitespace
from core.tokenizer import AddedToken, Tokenizer
from core.training import train_from_counts

NASTY = [
    "",
    " ",
    "   ",
    "\t\n\r\u3000\u00a0",
    "😀 이모지 👍🏽 emoji 👨‍👩‍👧",
    "ｶﾞ①Ⅻ ﬁ ㈱ é e\u0301 Å",
    "ㅋㅋㅋㅋㅋㅋㅋㅋㅋㅋ ㅠㅠ",
    "I'M SHOUTING'S   many   spaces\t\ttabs",
    "12345678 ９９ 3.14",
    "<unk> [UNK] <s> </s> [CLS]",
    "a" * 300,
    "철수는치킨을먹고" * 40,  # one long pre-token: above every cache and short-piece limit
    "x\u0000y\u200bz\u2028w",
]

SETTINGS = [
    ("bpe", "nfkc", "whitespace"),
    ("bpe", None, "metaspace"),
    ("bytelevel-bpe", None, "bytelevel"),
    ("wordpiece", "nfkc,lowercase", "bert"),
    ("unigram", "nfkc", "metaspace"),
    ("unigram", None, "whitespace-split"),
]


def _corpus_lines(name: str, every: int, limit: int) -> list[str]:
    lines = (CORPORA / name).read_text(encoding="utf-8-sig").splitlines()
    return lines[::every][:limit]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """One tokenizer per setting, trained on Korean + English lines."""
    corpus = tmp_path_factory.mktemp("ids") / "corpus.txt"
    lines = _corpus_lines("ko-movie-reviews.txt", 50, 3000) + _corpus_lines("en-botchan.txt", 3, 1500)
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = {}
    for algorithm, normalizer, pre in SETTINGS:
        options = TrainOptions(algorithm, vocab_size=1500, normalizer=normalizer, pre_tokenizer=pre)
        counts = drain(count_words(corpus, options))
        out[(algorithm, normalizer, pre)] = drain(train_from_counts(counts.words, options))
    return out


def _lines() -> list[str]:
    # lines the tokenizers were not trained on (other offsets), plus Japanese, plus nasty text
    return (
        _corpus_lines("ko-movie-reviews.txt", 37, 1500)
        + _corpus_lines("en-botchan.txt", 5, 500)
        + _corpus_lines("ja-wagahaiwa.txt", 20, 300)
        + NASTY
    )


@pytest.mark.parametrize("setting", SETTINGS, ids=["-".join(map(str, s)) for s in SETTINGS])
def test_ids_equal_encode_on_real_lines_and_nasty_text(trained, setting):
    tok = trained[setting]
    lines = _lines()
    expected = [tok.encode(line).ids for line in lines]
    assert sum(map(len, expected)) > len(lines)  # not vacuous
    assert tok.encode_batch_ids(lines) == expected
    # a second pass answers from the pre-token cache: still the same
    assert [tok.encode_ids(line) for line in lines] == expected


@pytest.mark.parametrize("setting", SETTINGS[:3], ids=["-".join(map(str, s)) for s in SETTINGS[:3]])
def test_added_tokens_and_post_processor(trained, setting):
    tok = trained[setting]
    tok.add_token(AddedToken("[MASK]", tok.vocab_size, special=True, lstrip=True, rstrip=True))
    tok.add_token(AddedToken("<sep>", tok.vocab_size + 1, special=True, single_word=True))
    tok.add_token(AddedToken("hello", tok.vocab_size + 2, special=False, normalized=True))
    tok.post_processor = {
        "type": "TemplateProcessing",
        "single": [{"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}]
        + [{"SpecialToken": {"id": "</s>", "type_id": 0}}],
        "pair": [],
        "special_tokens": {
            "<s>": {"id": "<s>", "ids": [9001], "tokens": ["<s>"]},
            "</s>": {"id": "</s>", "ids": [9002, 9003], "tokens": ["</s>", "</s>"]},
        },
    }
    try:
        texts = ["a [MASK] b", "[MASK]", "x<sep>y <sep> z", "HELLO world hello", "", "철수는 [MASK]먹고"]
        for text in texts + NASTY:
            for special in (False, True):
                assert tok.encode_ids(text, special) == tok.encode(text, special).ids, (text, special)
        assert tok.encode_batch_ids(texts, True)[0][0] == 9001
        assert tok.encode_batch_ids(texts, True)[0][-2:] == [9002, 9003]
    finally:
        tok.post_processor = None


def test_swapping_a_stage_is_seen_by_the_fast_path(trained):
    tok = trained[("bpe", "nfkc", "whitespace")]
    text = "Hello HELLO 안녕 ﬁne"
    before = tok.encode_ids(text)
    old = tok.normalizer
    try:
        tok.normalizer = NormSequence([NFKC(), Lowercase()])
        assert tok.encode_ids(text) == tok.encode(text).ids != before
    finally:
        tok.normalizer = old
    assert tok.encode_ids(text) == before


def test_metaspace_first_scheme_prepends_only_at_the_start():
    model = BPE({"<unk>": 0, "▁": 1, "a": 2, "b": 3, "▁a": 4}, [("▁", "a")], unk_token="<unk>")
    tok = Tokenizer(model, pre_tokenizer=Metaspace(prepend_scheme="first"))
    tok.add_token(AddedToken("<x>", 5))
    for text in ["a b", "<x>a", "a<x>a", " a", "<x> a", "", "<x>"]:
        assert tok.encode_ids(text) == tok.encode(text).ids, text
    # with a normalizer the part's offset needs alignments: still exact (through encode)
    tok.normalizer = Replace({"Regex": "^b"}, "")
    for text in ["ba", "a<x>ba", "bb a"]:
        assert tok.encode_ids(text) == tok.encode(text).ids, text


def test_replace_normalize_str_ignores_empty_matches_as_normalize_does():
    r = Replace({"Regex": "x*"}, "-")
    for text in ["abc", "axxb", "xx", ""]:
        assert r.normalize_str(text) == r.normalize(_ns(text)).normalized


def _ns(text):
    from core.text import NormalizedString

    return NormalizedString.from_str(text)


def test_encode_batch_equals_a_loop_of_encode(trained):
    tok = trained[("unigram", "nfkc", "metaspace")]
    lines = _lines()[:400]
    assert [e.ids for e in tok.encode_batch(lines)] == [tok.encode(t).ids for t in lines]
    assert [e.offsets for e in tok.encode_batch(lines)] == [tok.encode(t).offsets for t in lines]


# -- the merge loops of tokenize_ids against tokenize's heap ----------------------------------------

_ALPHABET = "aab"  # few symbols, so that many pairs merge and ties between equal pairs are common


@pytest.fixture(scope="module")
def small_bpe():
    # merges learnt on random-ish text from a 2-letter alphabet: rank ties between equal
    # pairs at several positions happen in nearly every word
    options = TrainOptions("bpe", vocab_size=40, pre_tokenizer="none")
    words = {
        "".join("ab"[(i * 7919 + k * k) % 3 % 2] for k in range(20 + i % 13)): 1 + i % 5 for i in range(60)
    }
    return drain(train_from_counts(words, options)).model


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="abz", max_size=140))
def test_bpe_pair_scan_equals_the_heap(small_bpe, word):
    # "z" is not in the vocabulary: unknown tokens among the merges; lengths cross _SHORT_PIECE
    assert small_bpe.tokenize_ids(word) == [t.id for t in small_bpe.tokenize(word)]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab한 ", max_size=120))
def test_tiktoken_pair_scan_equals_the_heap(word):
    ranks = {bytes([b]): b for b in range(256)}
    for extra in [b"ab", b"ba", b"aa", b"abab", b"bb", b"aab", "한".encode(), b"\xed\x95", b" a"]:
        ranks.setdefault(extra, len(ranks))
    tok = tiktoken_tokenizer(ranks, "cl100k_base")
    model = tok.model
    assert isinstance(model, TiktokenBPE)
    for piece in tok.pre_tokenizer.split_words(word):
        assert model.tokenize_ids(piece) == [t.id for t in model.tokenize(piece)]
    assert tok.encode_ids(word) == tok.encode(word).ids


def test_whitespace_pre_tokenizer_pieces_are_cached_once(trained):
    tok = trained[("bpe", "nfkc", "whitespace")]
    tok.encode_ids("zzqq zzqq zzqq")
    plan = tok._ids_plan()
    assert plan is not None and "zzqq" in plan.cache
    assert isinstance(tok.pre_tokenizer, Whitespace)


@pytest.mark.parametrize(
    "options",
    [{}, {"lowercase": False}, {"strip_accents": True, "lowercase": False}, {"clean_text": False}],
    ids=["default", "cased", "cased-stripped", "no-clean"],
)
@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="aÉé\u0301ΣİI世界\t\u3000\x00\ufffd\u200b\ue000 한ｶ", max_size=20))
def test_bert_normalize_str_equals_normalize(options, text):
    from core.normalizers import BertNormalizer

    n = BertNormalizer(**options)
    assert n.normalize_str(text) == n.normalize(_ns(text)).normalized


def test_a_tokenizer_pickles_after_the_fast_path_ran(trained):
    import pickle

    for setting in SETTINGS:
        tok = trained[setting]
        ids = tok.encode_ids("철수는 hug 먹고")
        copy = pickle.loads(pickle.dumps(tok))
        assert copy.encode_ids("철수는 hug 먹고") == ids == copy.encode("철수는 hug 먹고").ids


def test_morpheme_pre_tokenizer_through_the_fast_path(tmp_path):
    pytest.importorskip("kiwipiepy")
    corpus = tmp_path / "ko.txt"
    lines = _corpus_lines("ko-movie-reviews.txt", 97, 800)
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    options = TrainOptions("bpe", vocab_size=800, pre_tokenizer="ko-morph")
    tok = drain(train_from_counts(drain(count_words(corpus, options)).words, options))
    tok.add_token(AddedToken("<x>", tok.vocab_size))
    texts = _corpus_lines("ko-movie-reviews.txt", 89, 300) + ["철수는<x>치킨을 먹고", "<x> 먹었다", ""]
    assert tok.encode_batch_ids(texts) == [tok.encode(t).ids for t in texts]
