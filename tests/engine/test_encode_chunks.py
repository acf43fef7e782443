"""Encoding chunk by chunk (core.encode_chunks) gives exactly what the general path gives.

``Tokenizer.encode`` cuts the original text where the pipeline starts afresh and reuses each
chunk's tokens; ``Tokenizer._encode_general`` runs every stage on the whole text (the path the
parity tests pin to `tokenizers`). Every field of the two encodings must be equal, for every
normalizer and pre-tokenizer the chunk path takes, on texts full of what makes offsets hard:
NFKC and BERT rewrites, combining marks, emoji with modifiers, byte-level pieces, runs of
spaces, other whitespace, ``▁`` in the text, empty text.
"""

from __future__ import annotations

import importlib
import itertools
import pickle
from array import array

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core import chunk_store, encode_chunks
from core.encode_chunks import CHUNK_CACHE_MAX, ChunkPlan
from core.encoding import BATCHED, Encoding
from core.events import drain
from core.line_encoders import NEED_ROOM
from core.normalizers import (
    NFC,
    NFD,
    NFKC,
    BertNormalizer,
    Lowercase,
    Nmt,
    Replace,
    Sequence,
    Strip,
    StripAccents,
)
from core.options import TrainOptions
from core.pre_tokenizers import (
    BertPreTokenizer,
    ByteLevel,
    Metaspace,
    Split,
    Whitespace,
    WhitespaceSplit,
)
from core.tokenizer import AddedToken, Tokenizer
from core.training import train_from_counts

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]

CORPUS = {
    "hug": 10,
    "pug": 5,
    "pun": 12,
    "hugs": 5,
    "철수는": 3,
    "치킨을": 2,
    "먹고": 4,
    "👋🏽": 2,
    "café": 3,
    "0": 1,
    "10": 2,
    "▁a": 1,
}
SIZES = {"bpe": 45, "bytelevel-bpe": 300, "wordpiece": 45, "unigram": 35}

AWKWARD = [
    "",
    " ",
    "   ",
    "a",
    "hug pug",
    "  hug  pug  ",
    "hug\tpug\npun",
    "철수는 치킨을 먹고",
    "👋🏽 👋🏽👋",
    "café cafe\u0301 e\u0301\u0323 \u0301a",
    "ﬁ ½ Ａ ¨a \u3000 a\xa0b",
    "ΣΑΣ İi",
    "世界 hug世",
    "▁hug ▁ ▁▁",
    "'s 's hug's",
    "\x00a\u200bb\ufffd",
    "\x01hug \x01 pug",
    "hug,pug. 10 0",
    " leading",
    "trailing ",
]
# Any text but lone surrogates, with the characters that are cut into several pieces drawn often.
TEXT = st.text(
    st.one_of(
        st.characters(blacklist_categories=("Cs",)),
        st.sampled_from(list("철수는 치킨 👋🏽 é e\u0301\u0323 ﬁ ½ ¨ \t\n\u3000\xa0 ▁ 0 Σ İ 世 '")),
        st.just(" "),
    ),
    max_size=30,
)


@pytest.fixture(scope="module")
def models():
    return {
        algorithm: drain(train_from_counts(CORPUS, TrainOptions(algorithm, vocab_size=size))).model
        for algorithm, size in SIZES.items()
    }


NORMALIZERS = {
    "none": lambda: None,
    "nfc": NFC,
    "nfd": NFD,
    "nfkc": NFKC,
    "bert": BertNormalizer,
    "nfkc+lowercase": lambda: Sequence([NFKC(), Lowercase()]),
    "nmt+nfkc": lambda: Sequence([Nmt(), NFKC()]),
    "nfd+strip-accents": lambda: Sequence([NFD(), StripAccents()]),
}
PRE_TOKENIZERS = {
    "whitespace": Whitespace,
    "whitespace-split": WhitespaceSplit,
    "bert": BertPreTokenizer,
    "metaspace": Metaspace,
    "metaspace-first": lambda: Metaspace(prepend_scheme="first"),
    "metaspace-never": lambda: Metaspace(prepend_scheme="never"),
}
# (model, normalizer, pre-tokenizer): every normalizer with each kind of cut, each model
CONFIGS = (
    [("bpe", n, p) for n in NORMALIZERS for p in ("whitespace", "metaspace")]
    + [("wordpiece", n, "bert") for n in ("bert", "nfkc", "nfd+strip-accents")]
    + [("unigram", n, "metaspace") for n in ("nfkc", "none", "nmt+nfkc")]
    + [("unigram", "nfkc", p) for p in ("metaspace-first", "metaspace-never", "whitespace-split")]
    + [("unigram", "nmt+nfkc", "metaspace-first"), ("bpe", "bert", "metaspace-first")]
    + [("bpe", "nfc", p) for p in ("whitespace-split", "bert")]
)


def _tokenizer(models, model: str, normalizer: str, pre_tokenizer: str) -> Tokenizer:
    return Tokenizer(
        models[model], normalizer=NORMALIZERS[normalizer](), pre_tokenizer=PRE_TOKENIZERS[pre_tokenizer]()
    )


def _byte_level(models, add_prefix_space: bool) -> Tokenizer:
    return Tokenizer(models["bytelevel-bpe"], pre_tokenizer=ByteLevel(add_prefix_space=add_prefix_space))


def _fields(enc: Encoding) -> tuple:
    return (enc.ids, enc.tokens, enc.offsets, enc.word_ids, enc.special_tokens_mask)


def assert_same_as_general(tok: Tokenizer, text: str) -> None:
    assert _fields(tok.encode(text)) == _fields(tok._encode_general(text)), text


@pytest.mark.parametrize("config", CONFIGS, ids="-".join)
def test_every_chunked_configuration_takes_the_chunk_path(models, config):
    assert ChunkPlan.build(_tokenizer(models, *config)) is not None


@pytest.mark.parametrize("config", CONFIGS, ids="-".join)
def test_awkward_texts_encode_as_the_general_path(models, config):
    tok = _tokenizer(models, *config)
    for text in AWKWARD:
        assert_same_as_general(tok, text)
    for text in AWKWARD:  # again, every chunk now from the cache
        assert_same_as_general(tok, text)


@pytest.mark.parametrize("config", CONFIGS, ids="-".join)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT)
def test_any_text_encodes_as_the_general_path(models, config, text):
    assert_same_as_general(_tokenizer(models, *config), text)


@pytest.mark.parametrize("add_prefix_space", [False, True])
def test_byte_level_texts_encode_as_the_general_path(models, add_prefix_space):
    tok = _byte_level(models, add_prefix_space)
    assert ChunkPlan.build(tok) is not None
    for text in AWKWARD + ["'sab", "a   b", "a \tb", "123abc", "hug 's", "\r0", "\t\t"]:
        assert_same_as_general(tok, text)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT, add_prefix_space=st.booleans())
def test_any_text_encodes_byte_level_as_the_general_path(models, text, add_prefix_space):
    assert_same_as_general(_byte_level(models, add_prefix_space), text)


def test_a_batch_encodes_as_one_text_at_a_time(models):
    """encode_batch finds the new chunks of many texts together; each encoding is the same."""
    tok = _tokenizer(models, "bpe", "nfkc", "metaspace")
    texts = AWKWARD * 3 + ["hug " * 50, "철수는" * 100]
    general = [_fields(tok._encode_general(t)) for t in texts]
    assert [_fields(e) for e in tok.encode_batch(texts)] == general
    assert [_fields(e) for e in _tokenizer(models, "bpe", "nfkc", "metaspace").encode_batch(texts)] == general


