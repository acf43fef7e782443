"""The ids fast path of SentencePiece models: ``normalize_str`` (a rewrite, then spaces handled
on the whole string) equals ``normalize``, and ``encode_ids`` (cached words, float64 with a
rounding check for unigram, a pair scan for BPE) gives SentencePieceProcessor's ids, also on
hand-built models full of exact score ties, user-defined and unused pieces."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

spm = pytest.importorskip("sentencepiece")

from sentencepiece_files import both_processors, model_bytes

from core.formats.sentencepiece_model import load_sentencepiece  # noqa: E402
from core.models.bpe import sentencepiece as bpe_sentencepiece  # noqa: E402
from core.normalizers_sentencepiece import SentencePieceNormalizer  # noqa: E402
from core.sentencepiece_pieces import BYTE, CONTROL, NORMAL, UNKNOWN, UNUSED, USER_DEFINED  # noqa: E402
from core.text import NormalizedString  # noqa: E402

# spaces of several kinds, the ▁ itself, characters the nmt_nfkc charsmap rewrites (full-width,
# compatibility jamo, ligatures), one it deletes (zero-width space), and plain letters
TEXT = st.text(alphabet=" \t\u3000▁aAｶﾞ①ﬁㅋ\u200b철수는é\u0301😀", max_size=30)

# exact ties everywhere: a + a == aa, ▁ + a == ▁a, and so on
TIED_UNIGRAM = [
    ("<unk>", 0.0, UNKNOWN),
    ("<s>", 0.0, CONTROL),
    ("▁", -1.0, NORMAL),
    ("a", -1.0, NORMAL),
    ("b", -1.5, NORMAL),
    ("aa", -2.0, NORMAL),
    ("▁a", -2.0, NORMAL),
    ("ab", -2.5, NORMAL),
    ("aab", -3.5, NORMAL),
    ("▁aa", -3.0, NORMAL),
    ("<u>", 0.0, USER_DEFINED),
]

BPE = [
    ("<unk>", 0.0, UNKNOWN),
    ("<s>", 0.0, CONTROL),
    ("ab", 0.0, NORMAL),
    ("ba", 0.0, NORMAL),  # ties with ab: the leftmost pair first
    ("▁a", -1.0, NORMAL),
    ("aa", -1.0, NORMAL),
    ("▁ab", -2.0, NORMAL),
    ("abab", -2.5, NORMAL),
    ("▁", -4.0, NORMAL),
    ("a", -5.0, NORMAL),
    ("b", -6.0, NORMAL),
]


@pytest.fixture(scope="module")
def nmt_nfkc_charsmap(tmp_path_factory):
    d = tmp_path_factory.mktemp("charsmap")
    (d / "c.txt").write_text("a b c\n철수는 먹고\nＡＢＣ ｶﾞ\n" * 50, encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(d / "c.txt"), model_prefix=str(d / "m"), vocab_size=17, minloglevel=2, num_threads=1
    )
    return load_sentencepiece(d / "m.model").normalizer.precompiled.charsmap


def _normalizer(
    charsmap: bytes, dummy: bool, extra: bool, escape: bool, suffix: bool
) -> SentencePieceNormalizer:
    """A normalizer of the drawn settings, with two user-defined pieces (one holds a ▁)."""
    return SentencePieceNormalizer(
        charsmap,
        add_dummy_prefix=dummy,
        remove_extra_whitespaces=extra,
        escape_whitespaces=escape,
        treat_whitespace_as_suffix=suffix,
        user_defined=["ｶﾞ", "a▁"],
    )


@settings(max_examples=200, deadline=None)
@given(
    text=TEXT,
    dummy=st.booleans(),
    extra=st.booleans(),
    escape=st.booleans(),
    suffix=st.booleans(),
    charsmap=st.booleans(),
)
def test_normalize_str_equals_normalize(nmt_nfkc_charsmap, text, dummy, extra, escape, suffix, charsmap):
    n = _normalizer(nmt_nfkc_charsmap if charsmap else b"", dummy, extra, escape, suffix)
    assert n.normalize_str(text) == n.normalize(NormalizedString.from_str(text)).normalized
    assert n.normalize_str(text) == n.normalize(NormalizedString.from_str(text)).normalized  # chars now known


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=" ㅋㅠeｶﾞ\u0301①a", max_size=12), user_defined=st.booleans())
def test_keys_of_one_character_and_of_more(nmt_nfkc_charsmap, text, user_defined):
    # a text meeting only keys of one character (ㅋ -> ᄏ) is rewritten by one translate; a second
    # character of a longer key (e + U+0301 -> é, ｶ + ﾞ -> ガ) or a user-defined piece must not be
    n = SentencePieceNormalizer(nmt_nfkc_charsmap, user_defined=["ｶﾞ"] if user_defined else [])
    assert n.normalize_str(text) == n.normalize(NormalizedString.from_str(text)).normalized
    assert n.normalize_many([text, text]) == [n.normalize_str(text)] * 2


@settings(max_examples=200, deadline=None)
@given(
    texts=st.lists(st.text(alphabet=" \t\n\u3000▁aAｶﾞ①ﬁㅋ\u200b철é\u0301😀", max_size=12), max_size=6),
    dummy=st.booleans(),
    extra=st.booleans(),
    escape=st.booleans(),
    suffix=st.booleans(),
    charsmap=st.booleans(),
    usual=st.booleans(),
)
def test_normalize_many_equals_normalize_str(
    nmt_nfkc_charsmap, texts, dummy, extra, escape, suffix, charsmap, usual
):
    # the batch's spaces are handled on the texts joined by newlines: texts holding one (which
    # the charsmap rewrites), empty ones, ones of nothing but spaces or of ▁ must still come apart
    if usual:  # the settings of nearly every model, the only ones handled all at once: half the examples
        dummy, extra, escape, suffix = True, True, True, False
    n = _normalizer(nmt_nfkc_charsmap if charsmap else b"", dummy, extra, escape, suffix)
    assert n.normalize_many(texts) == [n.normalize_str(t) for t in texts]


@pytest.fixture(scope="module")
def hand_built(tmp_path_factory):
    bytes_ = [(f"<0x{b:02X}>", 0.0, BYTE) for b in range(256)]
    models = {
        "unigram": model_bytes(TIED_UNIGRAM),
        "unigram-bytes": model_bytes(TIED_UNIGRAM + bytes_, byte_fallback=True),
        "bpe": model_bytes(BPE, model_type=2),
        "bpe-unused": model_bytes(BPE + [("aab", -0.5, UNUSED)], model_type=2),
        "bpe-bytes": model_bytes(BPE + bytes_, model_type=2, byte_fallback=True),
        # x and é are no pieces, but xé is one: the compiled merge must not leave them apart
        "bpe-open": model_bytes(BPE + [("xé", -0.5, NORMAL)] + bytes_, model_type=2, byte_fallback=True),
    }
    return {name: both_processors(tmp_path_factory.mktemp(name), data) for name, data in models.items()}


@pytest.mark.parametrize("name", ["unigram", "unigram-bytes", "bpe", "bpe-unused", "bpe-bytes", "bpe-open"])
@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet="ab  ▁xé<u>", max_size=60))
def test_encode_ids_gives_sentencepiece_ids(hand_built, name, text):
    sp, ours = hand_built[name]
    expected = sp.encode(text)
    assert ours.encode(text).ids == expected
    assert ours.encode_ids(text) == expected
    assert ours.encode_ids(text) == expected  # from the word cache


@pytest.mark.parametrize("name", ["unigram", "unigram-bytes", "bpe", "bpe-unused", "bpe-bytes", "bpe-open"])
@settings(max_examples=60, deadline=None)
@given(texts=st.lists(st.text(alphabet="ab  ▁xé<u>\t", max_size=20), max_size=8))
def test_encode_batch_ids_gives_sentencepiece_ids(hand_built, name, texts):
    # a batch of texts is normalized together and goes to the model without a cache of whole texts
    sp, ours = hand_built[name]
    assert ours.encode_batch_ids(texts) == [sp.encode(t) for t in texts]


@pytest.mark.parametrize("name", ["unigram", "bpe"])
@pytest.mark.parametrize("bad", ["b\ud800", b"ab", None])
def test_a_batch_refuses_what_encode_refuses(hand_built, name, bad):
    # the batch is checked in one pass: a lone surrogate or a non-str anywhere in it is the
    # InputError that encode gives for it, never ids
    from core.errors import InputError

    _, ours = hand_built[name]
    with pytest.raises(InputError) as one:
        ours.encode(bad)
    with pytest.raises(InputError) as batch:
        ours.encode_batch_ids(["ab", bad, "a"])
    assert str(batch.value) == str(one.value)


@pytest.mark.parametrize("bad", ["b\ud800", "\udfff", "ㅋ \ud83d", "a\ud83d\ude00", b"ab", None])
def test_encode_ids_refuses_what_encode_refuses(nfkc_models, bad):
    # a Unigram's kernel for one sentence sees the text before check_text does: a surrogate in
    # it is still the InputError that encode gives, never ids
    from core.errors import InputError

    _, ours = nfkc_models["unigram"]
    assert ours.encode_ids("ab ㅋ") == ours.encode("ab ㅋ").ids  # (the kernel for one sentence found)
    with pytest.raises(InputError) as one:
        ours.encode(bad)
    with pytest.raises(InputError) as ids:
        ours.encode_ids(bad)
    assert str(ids.value) == str(one.value)


def test_a_piece_across_words_makes_whole_sentences(tmp_path, monkeypatch):
    # "a▁b" spans two words: the model must not cut sentences into words
    pieces = BPE + [("a▁", 0.5, NORMAL), ("a▁b", 1.0, NORMAL)]
    sp, ours = both_processors(tmp_path, model_bytes(pieces, model_type=2))
    texts = ["a b", "aa bb a b", "b a b a"]
    assert sp.encode("a b", out_type=str) == ["▁", "a▁b"]  # the piece across words is used
    for text in texts:
        assert ours.encode_ids(text) == sp.encode(text) == ours.encode(text).ids
    # nor when a sentence is too long to be merged whole in one call
    monkeypatch.setattr(bpe_sentencepiece.SentencePieceBPE, "_LONG_SENTENCE", 3)
    assert ours.encode_batch_ids(texts) == [sp.encode(text) for text in texts]


@pytest.mark.parametrize("name", ["bpe", "bpe-bytes", "bpe-open"])
def test_bpe_sentences_too_long_to_merge_whole(hand_built, name, monkeypatch):
    # past _LONG_SENTENCE characters a BPE sentence goes word by word, its words cached
    monkeypatch.setattr(bpe_sentencepiece.SentencePieceBPE, "_LONG_SENTENCE", 8)
    sp, ours = hand_built[name]
    texts = ["ab ba abab xé aab", "a", "x é xé ab ba ab ba", "abab abab ab"]
    assert ours.encode_batch_ids(texts) == [sp.encode(text) for text in texts]
    assert [ours.encode_ids(text) for text in texts] == [sp.encode(text) for text in texts]


def test_long_lines_and_long_words(hand_built):
    sp, ours = hand_built["unigram"]
    for text in ["ab " * 400, "aab" * 300, ("a" * 50 + " ") * 30]:
        assert ours.encode_ids(text) == sp.encode(text)
    sp, ours = hand_built["bpe"]
    for text in ["ab " * 400, "abba" * 100, "ba" * 300]:
        assert ours.encode_ids(text) == sp.encode(text)


@settings(max_examples=200, deadline=None)
@given(
    text=st.text(alphabet=" ▁aA철수는é😀\t", max_size=30),
    dummy=st.booleans(),
    extra=st.booleans(),
    escape=st.booleans(),
    suffix=st.booleans(),
    charsmap=st.booleans(),
)
def test_plain_lines_normalize_as_step_by_step(
    nmt_nfkc_charsmap, text, dummy, extra, escape, suffix, charsmap
):
    # a line no charsmap rule touches takes a shortcut that copies whole runs with their spans
    n = SentencePieceNormalizer(
        nmt_nfkc_charsmap if charsmap else b"",
        add_dummy_prefix=dummy,
        remove_extra_whitespaces=extra,
        escape_whitespaces=escape,
        treat_whitespace_as_suffix=suffix,
        user_defined=["zz"],
    )
    assume(n._key_starts().isdisjoint(text))  # "\t" and "é" start rules of the charsmap
    source = NormalizedString.from_str("xy" + text).slice(2, 2 + len(text))  # spans not starting at 0
    assert n._normalize_plain(source) == n._normalize_stepwise(source)
    assert n.normalize(source).normalized == n.normalize_str(text)


@pytest.fixture(scope="module")
def nfkc_models(tmp_path_factory, nmt_nfkc_charsmap):
    """A BPE and a Unigram with byte fallback under the nmt_nfkc charsmap, opened by both sides."""
    bytes_ = [(f"<0x{b:02X}>", 0.0, BYTE) for b in range(256)]
    extra = [("▁ᄏ", -0.5, NORMAL), ("ᄏ", -7.0, NORMAL), ("kg", -0.7, NORMAL), ("k", -8.0, NORMAL)]
    extra += [("g", -9.0, NORMAL)]
    unigram = [p for p in TIED_UNIGRAM if p[2] != USER_DEFINED]  # a user-defined piece: no compiled way
    models = {"bpe": (BPE, 2), "unigram": (unigram, 1)}
    return {
        name: both_processors(
            tmp_path_factory.mktemp(f"{name}-nfkc"),
            model_bytes(
                pieces + extra + bytes_,
                model_type=kind,
                byte_fallback=True,
                charsmap=nmt_nfkc_charsmap,
                name="nmt_nfkc",
            ),
        )
        for name, (pieces, kind) in models.items()
    }


@pytest.mark.parametrize("name", ["bpe", "unigram"])
@settings(max_examples=200, deadline=None)
@given(texts=st.lists(st.text(alphabet=" \t\u3000▁abAｶﾞ①ﬁㅋ㎏\u200bé\u0301e😀", max_size=16), max_size=6))
def test_normalized_inside_the_compiled_encoder(nfkc_models, name, texts):
    # the charsmap's rewrites (ㅋ -> ᄏ, ㎏ -> kg, U+3000 -> a space, U+200B deleted), the keys of
    # two characters (e + U+0301, ｶ + ﾞ: back to Python) and every kind of space, normalized in
    # the kernel that merges or cuts: the same ids as sentencepiece, one text at a time and in a batch
    sp, ours = nfkc_models[name]
    assert ours._ids_plan().sentences is not None  # the compiled way is the one taken
    # and a Unigram's own kernel for one sentence in encode_ids
    assert (ours._ids_plan().sentence is not None) == (name == "unigram")
    expected = [sp.encode(t) for t in texts]
    assert [ours.encode_ids(t) for t in texts] == expected
    assert ours.encode_batch_ids(texts) == expected
    assert ours.encode_batch_ids(texts) == expected  # the characters met are known now
