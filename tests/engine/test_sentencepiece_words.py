"""SentencePiece words counted a block at a time (``SentencePieceWords.count_block``, what
``core.counting`` uses for ``-a sentencepiece-bpe``) against the line-by-line split."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from core.pre_tokenizers import SentencePieceWords

# spaces in runs, a tab, an ideographic space, ▁ and ▅, a meta piece's "<", a long line, the
# line-end mark itself
PARTS = [
    "a",
    "b",
    "한국",
    "カ",
    " ",
    " ",
    "  ",
    "\t",
    "\u3000",
    "▁",
    "▅",
    "<s>",
    "<",
    "x" * 1100,
    "é",
    "\x00",
]


@pytest.mark.parametrize(
    "words",
    [
        SentencePieceWords(),
        SentencePieceWords(meta_pieces=["<unk>", "<s>", "</s>", "ab"]),
        SentencePieceWords(add_dummy_prefix=False),
        SentencePieceWords(treat_whitespace_as_suffix=True),
        SentencePieceWords(mark_line_end=True),
    ],
    ids=["defaults", "user-defined", "no-dummy-prefix", "suffix", "line-ends"],
)
def test_a_block_counts_what_its_lines_count(words):
    rng = random.Random(3)
    for _ in range(300):
        lines = [
            "".join(rng.choice(PARTS) for _ in range(rng.randint(0, 12))) for _ in range(rng.randint(1, 8))
        ]
        if rng.random() < 0.5:  # most blocks are plain text
            lines = [t.replace("▁", "").replace("▅", "").replace("<", "") for t in lines if len(t) < 1000]
        expected = Counter(w for line in lines for w in words.split_words(line))
        counts = Counter({"▁": 2})  # counted before (a word of a line holding ▁▁)
        rest = words.count_block("\n".join(lines), counts)
        counts["▁"] -= 2
        counts.update(w for line in rest for w in words.split_words(line))
        assert +counts == expected, lines


def test_plain_lines_are_counted_at_once():
    counts: Counter[str] = Counter()
    assert SentencePieceWords().count_block("a b\n  a\n", counts) == []
    assert counts == {"▁a": 2, "▁b": 1}


def test_unigram_counts_mark_the_last_word_of_spm_trains_last_sentence(tmp_path):
    """spm_train drops a line that normalizes to nothing by swapping the last line into its
    place ("w rn" here, an empty line being skipped as it reads), so its last sentence here
    is "z corn", not the file's last line: its last word is
    marked twice (the Unigram trainer counts that sentence's suffixes again, as spm_train's
    seeding does). Without the mark every line-final word ends in one LINE_END."""
    from core.corpus import count_words
    from core.events import drain
    from core.options import TrainOptions

    path = tmp_path / "c.txt"
    path.write_text("x rn\n   \ny corn\nz corn\n\nw rn\n", encoding="utf-8")
    words = drain(count_words([path], TrainOptions("sentencepiece-unigram", vocab_size=100), workers=1)).words
    assert words["▁corn\x00\x00"] == 1 and words["▁corn\x00"] == 1 and words["▁rn\x00"] == 2
    bpe = drain(count_words([path], TrainOptions("sentencepiece-bpe", vocab_size=100), workers=1)).words
    assert not any(w.endswith("\x00") for w in bpe)


def test_plain_lines_with_their_ends_marked_are_counted_at_once():
    counts: Counter[str] = Counter()
    assert SentencePieceWords(mark_line_end=True).count_block("a b \n   \n\n  a\nb\x00\n", counts) == [
        "b\x00"
    ]
    assert counts == {"▁a": 1, "▁b\x00": 1, "▁a\x00": 1}