@pytest.mark.parametrize("config", CONFIGS, ids="-".join)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(TEXT, max_size=6))
def test_any_batch_encodes_as_the_general_path(models, config, texts, monkeypatch):
    """A batch's tokens are shifted into place all at once (texts without chunks among them),
    its new chunks made all at once however few."""
    monkeypatch.setattr(encode_chunks, "AT_ONCE_MIN", 1)
    tok = _tokenizer(models, *config)
    expected = [_fields(tok._encode_general(t)) for t in texts]
    assert [_fields(e) for e in tok.encode_batch(texts)] == expected
    assert [_fields(e) for e in tok.encode_batch(texts)] == expected  # every chunk cached now


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(TEXT, max_size=6), add_prefix_space=st.booleans())
def test_any_byte_level_batch_encodes_as_the_general_path(models, texts, add_prefix_space, monkeypatch):
    monkeypatch.setattr(encode_chunks, "AT_ONCE_MIN", 1)
    tok = _byte_level(models, add_prefix_space)
    expected = [_fields(tok._encode_general(t)) for t in texts]
    assert [_fields(e) for e in tok.encode_batch(texts)] == expected


PLAIN_CONFIGS = [c for c in CONFIGS if c[1] in ("none", "nfc", "nfkc", "bert")] + [
    ("wordpiece", "nfc", "whitespace"),
    ("unigram", "none", "whitespace"),
]


@pytest.mark.parametrize("config", PLAIN_CONFIGS, ids="-".join)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keys=st.lists(TEXT.map(lambda t: t.replace(" ", "")), min_size=2, max_size=8, unique=True))
def test_plain_chunks_get_the_fragments_of_the_slow_way(models, config, keys):
    """Spans from token lengths, all chunks at once, equal the model's own spans, chunk by chunk;
    the chunks it leaves (unknown tokens, text to normalize) are left, never guessed."""
    tok = _tokenizer(models, *config)
    plan = ChunkPlan.build(tok)
    table = tok.model.token_lengths()
    assert plan is not None and table is not None
    made, rest = plan._plain_fragments(keys, table)
    assert sorted([*made, *rest]) == sorted(keys)
    assert _fragments(plan, made) == _fragments(plan, plan._slow(list(made)))
    few, few_rest = plan._plain_few(keys, table)  # one line's few new chunks, in plain Python
    assert sorted([*few, *few_rest]) == sorted(keys)
    assert _fragments(plan, few) == _fragments(plan, plan._slow(list(few)))


@pytest.mark.parametrize("way", ["_plain_fragments", "_plain_few"])
def test_plain_chunks_are_most_chunks_of_ordinary_text(models, way):
    tok = _tokenizer(models, "bpe", "nfc", "whitespace")
    plan = ChunkPlan.build(tok)
    keys = ["hug", "pugs", "hug👋🏽", "철수는"]
    made, rest = getattr(plan, way)(keys, _table(tok))
    assert sorted(made) == sorted(keys) and rest == []
    assert _fragments(plan, made) == _fragments(plan, plan._slow(keys))
    assert plan.store.fragment(made["hug👋🏽"])[4:] == ((0, 1), 2, 2)  # two pre-tokens: words 0 and 1
    made, rest = getattr(plan, way)(["e\u0301", "\u2603x", "hug"], _table(tok))
    assert rest == ["e\u0301", "\u2603x"]  # to normalize; a character training never saw


@pytest.mark.parametrize("config", [c for c in PLAIN_CONFIGS if "metaspace" in c[2]], ids="-".join)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keys=st.lists(TEXT.map(lambda t: t.replace(" ", "")), min_size=2, max_size=8, unique=True))
def test_plain_first_chunks_get_the_fragments_of_the_slow_way(models, config, keys):
    """A text's first chunk: the prepended ▁ spans its first character, and gives it up to the
    token that holds that character."""
    tok = _tokenizer(models, *config)
    plan = ChunkPlan.build(tok)
    made, rest = plan._plain_fragments(keys, _table(tok), first=True)
    assert sorted([*made, *rest]) == sorted(keys)
    assert all(plan.first[key] == number for key, number in made.items())  # kept as first chunks
    assert _fragments(plan, made) == _fragments(plan, plan._slow(list(made), first=True))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT, add_prefix_space=st.booleans())
def test_plain_byte_level_chunks_get_the_fragments_of_the_slow_way(models, text, add_prefix_space):
    """Byte-level pieces: each character's UTF-8 bytes, a character cut between tokens given to the last."""
    tok = _byte_level(models, add_prefix_space)
    plan = ChunkPlan.build(tok)
    keys = list(dict.fromkeys(plan._regex.findall(text + " hug 철수는 👋🏽")))
    made, rest = plan._plain_fragments(keys, _table(tok))
    assert rest == []  # every byte is in the alphabet
    assert _fragments(plan, made) == _fragments(plan, plan._slow(keys))


@pytest.mark.parametrize(
    "config", [c for c in PLAIN_CONFIGS if "metaspace" in c[2] and c[0] == "unigram"], ids="-".join
)
@pytest.mark.parametrize("first", [False, True])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keys=st.lists(TEXT.map(lambda t: t.replace(" ", "")), min_size=1, max_size=8, unique=True))
def test_compiled_metaspace_chunks_get_the_fragments_of_the_slow_way(models, config, first, keys):
    """Unigram under Metaspace, a line's new chunks in two kernel calls: ``▁`` + each chunk, the
    ``▁`` spanning the space before it (a text's first chunk: its first character, if prepended)."""
    import unicodedata

    tok = _tokenizer(models, *config)
    plan = ChunkPlan.build(tok)
    found = plan._lead_compiled(keys if first else [], [] if first else keys, _table(tok))
    form = getattr(tok.normalizer, "form", None)
    normal = form is None or all(
        unicodedata.is_normalized(form, (" " if not first else "") + k) for k in keys
    )
    if "▁" in "".join(keys) or (first and "" in keys):
        assert found is None
        return
    if found is None:  # only text the form changes other than character by character
        assert not normal
        return
    made, rest = (found[0], found[2]) if first else (found[1], found[3])
    assert not found[1 if first else 0] and not found[3 if first else 2]  # nothing of the other kind
    assert sorted([*made, *rest]) == sorted(keys)
    pieces = set(tok.model.get_vocab()) - {tok.model.id_to_token(tok.model.unk_id)}
    seen = set("".join(pieces))  # a chunk left holds a character no piece has
    assert all(not set(key) <= seen for key in rest)
    cache = plan.first if first else plan.cache
    assert all(cache[key] == number for key, number in made.items())
    assert _fragments(plan, made) == _fragments(plan, plan._slow(list(made), first=first))


@pytest.mark.parametrize(
    "config", [c for c in PLAIN_CONFIGS if "metaspace" in c[2] and c[0] == "unigram"], ids="-".join
)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    firsts=st.lists(TEXT.map(lambda t: t.replace(" ", "")).filter(bool), min_size=1, max_size=3, unique=True),
    laters=st.lists(TEXT.map(lambda t: t.replace(" ", "")), min_size=1, max_size=5, unique=True),
)
def test_first_and_later_metaspace_chunks_made_together_are_made_as_apart(models, config, firsts, laters):
    """A fresh tokenizer's line has a new first chunk and new later ones: made in one pass, each
    kind in its own cache, the same string as a first and a later chunk two fragments."""
    tok = _tokenizer(models, *config)
    plan = ChunkPlan.build(tok)
    found = plan._lead_compiled(firsts, laters, _table(tok))
    if found is None:  # a ▁ or text to normalize: the two kinds go apart, as the test above checks
        return
    made_first, made, rest_first, rest = found
    assert sorted([*made_first, *rest_first]) == sorted(firsts) and sorted([*made, *rest]) == sorted(laters)
    assert all(plan.first[key] == number for key, number in made_first.items())
    assert all(plan.cache[key] == number for key, number in made.items())
    assert _fragments(plan, made_first) == _fragments(plan, plan._slow(list(made_first), first=True))
    assert _fragments(plan, made) == _fragments(plan, plan._slow(list(made)))


