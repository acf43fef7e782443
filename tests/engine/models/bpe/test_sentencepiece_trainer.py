"""The SentencePiece BPE trainer's rules, hand-checked (core.models.bpe.sentencepiece_trainer)."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from core.events import drain
from core.models.bpe.sentencepiece_trainer import learn_pieces
from core.sentencepiece_training import SentencePieceSettings, required_chars


def test_ties_go_to_the_shorter_piece_then_the_smaller_text():
    # ab, cd and ▁a all occur 3 times: by text, "ab" < "cd" < "▁a" (▁ is U+2581)
    assert drain(learn_pieces({"▁ab": 3, "cd": 3}, 2, SentencePieceSettings())) == ["ab", "cd"]
    # after qu and xy, "xyz" and "zz" both occur twice: the shorter "zz" first, though "xyz" < "zz"
    pieces = drain(learn_pieces({"xyz": 2, "qu": 2, "zz": 2}, 4, SentencePieceSettings()))
    assert pieces == ["qu", "xy", "zz", "xyz"]


def test_a_piece_reached_by_another_split_is_taken_once():
    # "aaa" is "aa"+"a" after "a"+"a"; its other split "a"+"aa" never becomes a second piece
    pieces = drain(learn_pieces({"aaa": 5, "aaaa": 1}, 3, SentencePieceSettings()))
    assert pieces.count("aaa") <= 1 and pieces[0] == "aa"


def test_when_no_pair_occurs_pairs_seen_once_follow_shortest_first():
    # after "ab" and "abab" nothing occurs; spm_train goes on with pairs that occurred once,
    # shortest first: "ba", then "aba" (ab|a stood side by side while "abab" was merged)
    pieces = drain(learn_pieces({"abab": 1}, 4, SentencePieceSettings()))
    assert pieces == ["ab", "abab", "ba", "aba"]


def test_no_piece_crosses_scripts_or_holds_a_space_inside():
    s = SentencePieceSettings()
    assert not s.is_valid_piece("a한")
    assert not s.is_valid_piece("a▁")
    assert SentencePieceSettings(treat_whitespace_as_suffix=True).is_valid_piece("a▁")
    assert s.is_valid_piece("カタ漢")  # kana count as Han
    assert not SentencePieceSettings(max_sentencepiece_length=2).is_valid_piece("abc")


def test_valid_pieces_many_at_once_agree_with_one_at_a_time():
    """``valid_pieces`` (the Unigram seeding's vectorized filter) says what ``is_valid_piece``
    says, for every option that changes the rule."""
    import random

    import numpy as np

    rng = random.Random(4)
    alphabet = "ab▁1２カ漢한\u0301é\t \u2585!"
    text = "".join(rng.choice(alphabet) for _ in range(3000))
    codes = np.array([ord(c) for c in text])
    pos = np.array([rng.randrange(len(text) - 8) for _ in range(2000)])
    length = np.array([rng.randint(1, 8) for _ in range(2000)])
    for settings in (
        SentencePieceSettings(),
        SentencePieceSettings(treat_whitespace_as_suffix=True),
        SentencePieceSettings(split_digits=True, max_sentencepiece_length=4),
    ):
        want = [settings.is_valid_piece(text[p : p + k]) for p, k in zip(pos.tolist(), length.tolist())]
        assert settings.valid_pieces(codes, pos, length).tolist() == want


def test_required_characters_stop_at_the_coverage():
    counts = {"a" * 9990: 1, "b" * 9: 1, "c": 1}
    assert list(required_chars(counts, 0.9995)) == ["a", "b"]
    assert list(required_chars(counts, 1.0)) == ["a", "b", "c"]


def test_linked_merge_gives_what_the_readable_reference_gives():
    import random

    from core.models.bpe.sentencepiece_trainer import learn_pieces_reference

    rng = random.Random(1)
    for _ in range(400):
        words = {}
        for _ in range(rng.randint(1, 30)):
            w = ("▁" if rng.random() < 0.7 else "") + "".join(
                rng.choice("aabb1한▅") for _ in range(rng.randint(1, 9))
            )
            words[w] = rng.randint(1, 5)
        settings = SentencePieceSettings(
            split_digits=rng.random() < 0.5, max_sentencepiece_length=rng.choice([3, 16])
        )
        n = rng.randint(1, 60)
        assert drain(learn_pieces(words, n, settings)) == drain(learn_pieces_reference(words, n, settings)), (
            words
        )


def test_unigram_words_mark_the_end_of_a_line():
    from core.options import TrainOptions, pre_tokenize_lines

    assert pre_tokenize_lines(["a b", "b"], TrainOptions("sentencepiece-unigram")) == {"▁a": 1, "▁b\x00": 2}
    assert pre_tokenize_lines(["a b", "b"], TrainOptions("sentencepiece-bpe")) == {"▁a": 1, "▁b": 2}


def test_the_traits_of_many_characters_are_those_of_each():
    from core.models.bpe import sentencepiece_signatures as sig
    from core.models.bpe.sentencepiece_trainer import _all_traits, _traits

    chars = list("a1▁あ한ж\u0301\t\0 ▅１٣カー«é😀Ωx") + [chr(c) for c in range(0x2000, 0x2070)]
    unused = {"x", "é"}
    expected = [(-1, sig.BAD) if c in unused else _traits(c) for c in chars]
    assert _all_traits(chars, unused) == expected


def _covering_chars_readable(char_counts, coverage):
    """covering_chars as first written: the float32 share of every prefix, sorted with a key."""
    from core.sentencepiece_pieces import f32
    from core.sentencepiece_training import BOUNDARY

    counts = {c: n for c, n in char_counts.items() if c != " "}
    total, accumulated, kept = sum(counts.values()), 0, {}
    for c, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if total and f32(accumulated / total) >= f32(coverage):
            break
        accumulated += n
        if c != BOUNDARY:
            kept[c] = n
    return kept


@hypothesis_settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(st.sampled_from(list("abcdefghij \t▁あ")), st.integers(1, 3000), max_size=12),
    st.sampled_from([0.98, 0.99, 0.9995, 0.99999, 1.0]),
    st.integers(0, 40000),
)
@example({"a": 1}, 0.9995, 1998)  # y 1998, a 1, z 1: the share before "z" is 0.9995 itself
@example({}, 0.9995, 1999)
@example({"a": 1}, 0.99999, 199998)
def test_covering_chars_equals_its_readable_form(counts, coverage, rare):
    from core.sentencepiece_training import covering_chars

    if rare:  # one rare character among many: its share sits right at the coverage
        counts = {**counts, "z": 1, "y": rare}
    kept = covering_chars(counts, coverage)
    expected = _covering_chars_readable(counts, coverage)
    assert kept == expected and list(kept) == list(expected)
