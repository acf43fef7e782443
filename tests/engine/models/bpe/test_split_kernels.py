"""The rank files' compiled split (core.models.bpe.split_kernels) cuts every text exactly as
`regex` does with GPT-2's, cl100k's and o200k's patterns, and a rank file's tokenizer encodes through it
with the ids of the `regex` way."""

from __future__ import annotations

import pytest
import regex
from conftest import CORPORA
from hypothesis import given, settings
from hypothesis import strategies as st

from core.models.bpe.split_kernels import CL100K, GPT2, O200K, split_texts
from core.pre_tokenizers import CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, R50K_PATTERN

PATTERNS = [(R50K_PATTERN, GPT2), (GPT2_PATTERN, GPT2), (CL100K_PATTERN, CL100K), (O200K_PATTERN, O200K)]
# characters where the patterns' rules differ: contractions in both cases (and ſ, which folds
# to s), white space of every kind and line ends, digits of other scripts, marks, emoji, letters
# outside the BMP; for o200k's cases: title case ǅ, modifier letters ʰ (Lm: of both cases),
# accented capitals, Greek, slashes after others
TRICKY = list(
    "aZsSdDmMtTlLvVeErR'’ \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000 07٣①½!?.,-\"한テ漢ſ\u0301\u200b😀𝐀𝟘\ufeff"
    "ǅʰÉéΣσ/\u0300"
)
TRICKY += [
    "  ",
    "'s",
    "'ll",
    "'VE",
    "'Re",
    "'t",
    "'M",
    "'d",
    " \n",
    "\r\n",
    "  \n ",
    "Ab",
    "aB",
    "한국어",
    "\u0301a",
]


@pytest.mark.parametrize("pattern, kind", PATTERNS)
@settings(max_examples=400, deadline=None)
@given(texts=st.lists(st.lists(st.sampled_from(TRICKY), max_size=20).map("".join), min_size=1, max_size=8))
def test_split_is_regex_findall(pattern, kind, texts):
    found = regex.compile(pattern)
    assert split_texts(texts, kind) == [found.findall(t) for t in texts]


@pytest.mark.parametrize("pattern, kind", PATTERNS)
@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=30))
def test_split_of_any_text_is_regex_findall(pattern, kind, text):
    text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")  # (as the model takes it)
    assert split_texts([text], kind) == [regex.compile(pattern).findall(text)]


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(
        st.characters(categories=["Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd"])
        | st.sampled_from(TRICKY),
        max_size=30,
    )
)
def test_o200k_split_of_cased_letters_and_marks_is_regex_findall(parts):
    """Every letter case and mark, where o200k's two case alternatives give back characters."""
    text = "".join(parts)
    assert split_texts([text], O200K) == [regex.compile(O200K_PATTERN).findall(text)]


@pytest.mark.parametrize("pattern, kind", PATTERNS)
def test_split_of_the_corpora_is_regex_findall(pattern, kind):
    found = regex.compile(pattern)
    for name, every in (("en-botchan.txt", 1), ("ja-wagahaiwa.txt", 1), ("ko-movie-reviews.txt", 20)):
        text = (CORPORA / name).read_text(encoding="utf-8")
        lines = text.splitlines()[::every]
        assert split_texts(lines, kind) == [found.findall(line) for line in lines], name
        assert split_texts([text[:100_000]], kind) == [found.findall(text[:100_000])], name


def _ranks() -> dict[bytes, int]:
    ranks = {bytes([b]): b for b in range(256)}
    for token in ("한국", " 한", "국어", " 영화", "'s", " the", "th", "he", "\n\n", "  "):
        ranks.setdefault(token.encode(), len(ranks))
    return ranks


@pytest.mark.parametrize("pattern", ["gpt2", "cl100k_base", "o200k_base"])
def test_a_rank_file_encodes_through_its_own_split(pattern):
    from core.formats.tiktoken_ranks import tiktoken_tokenizer

    tok = tiktoken_tokenizer(_ranks(), pattern)
    texts = ["한국어 영화's the  he\n\n", "", "a\ud800b", "😀 \r\n 12345", "  ", "HTMLParser's a/b//\n"]
    assert tok._ids_plan().split is not None
    fast = tok.encode_batch_ids(texts)
    assert [tok.encode_ids(t) for t in texts] == fast
    assert fast == [tok.encode(t).ids for t in texts]  # the general path, through `regex`


def test_other_patterns_keep_regex():
    from core.models.bpe.tiktoken import TiktokenBPE

    model = TiktokenBPE(_ranks())
    assert model.split_texts_ids(r"\w+|\s+") is None


def test_a_byte_without_a_rank_is_named():
    from core.errors import ConfigError
    from core.formats.tiktoken_ranks import tiktoken_tokenizer

    ranks = {bytes([b]): b for b in range(256) if b != 0xED}
    tok = tiktoken_tokenizer(ranks, "gpt2")
    with pytest.raises(ConfigError, match="0xed"):
        tok.encode_batch_ids(["ok", "한"])  # 한 is ED 95 9C


def test_long_pieces_and_large_ranks():
    """A piece longer than the pair scan's 24 bytes takes the heap, with the same ids; a rank
    file with a rank past 2**21 is split by `regex` instead, with the same ids."""
    from core.formats.tiktoken_ranks import tiktoken_tokenizer

    ranks = _ranks()
    for size in (2, 3, 4, 6):
        ranks.setdefault(b"ab" * size, len(ranks))
    texts = ["ab" * 40 + " " + "한국" * 30, "x" * 100]
    fast = tiktoken_tokenizer(ranks, "gpt2")
    assert fast.encode_batch_ids(texts) == [fast.encode(t).ids for t in texts]
    large = tiktoken_tokenizer({**ranks, b"zz": 1 << 22}, "gpt2")
    assert large.model._rank_table() is None
    assert large.encode_batch_ids(texts + ["zz"]) == [large.encode(t).ids for t in texts + ["zz"]]