def test_korean_compatibility_jamo_under_nfkc_take_the_compiled_way(models):
    """ㅋㅋ (U+314B, what Korean reviews are full of) becomes ᄏᄏ under NFKC, character by
    character: the kernel path maps the spans back; a character NFKC makes a space does not."""
    import unicodedata

    counts = {
        unicodedata.normalize("NFKC", w): c for w, c in {**CORPUS, "ㅋㅋ": 6, "먹고ㅠㅠ": 3, "㈜": 2}.items()
    }
    model = drain(train_from_counts(counts, TrainOptions("unigram", vocab_size=45))).model
    tok = Tokenizer(model, normalizer=NFKC(), pre_tokenizer=Metaspace())
    plan = ChunkPlan.build(tok)
    keys = ["ㅋㅋ", "먹고ㅠㅠ", "㈜hug"]
    made_first, made, _, rest = plan._lead_compiled(["ㅋㅋ철수는"], keys, _table(tok))
    assert sorted(made) == sorted(keys) and rest == []
    assert _fragments(plan, made) == _fragments(plan, plan._slow(keys))
    assert _fragments(plan, made_first) == _fragments(plan, plan._slow(["ㅋㅋ철수는"], first=True))
    assert plan._lead_compiled([], ["a\xa0b"], _table(tok)) is None  # NBSP: NFKC's space, a cut
    texts = ["ㅋㅋ 먹고ㅠㅠ ㈜hug", "ㄱㅏ 가"]  # ㄱ+ㅏ compose under NFKC: not character by character
    assert [_fields(e) for e in map(tok.encode, texts)] == [_fields(tok._encode_general(t)) for t in texts]


def test_a_chunk_first_and_later_in_one_line_gets_both_fragments(models):
    tok = _tokenizer(models, "unigram", "nfkc", "metaspace")
    plan = ChunkPlan.build(tok)
    made_first, made, _, _ = plan._lead_compiled(["hug"], ["hug", "pug"], _table(tok))
    first, later = plan.store.fragment(made_first["hug"]), plan.store.fragment(made["hug"])
    assert first[2][0] == 0 and later[2][0] == -1  # ▁ on "h", and ▁ on the space before
    texts = ["hug hug pug", "pug hug", "hug"]
    assert [_fields(e) for e in map(tok.encode, texts)] == [_fields(tok._encode_general(t)) for t in texts]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT)
def test_compiled_byte_level_chunks_get_the_fragments_of_the_slow_way(models, text):
    """One line's new byte-level chunks in one kernel call: their UTF-8 bytes merged, a span from
    the character of a token's first byte to that of its last, a character cut between tokens
    given to the last."""
    tok = _byte_level(models, False)
    plan = ChunkPlan.build(tok)
    keys = list(dict.fromkeys(plan._regex.findall(text + " hug 철수는 👋🏽")))
    made, rest = plan._few_compiled(keys, _table(tok))
    assert rest == [] and list(made) == keys  # every byte is in the alphabet
    assert all(plan.cache[key] == number for key, number in made.items())
    assert _fragments(plan, made) == _fragments(plan, plan._slow(keys))


@pytest.mark.parametrize("pattern", ["gpt2", "cl100k_base"])
def test_plain_rank_file_chunks_get_the_fragments_of_the_slow_way(models, pattern):
    from core.formats.tiktoken_ranks import tiktoken_tokenizer

    tok = tiktoken_tokenizer(_ranks(models), pattern)
    plan = ChunkPlan.build(tok)
    keys = list(dict.fromkeys(plan._regex.findall(" ".join(AWKWARD) + " hug's 철수는 👋🏽 10")))
    made, rest = plan._plain_fragments(keys, _table(tok))
    assert sorted([*made, *rest]) == sorted(keys) and len(made) > len(keys) // 2
    assert _fragments(plan, made) == _fragments(plan, plan._slow(list(made)))


@pytest.mark.parametrize("algorithm", ["bpe", "wordpiece", "unigram"])
def test_the_length_table_is_built_once_and_never_pickled(models, algorithm):
    import pickle

    tok = _tokenizer(models, algorithm, "nfc", "whitespace")
    table = _table(tok)
    assert _table(tok) is table  # kept on the model
    assert "_length_table" not in pickle.loads(pickle.dumps(tok.model)).__dict__
    if algorithm == "bpe":  # the slider's cut keeps the ids, so it keeps the table
        cut = tok.model.truncated(tok.model.min_vocab_size + 3)
        assert _table(Tokenizer(cut, pre_tokenizer=Whitespace())) is table


def test_plain_wordpiece_chunks_count_continuations_without_their_prefix(models):
    tok = _tokenizer(models, "wordpiece", "nfc", "whitespace")
    plan = ChunkPlan.build(tok)
    made, rest = plan._plain_fragments(["pugs", "puns"], _table(tok))
    pugs = plan.store.fragment(made["pugs"])
    assert rest == [] and pugs[1] == ("pug", "##s")
    assert pugs[2:4] == ((0, 3), (3, 4))  # "##s" covers one character


# A BPE model whose alphabet holds punctuation (pre-tokens of their own under Whitespace) and
# U+3000, a space both whitespace pre-tokenizers drop; "ζ" is never seen in training.
PUNCT_CORPUS = {**CORPUS, "hug!": 3, ",pug": 2, "..": 2, "\u3000x": 1, "a-b": 2}
KEY = st.text(st.sampled_from(list("hugpns철수는👋🏽!,.-\u3000xab▁é\u0301ζ")), max_size=10)


@pytest.fixture(scope="module")
def punct_bpe():
    return drain(train_from_counts(PUNCT_CORPUS, TrainOptions("bpe", vocab_size=60))).model


@pytest.mark.parametrize("normalizer", ["none", "nfc", "nfkc"])
@pytest.mark.parametrize("pre_tokenizer", ["whitespace", "whitespace-split"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keys=st.lists(KEY, min_size=1, max_size=8, unique=True))
def test_compiled_few_chunks_get_the_fragments_of_the_slow_way(punct_bpe, normalizer, pre_tokenizer, keys):
    """One line's new chunks in one kernel call: pre-tokens as runs of one class, merged, spans
    from where each token starts; every chunk it can take is taken, the others left whole."""
    import unicodedata

    tok = Tokenizer(
        punct_bpe, normalizer=NORMALIZERS[normalizer](), pre_tokenizer=PRE_TOKENIZERS[pre_tokenizer]()
    )
    plan = ChunkPlan.build(tok)
    found = plan._few_compiled(keys, _table(tok))
    if normalizer != "none" and not unicodedata.is_normalized(tok.normalizer.form, " ".join(keys)):
        assert found is None  # the normalizer would change the text: the plain Python way
        return
    assert found is not None
    made, rest = found
    assert all(plan.cache[key] == number for key, number in made.items())  # kept
    assert sorted([*made, *rest]) == sorted(keys)
    assert _fragments(plan, made) == _fragments(plan, plan._slow(list(made)))
    alphabet = {t for t in punct_bpe.vocab if len(t) == 1} - {"\u3000"}
    assert [key for key in keys if set(key) <= alphabet] == list(made)


def test_compiled_few_chunks_follow_the_pre_tokenizer_class_by_class(punct_bpe):
    tok = Tokenizer(punct_bpe, pre_tokenizer=Whitespace())
    plan = ChunkPlan.build(tok)
    made, rest = plan._few_compiled(["hug!..pug", "a-b", "x\u3000x", "ζ"], _table(tok))
    assert rest == ["x\u3000x", "ζ"]  # a space the pre-tokenizer drops; a character never seen
    words, _, pre_tokens = plan.store.fragment(made["hug!..pug"])[4:]
    assert sorted(set(words)) == [0, 1, 2] and pre_tokens == 3  # hug | !.. | pug
    assert plan.store.fragment(made["a-b"])[6] == 3
    split = Tokenizer(punct_bpe, pre_tokenizer=WhitespaceSplit())
    plan = ChunkPlan.build(split)
    made, _ = plan._few_compiled(["hug!..pug"], _table(split))
    assert plan.store.fragment(made["hug!..pug"])[6] == 1  # one pre-token: no class inside


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.one_of(TEXT, KEY.map(lambda k: k + " " + k[::-1])), max_size=6))
def test_lines_encoded_one_by_one_through_the_kernel_match_the_general_path(punct_bpe, texts, monkeypatch):
    import sys

    monkeypatch.setattr(encode_chunks, "FEW_COMPILED_AFTER", 0)  # compiled from the first line
    tok = Tokenizer(punct_bpe, normalizer=NFC(), pre_tokenizer=Whitespace())
    for text in texts:
        assert_same_as_general(tok, text)
    assert not texts or "core.chunk_kernels" in sys.modules


@pytest.mark.parametrize("config", [*CONFIGS, "byte-level", "byte-level-prefix"], ids=str)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(TEXT, min_size=1, max_size=4))
def test_a_text_gathered_by_the_kernel_is_what_the_loop_gathers(models, config, texts, monkeypatch):
    """core.chunk_kernels.assemble reads the store's columns and shifts each chunk into place
    as ChunkPlan._assemble's loop does (gap between chunks, a prefix space's start of -1)."""
    import core.chunk_kernels  # noqa: F401  # loaded: texts of several chunks take the kernel

    if isinstance(config, str):
        tok = _byte_level(models, config.endswith("prefix"))
    else:
        tok = _tokenizer(models, *config)
    texts = texts + [" ".join(texts), "  ".join(texts[::-1])]
    monkeypatch.setattr(encode_chunks, "ASSEMBLE_COMPILED_AFTER", 1_000_000)
    looped = [_fields(tok.encode(text)) for text in texts]
    monkeypatch.setattr(encode_chunks, "ASSEMBLE_COMPILED_AFTER", 0)
    assert [_fields(tok.encode(text)) for text in texts] == looped
    assert [_fields(tok._encode_general(text)) for text in texts] == looped


_LINE_KERNELS = {
    "bpe_line": "core.models.bpe.line_kernels",
    "bytelevel_line": "core.models.bpe.line_kernels",
    "metaspace_line": "core.models.unigram.line_kernels",
    "wordpiece_line": "core.models.wordpiece.line_kernels",
}


def _line_kernel_calls(monkeypatch, name: str = "bpe_line") -> list:
    """Each core.models.bpe.line_kernels.bpe_line (or ``name``, in its model's package) call's
    ok chunks and new chunks, from now on (but wordpiece_line's answers before it matches
    anything: characters to fill in its tables, a line for the general path, more room)."""
    kernels = importlib.import_module(_LINE_KERNELS[name])

    calls: list = []
    real = getattr(kernels, name)
    n_new = 2 if name in ("bpe_line", "wordpiece_line") else 3  # the argument: how many chunks are new

    def counted(*args):
        found = real(*args)
        if name != "wordpiece_line" or found[1] >= 0:
            calls.append((found[2], args[n_new]))
        return found

    monkeypatch.setattr(kernels, name, counted)
    return calls


def _store_is_whole(plan) -> None:
    """Every token column as long as the token strings and the room kept after them, every
    fragment column as long as the others, and the fragments' tokens one after another: nothing
    else in the store (the room aside, see ChunkStore.room)."""
    store = plan.store
    n_tokens, n_frags = len(store.tokens), len(store.at) - store.spare_frags
    assert {len(c) for c in (store.ids, store.starts, store.ends, store.words)} == {
        n_tokens + store.spare_tokens
    }
    assert len(store.at) == len(store.count) == len(store.word_count)
    assert list(store.at[:n_frags]) == list(itertools.accumulate(store.count[:n_frags], initial=0))[:-1]
    assert sum(store.count[:n_frags]) == n_tokens


def _lines_match_the_general_path(tok, texts):
    """Each line (forwards, then backwards: the second time its chunks are cached) encoded as
    the general path encodes it, the store whole after each; then every cached chunk's
    fragments as the stages make them one chunk at a time. Returns the plan."""
    for text in texts + texts[::-1]:
        assert_same_as_general(tok, text)
        _store_is_whole(tok._chunk_plan())
    plan = tok._chunk_plan()
    kept = {key: n for key, n in plan.cache.items() if key}
    slow = ChunkPlan.build(tok)  # each chunk through the stages, one at a time
    assert _fragments(plan, kept) == _fragments(slow, slow._slow(list(kept)))
    return plan


@pytest.mark.parametrize("normalizer", ["none", "nfc", "nfkc"])
@pytest.mark.parametrize("pre_tokenizer", ["whitespace", "whitespace-split"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.one_of(TEXT, KEY.map(lambda k: f"{k} {k[::-1]} {k}")), min_size=1, max_size=6))
def test_a_line_made_and_gathered_in_one_kernel_call_is_the_general_path(
    punct_bpe, normalizer, pre_tokenizer, texts, monkeypatch
):
    """core.models.bpe.line_kernels.bpe_line: a line's new chunks (a chunk twice in it made once) merged,
    written into the store's room and gathered with the cached ones; a line with a chunk it
    cannot take leaves the store as it was and goes the other way."""
    calls = _line_kernel_calls(monkeypatch)
    tok = Tokenizer(
        punct_bpe, normalizer=NORMALIZERS[normalizer](), pre_tokenizer=PRE_TOKENIZERS[pre_tokenizer]()
    )
    plan = _lines_match_the_general_path(tok, texts)
    if any(ok == new for ok, new in calls):
        assert len(plan.store.count) - plan.store.spare_frags == len(
            plan.cache
        )  # a chunk twice in a line was made once


def test_lines_of_new_words_take_the_one_call_way(punct_bpe, monkeypatch):
    calls = _line_kernel_calls(monkeypatch)
    tok = Tokenizer(punct_bpe, normalizer=NFC(), pre_tokenizer=Whitespace())
    for text in ["hug pug hug", "pun hugs  pug", "hug!,pug ζ", "hug 철수는 hug"]:
        assert_same_as_general(tok, text)
    # "ζ" was never seen: 1 of that line's 2 new chunks ok, so the line goes the other way
    assert calls == [(2, 2), (2, 2), (1, 2), (1, 1)]
    _store_is_whole(tok._chunk_plan())


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    texts=st.lists(st.one_of(TEXT, KEY.map(lambda k: f"{k} {k[::-1]} {k}")), min_size=1, max_size=6),
    add_prefix_space=st.booleans(),
)
def test_a_byte_level_line_made_and_gathered_in_one_kernel_call_is_the_general_path(
    models, texts, add_prefix_space, monkeypatch
):
    """core.models.bpe.line_kernels.bytelevel_line: the chunks are the regex's matches, back to back,
    each one pre-token of UTF-8 bytes written from its code points in the kernel."""
    _line_kernel_calls(monkeypatch, "bytelevel_line")
    tok = _byte_level(models, add_prefix_space)
    _lines_match_the_general_path(tok, texts)


def test_byte_level_lines_of_new_words_take_the_one_call_way(models, monkeypatch):
    calls = _line_kernel_calls(monkeypatch, "bytelevel_line")
    tok = _byte_level(models, False)
    for text in ["hug pug hug", "pun hugs  pug", "철수는 👋🏽 café", " hug", " hugg"]:
        assert_same_as_general(tok, text)
    # "hug", " pug", " hug"; "pun", " hugs", " " (" pug" seen); ...; " hug" seen: no call
    assert calls == [(3, 3), (3, 3), (3, 3), (1, 1)]
    _store_is_whole(tok._chunk_plan())


LEAD_CONFIGS = [c for c in CONFIGS if c[2].startswith("metaspace")]


@pytest.mark.parametrize("config", LEAD_CONFIGS, ids="-".join)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.one_of(TEXT, KEY.map(lambda k: f"{k} {k[::-1]} {k}")), min_size=1, max_size=6))
def test_a_metaspace_line_made_and_gathered_in_one_kernel_call_is_the_general_path(
    models, config, texts, monkeypatch
):
    """core.models.unigram.line_kernels.metaspace_line: a Unigram model's line, its first chunk (▁ prepended
    or not) and later ones (▁ from the space before) made together, each kept in its cache."""
    _line_kernel_calls(monkeypatch, "metaspace_line")
    tok = _tokenizer(models, *config)
    for text in texts + texts[::-1]:
        assert_same_as_general(tok, text)
        _store_is_whole(tok._chunk_plan())
    plan = tok._chunk_plan()
    slow = ChunkPlan.build(tok)
    for cache, first in ((plan.cache, False), (plan.first, True)):
        kept = {key: n for key, n in cache.items() if key}
        assert _fragments(plan, kept) == _fragments(slow, slow._slow(list(kept), first))


def test_metaspace_lines_of_new_words_take_the_one_call_way(models, monkeypatch):
    calls = _line_kernel_calls(monkeypatch, "metaspace_line")
    tok = _tokenizer(models, "unigram", "nfkc", "metaspace")
    for text in ["hug pug hug", "pug hugs  pug", "hug pug", " hug", "ﬁ hug", "hug ▁a", "hug hugs"]:
        assert_same_as_general(tok, text)
    # first "hug" + later "pug", "hug"; "pug" first (seen later only) + " hugs", ""; no call for
    # "hug pug" (all seen); " hug": empty first chunk, "ﬁ" under NFKC, "▁" in the text: the other
    # way; "hugs" later seen, "hug" first seen: no call
    assert calls == [(3, 3), (3, 3)]
    _store_is_whole(tok._chunk_plan())


@settings(max_examples=60, deadline=None)
@given(tokens=st.lists(st.tuples(*[st.integers(0, 2**40)] * 4, st.integers(0, 3)), max_size=12))
def test_an_encoding_of_a_kernels_rows_reads_as_one_of_its_spans(tokens):
    """Encoding.from_rows (a one-call line's encoding, each field made when first read): the
    same fields, of Python ints, as Encoding.from_spans, its length, and pickled as lists."""
    import numpy as np

    strings = ["a", "bc", "d", "ef"]
    rows = np.array([list(column) for column in zip(*tokens)] or np.empty((5, 0)), np.int64)
    rows[1] %= len(strings)
    ids, at, starts, ends, words = (tuple(row) for row in rows.tolist())
    want = Encoding.from_spans(ids, tuple(strings[i] for i in at), starts, ends, words)
    got = Encoding.from_rows(rows, strings)
    assert len(got) == len(tokens)
    fields = got._fields()
    assert fields == want._fields()
    assert all(type(n) is int for n in fields[0] + fields[3] + [n for pair in fields[2] for n in pair])
    assert pickle.loads(pickle.dumps(Encoding.from_rows(rows, strings)))._fields() == want._fields()


def test_numba_half_imported_by_another_thread_is_not_loaded(monkeypatch):
    """The explorer's start-up helper imports numba beside the window: a line typed meanwhile
    takes the plain Python way rather than wait for that import (Python's module lock)."""
    import sys
    import types

    import numba  # noqa: F401  # the real one, loaded

    assert encode_chunks._numba_loaded()
    half = types.ModuleType("numba")
    half.__spec__ = types.SimpleNamespace(_initializing=True)  # as importlib marks a module mid-import
    monkeypatch.setitem(sys.modules, "numba", half)
    assert not encode_chunks._numba_loaded()


def test_a_few_lines_of_a_fresh_process_never_wait_for_numba(tmp_path):
    """numba's import (~0.4 s) is paid only after FEW_COMPILED_AFTER lines one at a time."""
    import subprocess
    import sys

    script = """
import sys
from core.encode_chunks import FEW_COMPILED_AFTER
from core.events import drain
from core.pre_tokenizers import Whitespace
from core.tokenizer import Tokenizer
from core.models.bpe.reference import *  # noqa
from core.options import TrainOptions
from core.training import train_from_counts
words = {f"w{i}x{i % 7}": 2 for i in range(300)}
model = drain(train_from_counts(words, TrainOptions("bpe", vocab_size=80))).model
tok = Tokenizer(model, pre_tokenizer=Whitespace())
lines = [f"w{i}x{i % 7} x{i}w" for i in range(FEW_COMPILED_AFTER + 50)]
for line in lines[:20]:
    tok.encode(line)
print("numba" in sys.modules, "core.chunk_kernels" in sys.modules)
for line in lines[20:]:
    tok.encode(line)
print("core.chunk_kernels" in sys.modules)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.split() == ["False", "False", "True"]


@pytest.fixture(scope="module")
def bert_wordpiece():
    """WordPiece trained on BERT-normalized words: Hangul becomes jamo, so a syllable is often cut
    between two tokens, and "É" lowercased and stripped to "e"."""
    normalizer = BertNormalizer()
    counts = {normalizer.normalize_str(w): c for w, c in {**CORPUS, "Éclair": 2, "빵을먹고": 3}.items()}
    model = drain(train_from_counts(counts, TrainOptions("wordpiece", vocab_size=60))).model
    return Tokenizer(model, normalizer=BertNormalizer(), pre_tokenizer=BertPreTokenizer())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    keys=st.lists(
        st.text(st.sampled_from(list("철수는치킨을먹고빵Éé\u0301huglair\x01")), min_size=0, max_size=8),
        min_size=2,
        max_size=8,
        unique=True,
    )
)
def test_plain_chunks_under_bert_normalizer_map_back_to_the_original(bert_wordpiece, keys):
    plan = ChunkPlan.build(bert_wordpiece)
    for way in (plan._plain_fragments, plan._plain_few):  # a batch's new chunks, one line's few
        made, rest = way(keys, _table(bert_wordpiece))
        assert sorted([*made, *rest]) == sorted(keys)
        assert _fragments(plan, made) == _fragments(plan, plan._slow(list(made)))


@pytest.mark.parametrize("way", ["_plain_fragments", "_plain_few"])
def test_bert_normalized_korean_takes_the_plain_way(bert_wordpiece, way):
    plan = ChunkPlan.build(bert_wordpiece)
    made, rest = getattr(plan, way)(["철수는", "빵을먹고", "Éclair"], _table(bert_wordpiece))
    assert rest == [] and _fragments(plan, made) == _fragments(
        plan, plan._slow(["철수는", "빵을먹고", "Éclair"])
    )
    starts, ends = plan.store.fragment(made["빵을먹고"])[2:4]
    assert starts[0] == 0 and ends[-1] == 4  # jamo tokens, spans on the four syllables


def _fragments(plan, numbers: dict[str, int]) -> dict[str, tuple]:
    return {key: plan.store.fragment(number) for key, number in numbers.items()}


def _table(tok):
    return tok.model.token_lengths()


@pytest.mark.parametrize("at_once", [1, 1000])
def test_a_first_chunk_that_is_another_texts_later_chunk_keeps_its_own_tokens(models, monkeypatch, at_once):
    """Under Metaspace "pug" first is "▁pug" spanning "p", later "▁pug" spanning the space before."""
    monkeypatch.setattr(encode_chunks, "AT_ONCE_MIN", at_once)
    tok = _tokenizer(models, "unigram", "nfkc", "metaspace")
    texts = ["hug pug", "pug hug", "pug", "hug pug pun", "pun hug"]
    assert [_fields(e) for e in tok.encode_batch(texts)] == [_fields(tok._encode_general(t)) for t in texts]


def test_long_chunks_are_encoded_but_not_kept(models):
    tok = _tokenizer(models, "unigram", "nfkc", "metaspace")
    long_word = "철수는치킨을먹고" * (CHUNK_CACHE_MAX // 4)
    assert_same_as_general(tok, f"hug {long_word} pug")
    assert long_word not in tok._chunk_plan().cache
    assert "pug" in tok._chunk_plan().cache


def test_a_long_word_retyped_does_not_grow_the_store_without_bound(models, monkeypatch):
    monkeypatch.setattr(encode_chunks, "STORE_TOKEN_LIMIT", 5_000)
    tok = _tokenizer(models, "bpe", "nfc", "whitespace")
    long_word = "hugpugpun철수는" * 200
    expected = _fields(tok._encode_general(f"hug {long_word}"))
    for _ in range(20):  # each time its ~1,000 tokens go to the store, never to the cache
        assert _fields(tok.encode(f"hug {long_word}")) == expected
    store = tok._chunk_plan().store
    assert len(store.tokens) < 5_000 + 2 * len(expected[0])
    # and the room kept for the one-call lines: for many short lines, or this one line
    assert store.spare_tokens < chunk_store.ROOM_TOKENS + len(f"hug {long_word}")


def test_texts_holding_an_added_token_take_the_general_path(models):
    tok = _tokenizer(models, "bpe", "nfc", "whitespace")
    tok.add_token(AddedToken("[MASK]", 999, lstrip=True))
    for text in ["hug [MASK] pug", "[MASK]", "hug[MASK]", "hug pug"]:
        assert_same_as_general(tok, text)
    assert tok.encode("hug [MASK] pug").tokens[1] == " [MASK]"


@pytest.mark.parametrize("pre_tokenizer", ["whitespace", "metaspace"])
def test_a_batch_with_added_tokens_in_some_texts_or_none_encodes_as_the_general_path(models, pre_tokenizer):
    """A batch is cut at spaces all at once when none of its texts holds an added token; a
    token found only across two texts (its content holds the line feed that joins them) sends
    the batch the longer way, with the same encodings."""
    tok = _tokenizer(models, "bpe", "nfc", pre_tokenizer)
    tok.add_token(AddedToken("[MASK]", 999, lstrip=True))
    tok.add_token(AddedToken("g\np", 998))
    for texts in (
        ["hug [MASK] pug", "hug pug", "[MASK]", "철수는 hug"],
        ["hug pug", " 철수는  먹고 ", ""] * 5,
        ["hug", "pug hug", "hug"],  # "g\np" only across the first two
    ):
        expected = [_fields(tok._encode_general(t)) for t in texts]
        assert [_fields(e) for e in tok.encode_batch(texts)] == expected, texts


def test_stages_the_chunks_cannot_follow_leave_the_general_path(models):
    """Normalizers that change text across spaces, and pre-tokenizers that keep spaces inside
    pieces, are not cut: their encodings come from the general path."""
    for normalizer in (Strip(), Replace(" ", "_"), Sequence([NFC(), Strip()])):
        tok = Tokenizer(models["bpe"], normalizer=normalizer, pre_tokenizer=Whitespace())
        assert ChunkPlan.build(tok) is None
        assert_same_as_general(tok, "  hug pug  ")
    tok = Tokenizer(models["bpe"], normalizer=NFC(), pre_tokenizer=Split(" ", "MergedWithNext"))
    assert ChunkPlan.build(tok) is None
    assert ChunkPlan.build(Tokenizer(models["bytelevel-bpe"], NFC(), ByteLevel())) is None
    assert ChunkPlan.build(Tokenizer(models["unigram"], NFC(), Metaspace(split=False))) is None


def test_swapping_a_stage_rebuilds_the_chunks(models):
    tok = _tokenizer(models, "bpe", "none", "whitespace")
    before = tok.encode("HUG hug")
    tok.normalizer = Lowercase()
    after = tok.encode("HUG hug")
    assert after.tokens[:1] == after.tokens[-1:] != before.tokens[:1]
    assert_same_as_general(tok, "HUG hug")


def test_post_processor_applies_to_chunked_encodings(models):
    tok = _byte_level(models, add_prefix_space=True)
    tok.post_processor = {"type": "ByteLevel", "trim_offsets": True, "add_prefix_space": True}
    plain = _byte_level(models, add_prefix_space=True)
    plain.post_processor = tok.post_processor
    plain._chunk_plan = lambda: None  # type: ignore[method-assign]
    for text in ["hug  pug", " hug", "a   b"]:
        assert _fields(tok.encode(text)) == _fields(plain.encode(text)), text


# -- Encoding: lists made on first read ---------------------------------------------------------


def test_encoding_fields_are_lists_that_keep_changes():
    enc = Encoding((5, 7), ("a", "b"), ((0, 1), (2, 3)), (0, 1), (0, 0))
    assert enc.ids == [5, 7] and isinstance(enc.ids, list)
    enc.offsets[0] = (0, 0)
    enc.tokens.append("c")
    assert enc.offsets == [(0, 0), (2, 3)] and enc.tokens == ["a", "b", "c"]
    assert len(enc) == 2
    enc.ids = [1]
    assert enc.ids == [1]


def test_encoding_from_spans_pairs_its_offsets_when_read():
    enc = Encoding.from_spans((5, 7), ("ab", "c"), (0, 3), (2, 4), (0, 1))
    assert enc == Encoding([5, 7], ["ab", "c"], [(0, 2), (3, 4)], [0, 1], [0, 0])
    assert enc.offsets is enc.offsets  # paired once, then the same list
    enc.offsets.append((4, 4))
    assert enc.offsets[-1] == (4, 4)
    # a two-token encoding given as pairs is not mistaken for starts and ends
    assert Encoding((1, 2), offsets=((0, 3), (4, 7))).offsets == [(0, 3), (4, 7)]
    assert Encoding.from_spans((), (), (), (), ()).offsets == []


def test_encoding_from_batch_slices_its_columns_when_read():
    columns = (
        array("q", [5, 7, 9]),
        (["d", "ab", "c"], array("q", [1, 2, 0])),  # each token: the string at its index
        array("q", [0, 3, 0]),
        array("q", [2, 4, 1]),
        array("q", [0, 1, 0]),
    )
    first, second = Encoding.from_batch(columns, 0, 2), Encoding.from_batch(columns, 2, 3)
    assert len(first) == 2 and len(second) == 1 and len(Encoding.from_batch(columns, 3, 3)) == 0
    assert first == Encoding([5, 7], ["ab", "c"], [(0, 2), (3, 4)], [0, 1], [0, 0])
    assert second == Encoding([9], ["d"], [(0, 1)], [0], [0])
    # each field is its own list: changing one encoding's leaves the columns and the other's alone
    first.ids.append(1)
    first.special_tokens_mask[0] = 1
    assert Encoding.from_batch(columns, 0, 2).ids == [5, 7] and first.ids == [5, 7, 1]
    assert first.tokens == ["ab", "c"] and first.special_tokens_mask == [1, 0]
    assert len(first) == 3  # the ids read and changed, not the view's length


@pytest.mark.parametrize(
    "make",
    [
        lambda: Encoding.from_spans((5, 7), ("ab", "c"), (0, 3), (2, 4), (0, 1)),
        lambda: Encoding.from_batch(
            (array("q", [5, 7]), (["c", "ab"], array("q", [1, 0])), (0, 3), (2, 4), array("q", [0, 1])), 0, 2
        ),
    ],
    ids=["from_spans", "from_batch"],
)
def test_an_unread_encoding_pickles_as_its_fields(make):
    """The markers of fields kept unread (starts and ends, a batch's view) are objects of one
    process: a pickled copy must carry the fields themselves."""
    copy = pickle.loads(pickle.dumps(make()))
    assert copy == make() == Encoding([5, 7], ["ab", "c"], [(0, 2), (3, 4)], [0, 1], [0, 0])


def test_a_batch_is_encodings_that_view_its_columns(models):
    tok = _tokenizer(models, "bpe", "none", "whitespace")
    texts = [f"hug pug {i} 철수는 먹고" for i in range(3 * encode_chunks.AT_ONCE_MIN)]
    batch = tok.encode_batch(texts)
    assert all(enc._ids[0] is BATCHED for enc in batch)  # the batch way, not the one by one
    one_by_one = [_fields(tok.encode(text)) for text in texts]
    assert [len(enc) for enc in batch] == [len(fields[0]) for fields in one_by_one]
    assert [_fields(enc) for enc in batch] == one_by_one


def test_encoding_defaults_equality_and_repr():
    assert Encoding() == Encoding([], [], [], [], [])
    assert Encoding(offsets=[(0, 3)]).ids == [] and Encoding(offsets=[(0, 3)]).offsets == [(0, 3)]
    assert Encoding((1,)) == Encoding([1]) != Encoding([2])
    assert Encoding().ids is not Encoding().ids  # never a shared default
    assert repr(Encoding([1], ["a"], [(0, 1)], [0], [0])) == (
        "Encoding(ids=[1], tokens=['a'], offsets=[(0, 1)], word_ids=[0], special_tokens_mask=[0])"
    )


# -- the models' tokens without Token objects ----------------------------------------------------

WORDS = ["hug", "pugs", "철수는", "치킨을먹고", "👋🏽", "cafe\u0301", "", "x", "zzz", "hug" * 30, "▁a", "10"]


@pytest.mark.parametrize("algorithm", list(SIZES))
@pytest.mark.parametrize("count", [3, 40])  # few pieces (matched in Python) and many (compiled)
def test_spans_batch_gives_the_tokens_of_tokenize(models, algorithm, count):
    model = models[algorithm]
    pieces = (WORDS * 4)[:count]
    if algorithm == "bytelevel-bpe":
        from core.pre_tokenizers import ByteLevel as Pre

        pieces = Pre().raw_to_words(pieces)
    # fresh copies (no cache carried over), the batch call first: nothing is read from a cache
    found = [list(zip(*spans)) for spans in pickle.loads(pickle.dumps(model)).tokenize_spans_batch(pieces)]
    fresh = pickle.loads(pickle.dumps(model))
    assert found == [[(t.id, t.value, t.start, t.end) for t in fresh.tokenize(p)] for p in pieces]


def _ranks(models) -> dict[bytes, int]:
    """A rank file's ranks from the byte-level model (its special tokens left out)."""
    from core.bytelevel import CHAR_TO_BYTE

    vocab = models["bytelevel-bpe"].get_vocab()
    return {
        bytes(map(CHAR_TO_BYTE.__getitem__, t)): i for t, i in vocab.items() if set(t) <= CHAR_TO_BYTE.keys()
    }


@pytest.mark.parametrize("pattern", ["gpt2", "cl100k_base"])
def test_rank_files_encode_as_the_general_path(models, pattern):
    from core.formats.tiktoken_ranks import tiktoken_tokenizer

    tok = tiktoken_tokenizer(_ranks(models), pattern)
    assert ChunkPlan.build(tok) is not None
    for text in AWKWARD + ["'sab", "a   b", "a \tb", "123abc 1234567", "hug 's", "\r0", "\t\t"]:
        assert_same_as_general(tok, text)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT)
def test_any_text_encodes_a_rank_file_as_the_general_path(models, text):
    from core.formats.tiktoken_ranks import tiktoken_tokenizer

    tok = tiktoken_tokenizer(_ranks(models), "cl100k_base")
    assert_same_as_general(tok, text)


def test_two_threads_encoding_with_one_tokenizer_get_what_one_gets(monkeypatch):
    """The explorer encodes a long line on a helper thread while its window encodes the others
    with the same tokenizer. The one-call kernels write into the store with the interpreter
    lock released: a second thread in between raised BufferError or mixed two lines' rows;
    now it takes the general path while the plan is busy."""
    import random
    import threading

    import core.chunk_kernels  # noqa: F401 - the one-call way needs the kernels loaded

    monkeypatch.setattr(encode_chunks, "FEW_COMPILED_AFTER", 0)
    rng = random.Random(7)
    letters = "가나다라마바사아자차카타파하철수는치킨을먹고abcdefghij"

    def line() -> str:
        return " ".join("".join(rng.choice(letters) for _ in range(rng.randint(1, 6))) for _ in range(12))

    lines = [line() for _ in range(2000)]
    corpus = {w: 1 + i % 7 for i, w in enumerate(" ".join(lines[:300]).split())}
    for pre in (Whitespace, Metaspace):
        options = TrainOptions("unigram" if pre is Metaspace else "bpe", vocab_size=200)
        model = drain(train_from_counts(corpus, options)).model
        shared = Tokenizer(model, pre_tokenizer=pre())
        alone = Tokenizer(model, pre_tokenizer=pre())
        got: dict[int, list] = {}
        failed: list = []

        def encode(k: int, shared: Tokenizer, got: dict, failed: list) -> None:
            try:
                got[k] = [_fields(shared.encode(text)) for text in lines[k::2]]
            except Exception as e:  # noqa: BLE001 - reported by the assertion below
                failed.append(e)

        threads = [threading.Thread(target=encode, args=(k, shared, got, failed)) for k in (0, 1)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not failed
        for k in (0, 1):
            assert got[k] == [_fields(alone.encode(text)) for text in lines[k::2]]
        _store_is_whole(shared._chunk_plan())


# Words the models never saw, words over a short max_input_chars_per_word, punctuation between
# letters, CJK (each character its own pre-token under BERT), accents (composed, combining,
# stripped), control characters BERT drops, tabs, and runs of spaces (empty chunks).
WORDPIECE_WORD = st.sampled_from(
    ["hug", "pug", "pun", "hugs", "철수는", "치킨을", "먹고", "café", "10", "Hug", "PUN"]
)
AWKWARD_CHARS = st.sampled_from(list("Σ世界!,.-'Éé\u0301\x01\tζ👋ﬁ"))
# mostly words the model knows (so many lines take the kernel), and words glued to awkward characters
WORDPIECE_KEY = st.one_of(
    WORDPIECE_WORD,
    WORDPIECE_WORD,
    st.lists(st.one_of(WORDPIECE_WORD, AWKWARD_CHARS), max_size=4).map("".join),
)
WORDPIECE_TEXT = st.one_of(TEXT, st.lists(WORDPIECE_KEY, max_size=6).map(" ".join))


def _wordpiece(models, normalizer: str, pre_tokenizer: str, longest: int | None) -> Tokenizer:
    """The trained WordPiece model under these stages, its longest word ``longest`` characters
    (None: as trained)."""
    import copy

    model = models["wordpiece"]
    if longest is not None:
        model = copy.copy(model)
        model.__dict__.pop("_matcher_args", None)  # (the compiled match reads the longest word)
        model.max_input_chars_per_word = longest
    return Tokenizer(
        model, normalizer=NORMALIZERS[normalizer](), pre_tokenizer=PRE_TOKENIZERS[pre_tokenizer]()
    )


@pytest.mark.parametrize(
    "stages",
    [
        ("bert", "bert"),
        ("none", "bert"),
        ("nfc", "whitespace"),
        ("nfkc", "whitespace-split"),
        ("bert", "whitespace"),
    ],
    ids="-".join,
)
@pytest.mark.parametrize("longest", [None, 4])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(WORDPIECE_TEXT, min_size=1, max_size=6))
def test_a_wordpiece_line_made_and_gathered_in_one_kernel_call_is_the_general_path(
    models, stages, longest, texts, monkeypatch
):
    """core.models.wordpiece.line_kernels.wordpiece_line: a WordPiece line's new chunks (BERT-normalized
    character by character, pre-tokenized, matched greedily, spans mapped back) written into
    the store's room and gathered with the cached ones; a line it cannot take goes the other way
    and leaves the store whole."""
    calls = _line_kernel_calls(monkeypatch, "wordpiece_line")
    tok = _wordpiece(models, *stages, longest)
    _lines_match_the_general_path(tok, texts)
    assert all(ok <= new for ok, new in calls)


def test_wordpiece_lines_of_new_words_take_the_one_call_way(models, monkeypatch):
    calls = _line_kernel_calls(monkeypatch, "wordpiece_line")
    tok = _wordpiece(models, "bert", "bert", 5)
    texts = ["hug pug hug", "Hugs  PUG", "hug", "Húg pun", "hu\u0301g hug", "\x01\x01 hug", "pugpun pugs"]
    for text in texts:
        assert_same_as_general(tok, text)
    # "hug", "pug"; "Hugs", "PUG" (the empty chunk is always cached); "hug" seen: no call;
    # "Húg" (lowercased, accent stripped), "pun"; "hu" + a combining mark + "g" (the mark
    # dropped); "\x01\x01" (nothing left once BERT drops it): the other way, no call;
    # "pugpun" is longer than 5 characters, one unknown token of no length the kernel leaves:
    # the line goes the other way
    assert calls == [(2, 2), (2, 2), (2, 2), (1, 1), (1, 2)]
    _store_is_whole(tok._chunk_plan())


@pytest.mark.parametrize("pre_tokenizer", ["whitespace", "whitespace-split", "bert"])
def test_wordpiece_character_classes_cut_every_character_as_the_regex_does(pre_tokenizer):
    """core.encode_chunks._WordPieceChars: each character's class, read from the pre-tokenizer's
    regex one character at a time, cuts the character beside a space, a letter, a punctuation
    mark and itself as the regex does, for every character of the BMP and a few astral ones
    (the kernel cuts runs of one class, and a class-1 character alone)."""
    pre = PRE_TOKENIZERS[pre_tokenizer]()
    chars = encode_chunks._WordPieceChars(None, pre)  # (its own tables, not the shared ones)
    every = "".join(chr(c) for c in range(0x10000) if not 0xD800 <= c < 0xE000) + "👋\U00020000\U000e0001"
    chars.fill(every)
    classes = chars.classes.tolist()

    def cut(text: str) -> list[str]:
        pieces: list[str] = []
        before = -1
        for c in text:
            kind = classes[ord(c)]
            if kind == 0:  # a space: dropped, and the next character starts afresh
                before = -1
                continue
            if kind == 1 or kind != before:
                pieces.append(c)
            else:
                pieces[-1] += c
            before = kind
        return pieces

    findall = pre.word_pattern.findall
    for c in every:
        for text in (c + c, c + " ", " " + c, c + "a", "a" + c, c + "!", "!" + c):
            assert cut(text) == findall(text), (hex(ord(c)), text)


def test_a_long_wordpiece_line_the_normalizer_lengthens_is_made_in_one_call(monkeypatch):
    """BERT's normalizer cuts each Hangul syllable into two or three jamo, so the new chunks of a
    long Korean line need more room in the store than its characters: the kernel says how much,
    and the line is made in one call still (the room, then the line)."""
    import unicodedata

    from core.models.wordpiece.model import WordPiece

    words = ("철수는", "치킨을", "먹고")
    jamo = sorted(set(unicodedata.normalize("NFD", "".join(words))))
    vocab = ["[UNK]", ",", *jamo, *(f"##{c}" for c in jamo)]
    tok = Tokenizer(
        WordPiece({t: i for i, t in enumerate(vocab)}),
        normalizer=BertNormalizer(),
        pre_tokenizer=BertPreTokenizer(),
    )
    import core.models.wordpiece.line_kernels as kernels

    monkeypatch.setattr(encode_chunks, "FEW_COMPILED_AFTER", 0)  # the one-call way from the first line
    calls = _line_kernel_calls(monkeypatch, "wordpiece_line")
    answers: list[int] = []
    counted = kernels.wordpiece_line

    def answered(*args):
        found = counted(*args)
        answers.append(found[1])
        return found

    monkeypatch.setattr(kernels, "wordpiece_line", answered)
    tok.encode("철수는,치킨을 먹고")  # (the character tables know them all now)
    answers.clear()
    calls.clear()
    text = " ".join(map(",".join, itertools.product(words, repeat=5)))  # 243 new chunks
    assert len(unicodedata.normalize("NFD", text)) > 2 * len(text)
    assert len(text) < encode_chunks.LINE_COMPILED_MAX
    assert_same_as_general(tok, text)
    assert answers[0] == NEED_ROOM and len(answers) == 2 and answers[1] >= 0, answers
    assert calls == [(243, 243)]
    _store_is_whole(tok._chunk_plan())


# Every character a pre-token can hold here is a token at a word's start and after it (so almost
# every line takes the kernel), and runs of punctuation are tokens too, so a run cut in the wrong
# place gets other tokens rather than the unknown one; so are the spaces a pre-token never holds.
KNOWN_CHARS = list("ab!,-'éÉA世\x01 \t\u3000") + ["e\u0301", "  "]
KNOWN_VOCAB = ["[UNK]", "ab", "##ab", "!,", "##!,", ",-", "##-'", "a!", "##b,"] + [
    f"{prefix}{c}" for c in "ab!,-'eéÉA世\u0301 \t\u3000" for prefix in ("", "##")
]


@pytest.mark.parametrize(
    "stages",
    [
        ("bert", "bert"),
        ("none", "bert"),
        ("none", "whitespace"),
        ("nfc", "whitespace-split"),
        ("bert", "whitespace"),
    ],
    ids="-".join,
)
@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(st.lists(st.sampled_from(KNOWN_CHARS), max_size=16).map("".join), min_size=1, max_size=4)
)
def test_wordpiece_lines_of_known_characters_cut_and_normalized_in_the_kernel_are_the_general_path(
    stages, texts
):
    """core.models.wordpiece.line_kernels.wordpiece_line's own normalizing (BERT's: accents stripped, a
    combining mark or a control character dropped, upper case lowered) and cutting (a run of
    letters or of other characters, punctuation alone under BERT) against the general path, on
    lines whose every character the model knows."""
    from core.models.wordpiece.model import WordPiece

    model = WordPiece({t: i for i, t in enumerate(dict.fromkeys(KNOWN_VOCAB))})
    tok = Tokenizer(model, normalizer=NORMALIZERS[stages[0]](), pre_tokenizer=PRE_TOKENIZERS[stages[1]]())
    _lines_match_the_general_path(tok, texts)
