"""Corpus counting on what real files contain, word-count files, and the bundled resources.

Expected values come from an independent reference: Python's own text decoding and
``str.split``, the seeds' tables, the corpus README's figures, or
``core.options.pre_tokenize_lines`` on the lines held in memory (what streaming
must reproduce whatever the block boundaries).
"""

from __future__ import annotations

import codecs
import json
import os
import re
import tracemalloc
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import core.corpus as corpus
import core.counting as counting
from core.corpus import (
    CorpusCounts,
    count_lines,
    count_words,
    load_word_counts_as_corpus,
    read_word_counts,
    write_word_counts,
)
from core.counting import detect_encoding
from core.errors import ConfigError, CorpusError
from core.events import Progress, Warning_, drain
from core.options import TrainOptions, build_pre_tokenizer, pre_tokenize_lines

KOREAN = "철수는 치킨을 먹고 볶음밥을 먹고 있다\n영희는 학교에 갔다가 집에 왔다\n"


def count(path, options=None, encoding="auto") -> tuple[CorpusCounts, list]:
    events: list = []
    result = drain(count_words(path, options, encoding), events.append)
    return result, events


def write(tmp_path: Path, data: bytes | str, name: str = "corpus.txt") -> Path:
    p = tmp_path / name
    p.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return p


def reference_lines(text: str) -> list[str]:
    """Lines as Python's universal newlines read them (CRLF, CR, LF), no final empty line."""
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


# --- what real files contain ---------------------------------------------------------------


def test_plain_utf8_counts_whitespace_words_and_characters(tmp_path):
    c, events = count(write(tmp_path, KOREAN))
    assert c.words == dict(Counter(KOREAN.split()))
    assert c.lines == 2 and c.n_words == 11 and c.distinct_words == 10
    assert c.chars == dict(Counter(KOREAN.replace("\n", "")))
    assert c.characters == len(KOREAN) - 2
    assert c.encoding == "utf-8" and c.replaced_bytes == 0
    assert c.preview == KOREAN.splitlines()
    assert not [e for e in events if isinstance(e, Warning_)]


def test_a_training_job_can_skip_the_character_counts(tmp_path):
    # count_words(characters=False), what `subword train` counts with: the same words and the
    # same number of characters, but no per-character counts
    text = KOREAN + "hug, pug!\r\n\r\nlast line without an end"
    full, _ = count(write(tmp_path, text))
    words_only = drain(count_words(tmp_path / "corpus.txt", characters=False))
    assert words_only.chars == {} and full.chars
    for name in ("words", "lines", "characters", "n_words", "preview", "encoding"):
        assert getattr(words_only, name) == getattr(full, name), name
    assert words_only.characters == len(text.replace("\r\n", "")) - KOREAN.count("\n")


def test_utf8_bom_is_stripped(tmp_path):
    c, _ = count(write(tmp_path, codecs.BOM_UTF8 + b"hug pug\npug\n"))
    assert c.words == {"hug": 1, "pug": 2}
    assert "\ufeff" not in c.chars and c.encoding == "utf-8"


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_line_ends_are_never_part_of_words(tmp_path, newline):
    text = KOREAN.replace("\n", newline)
    for options in (None, TrainOptions("bpe", pre_tokenizer="none"), TrainOptions("bytelevel-bpe")):
        c, _ = count(write(tmp_path, text), options)
        assert c.lines == 2
        assert not any("\r" in w or "\n" in w or "Ċ" in w or "č" in w for w in c.words), c.words
        assert "\r" not in c.chars and "\n" not in c.chars
    assert count(write(tmp_path, text), TrainOptions("bpe", pre_tokenizer="none"))[0].words == {
        line: 1 for line in KOREAN.splitlines()
    }


def test_empty_lines_and_a_last_line_without_line_end_are_lines(tmp_path):
    assert count(write(tmp_path, "a\r\n\r\nb"))[0].lines == 3
    assert count(write(tmp_path, "a\n\r"))[0].lines == 2  # as str.splitlines: "a", ""


def test_invalid_utf8_is_replaced_counted_and_reported(tmp_path):
    data = "먹고 있다 ".encode() + b"\xff\xfe" + b" hug\n" + "철수".encode()[:-1] + b" pug\n"
    c, events = count(write(tmp_path, data))
    reference = data.decode("utf-8", errors="replace")
    assert c.words == dict(Counter(reference.split()))
    assert c.replaced_bytes == 4  # \xff, \xfe, and the two bytes of a truncated 수
    assert c.chars["\ufffd"] == reference.count("\ufffd")
    warnings = [e for e in events if isinstance(e, Warning_)]
    assert (
        len(warnings) == 1 and "4 invalid byte" in warnings[0].message and "corpus.txt" in warnings[0].message
    )


@pytest.mark.parametrize("codec", ["cp949", "euc-kr"])
def test_korean_legacy_encodings_are_detected(tmp_path, codec):
    p = write(tmp_path, KOREAN.encode(codec))
    c, events = count(p)
    assert c.encoding == "cp949"  # CP949 is the superset that reads EUC-KR too
    assert c.words == dict(Counter(KOREAN.split())) and c.replaced_bytes == 0
    assert count(p, encoding=codec)[0].words == c.words  # or chosen by the user


def test_cp949_extension_syllables_need_cp949_not_euc_kr(tmp_path):
    # 똠 and 뷁 are outside EUC-KR's 2,350 syllables; CP949 has them.
    p = write(tmp_path, "똠양꿍 뷁 먹었다\n".encode("cp949"))
    assert count(p)[0].words == {"똠양꿍": 1, "뷁": 1, "먹었다": 1}
    c, events = count(p, encoding="euc-kr")
    assert c.replaced_bytes > 0 and any(isinstance(e, Warning_) for e in events)


def test_detection_reads_the_first_block_only(tmp_path, monkeypatch):
    # Documented limit: plain ASCII first, CP949 later -> read as UTF-8, bytes replaced, warned.
    monkeypatch.setattr(counting, "BLOCK_BYTES", 64)
    p = write(tmp_path, ("plain ascii words " * 8 + "\n").encode() + KOREAN.encode("cp949"))
    c, events = count(p)
    assert c.encoding == "utf-8" and c.replaced_bytes > 0
    assert any(isinstance(e, Warning_) and "choose it" in e.message for e in events)
    chosen, events = count(p, encoding="cp949")
    assert chosen.replaced_bytes == 0 and chosen.words["먹고"] == 2
    assert not [e for e in events if isinstance(e, Warning_)]


def test_detect_encoding_prefers_utf8_when_it_decodes_cleanly():
    assert detect_encoding(KOREAN.encode("utf-8")) == "utf-8"
    assert detect_encoding(KOREAN.encode("cp949")) == "cp949"
    assert detect_encoding(b"plain ascii") == "utf-8"
    assert detect_encoding("한국어".encode("utf-16")) == "utf-16"
    # a UTF-8 file with one stray byte stays UTF-8 (fewest errors wins)
    assert detect_encoding(KOREAN.encode() + b"\xff") == "utf-8"


def test_utf16_with_bom_is_read(tmp_path):
    c, _ = count(write(tmp_path, KOREAN.encode("utf-16")))
    assert c.encoding == "utf-16" and c.words == dict(Counter(KOREAN.split()))


def test_unknown_encoding_is_a_config_error(tmp_path):
    p = write(tmp_path, "hug\n")
    with pytest.raises(ConfigError, match="no-such-codec"):
        count(p, encoding="no-such-codec")
    with pytest.raises(ConfigError):
        count(p, encoding="base64")  # a codec, but not a text encoding


@pytest.mark.parametrize("data", [b"", b"   \n\r\n\t  \n"])
def test_empty_or_whitespace_only_file_is_a_clear_error(tmp_path, data):
    p = write(tmp_path, data, "empty.txt")
    with pytest.raises(CorpusError, match=r"empty\.txt is empty"):
        count(p)


def test_binary_files_are_refused_by_name(tmp_path):
    with pytest.raises(CorpusError, match=r"image\.png.*binary"):
        count(write(tmp_path, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), "image.png"))
    # no NUL byte, but mostly undecodable in UTF-8 and in CP949
    junk = bytes([0x80, 0xFF, 0xC0, 0xFE]) * 4000
    with pytest.raises(CorpusError, match=r"junk\.bin.*binary"):
        count(write(tmp_path, junk, "junk.bin"))


def test_missing_path_directory_and_unreadable_file(tmp_path, monkeypatch):
    with pytest.raises(CorpusError, match=r"nope\.txt: no such file"):
        count(tmp_path / "nope.txt")
    with pytest.raises(CorpusError, match="is a directory"):
        count(tmp_path)
    p = write(tmp_path, "hug\n", "locked.txt")

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    # subtle: the CI runs as root, where chmod 000 does not stop reading; fail open() instead.
    monkeypatch.setattr(counting, "open", refuse, raising=False)  # counting a text file
    monkeypatch.setattr(corpus, "open", refuse, raising=False)  # reading a word-count file
    with pytest.raises(CorpusError, match=r"cannot read .*locked\.txt: Permission denied"):
        count(p)
    with pytest.raises(CorpusError, match=r"locked\.txt: Permission denied"):
        read_word_counts(p)


def test_several_files_are_counted_together(tmp_path):
    a = write(tmp_path, "hug pug\n", "a.txt")
    b = write(tmp_path, "pug pun\r\nbun".encode("cp949"), "b.txt")
    e = write(tmp_path, "", "e.txt")
    c, events = count([a, b, e])
    assert c.words == {"hug": 1, "pug": 2, "pun": 1, "bun": 1}
    assert c.lines == 3 and c.paths == [a, b, e]
    assert c.bytes_read == sum(p.stat().st_size for p in (a, b, e))
    # one empty file among several is skipped with a warning, not an error
    assert any(isinstance(x, Warning_) and "e.txt is empty" in x.message for x in events)
    with pytest.raises(CorpusError, match="empty"):
        count([e, write(tmp_path, " \n", "f.txt")])
    with pytest.raises(CorpusError, match="no corpus file"):
        count([])


def test_progress_reports_bytes_about_once_per_megabyte(tmp_path):
    line = "tokenizers learn merges from counted words\n"
    p = write(tmp_path, line * (3_500_000 // len(line)))
    size = p.stat().st_size
    _, events = count(p)
    progress = [e for e in events if isinstance(e, Progress)]
    assert all(e.phase == "count" and e.total == size for e in progress)
    done = [e.done for e in progress]
    assert done == sorted(done) and done[-1] == size
    assert len(progress) <= size // counting.BLOCK_BYTES + 2


def test_stopping_iteration_cancels_and_closes_the_file(tmp_path):
    p = write(tmp_path, "hug pug\n" * 400_000)

    def open_files() -> set[str]:
        names = set()
        for fd in os.listdir("/proc/self/fd"):
            try:
                names.add(os.readlink(f"/proc/self/fd/{fd}"))
            except OSError:  # the listing's own descriptor, already closed
                pass
        return names

    gen = count_words(p)
    first = next(gen)
    assert isinstance(first, Progress) and first.done < first.total
    assert str(p) in open_files()
    gen.close()  # the GUI's cancel: it stops iterating
    assert str(p) not in open_files()


def test_a_50_mb_single_line_is_counted_in_small_memory(tmp_path):
    # Long words keep the number of Python objects (and tracemalloc's own cost) low.
    vocab = [
        f"{stem}-{n:02d}" * 3
        for n, stem in enumerate(["tokenization", "subword", "merges", "vocabulary"] * 5)
    ]
    unit = " ".join(vocab) + " "
    p = tmp_path / "one-line.txt"
    repeats = 0
    with open(p, "w", encoding="utf-8") as f:
        chunk = unit * 2000
        while f.tell() < 50_000_000:
            f.write(chunk)
            repeats += 2000
    size = p.stat().st_size
    count(write(tmp_path, "warm up: lazy imports are not the counting's memory\n" * 200, "warm.txt"))
    tracemalloc.start()
    try:
        c, _ = count(p)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert c.lines == 1
    # Every word is whole: none was cut at a block boundary.
    assert c.words == {w: repeats * vocab.count(w) for w in set(vocab)}
    assert peak < size / 5, f"peak {peak:,} bytes for a {size:,}-byte file"
    assert len(c.preview) == 1 and len(c.preview[0]) == counting.PREVIEW_LINE_CHARS


def test_a_long_stretch_without_whitespace_is_cut_at_the_block_end(tmp_path, monkeypatch):
    # The documented approximation: no safe cut point exists, so the stretch is split.
    monkeypatch.setattr(counting, "BLOCK_BYTES", 256)
    monkeypatch.setattr(counting, "MAX_SEGMENT_CHARS", 1000)
    text = "가" * 5000
    c, _ = count(write(tmp_path, text))
    assert c.characters == 5000 and c.chars == {"가": 5000}
    assert c.lines == 1 and len(c.preview) == 1 and set(c.preview[0]) == {"가"}
    assert sum(len(w) * n for w, n in c.words.items()) == 5000
    assert c.n_words > 1


PIPELINE_CHARS = st.sampled_from(
    list("ab가각나먹고는을 \t") + ["\n", "\r\n", "\r", "😀", "e\u0301", "ＡＢ", "Ä", ",", "'s"]
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    parts=st.lists(PIPELINE_CHARS, max_size=400),
    block=st.integers(1, 40),
    pre_tokenizer=st.sampled_from(
        ["whitespace", "whitespace-split", "bert", "gpt2", "bytelevel", "metaspace", "none"]
    ),
    normalizer=st.sampled_from([None, "nfkc,lowercase", "nfd"]),
)
def test_streaming_in_tiny_blocks_equals_counting_lines_in_memory(
    tmp_path, monkeypatch, parts, block, pre_tokenizer, normalizer
):
    # Tiny blocks split multi-byte characters, CRLF pairs and words at every possible place;
    # tiny segment limits force the long-line cutting. Words stay shorter than the limits and
    # whitespace runs short, so every cut has a safe point and the result must be exact.
    monkeypatch.setattr(counting, "BLOCK_BYTES", block)
    monkeypatch.setattr(counting, "MAX_SEGMENT_CHARS", 60)
    monkeypatch.setattr(counting, "LONG_LINE_CHARS", 30)
    text = "".join(parts)
    text = re.sub(
        r"[^\s]{12,}", lambda m: " ".join(m.group()[i : i + 6] for i in range(0, len(m.group()), 6)), text
    )
    text = re.sub(r"[ \t]{4,}", "  ", text)
    algorithm = "bytelevel-bpe" if pre_tokenizer == "bytelevel" else "bpe"
    options = TrainOptions(algorithm, pre_tokenizer=pre_tokenizer, normalizer=normalizer)
    lines = reference_lines(text)
    p = write(tmp_path, text)
    if not text.strip():
        with pytest.raises(CorpusError):
            count(p, options)
        return
    c, _ = count(p, options)
    assert c.words == pre_tokenize_lines(lines, options)
    assert c.lines == len(lines)
    assert c.chars == dict(Counter("".join(lines)))
    assert count_lines(lines, options).words == c.words


def test_count_lines_matches_count_words(tmp_path):
    lines = KOREAN.splitlines()
    a = count_lines(lines, TrainOptions("unigram"))
    b, _ = count(write(tmp_path, KOREAN), TrainOptions("unigram"))
    assert a.words == b.words and a.chars == b.chars and a.lines == b.lines == 2
    assert a.words["▁먹고"] == 2


# --- word-count files --------------------------------------------------------------------


def test_word_counts_round_trip_sorted_by_count(tmp_path):
    counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5, "Ġthe": 7, " leading": 3, "철수는": 10}
    p = tmp_path / "counts.tsv"
    write_word_counts(counts, p)
    assert read_word_counts(p) == counts
    lines = p.read_text(encoding="utf-8").splitlines()
    assert lines[:4] == ["pun\t12", "hug\t10", "철수는\t10", "Ġthe\t7"]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.dictionaries(
        st.text(
            st.characters(blacklist_characters="\n\r", blacklist_categories=["Cs"]), min_size=1, max_size=8
        ),
        st.integers(1, 10**12),
        max_size=30,
    )
)
def test_word_counts_round_trip_any_words(tmp_path, counts):
    counts = {w: n for w, n in counts.items() if w.strip() and "\x00" not in w}  # refused by design
    p = tmp_path / "any.tsv"
    if not counts:
        return
    write_word_counts(counts, p)
    assert read_word_counts(p) == counts


def test_word_count_file_details(tmp_path):
    p = write(tmp_path, codecs.BOM_UTF8 + b"hug\t10\r\n\r\n  \npug\t5\nhug\t2\nthe 7\n", "c.tsv")
    assert read_word_counts(p) == {"hug": 12, "pug": 5, "the": 7}  # BOM, CRLF, blanks, sums, space


@pytest.mark.parametrize(
    "content, line",
    [
        ("hug\t10\npug\n", 2),
        ("hug\t10\npug\tfive\n", 2),
        ("hug\t10\n\npug\t0\n", 3),
        ("hug\t-3\n", 1),
        ("\t4\n", 1),
        ("hug\t1.5\n", 1),
    ],
)
def test_malformed_word_counts_name_the_file_and_line(tmp_path, content, line):
    p = write(tmp_path, content, "bad.tsv")
    with pytest.raises(CorpusError, match=rf"bad\.tsv, line {line}\b"):
        read_word_counts(p)


def test_word_count_files_that_are_not(tmp_path):
    with pytest.raises(CorpusError, match="line 2: not valid UTF-8"):
        read_word_counts(write(tmp_path, b"hug\t1\n\xff\xfe\t2\n", "latin.tsv"))
    with pytest.raises(CorpusError, match="empty"):
        read_word_counts(write(tmp_path, b"\n\n", "blank.tsv"))
    with pytest.raises(CorpusError, match="binary"):
        read_word_counts(write(tmp_path, b"hug\t1\x00\n", "nul.tsv"))
    with pytest.raises(CorpusError, match="no such file"):
        read_word_counts(tmp_path / "missing.tsv")


def test_writing_bad_counts_leaves_the_existing_file_untouched(tmp_path):
    p = tmp_path / "keep.tsv"
    write_word_counts({"hug": 1}, p)
    before = p.read_bytes()
    for bad in ({"hug": 1, "two\nlines": 2}, {"": 3}, {"pug": 0}, {"pug": 2.5}):
        with pytest.raises(CorpusError):
            write_word_counts(bad, p)
    assert p.read_bytes() == before
    assert sorted(x.name for x in tmp_path.iterdir()) == ["keep.tsv"]  # no temp file left behind


def test_word_counts_as_corpus_go_through_the_pipeline(tmp_path):
    p = write(tmp_path, "Hug\t10\npug\t5\nhugs\t5\n", "c.tsv")
    c = load_word_counts_as_corpus(p, TrainOptions("unigram", normalizer="lowercase"))
    assert c.words == {"▁hug": 10, "▁pug": 5, "▁hugs": 5}
    assert c.n_words == 20 and c.lines == 3
    assert c.chars == {"H": 10, "u": 20, "g": 20, "p": 5, "h": 5, "s": 5}
    assert load_word_counts_as_corpus(p).words == {"Hug": 10, "pug": 5, "hugs": 5}


# --- bundled resources -----------------------------------------------------------------------

# The seeds' own tables (../shared/seeds/000, 001, 004).
SEED_COUNTS = {
    "hug-pug.tsv": {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5},
    "cheolsu.tsv": {"철수는": 10, "치킨을": 9, "먹고": 11, "볶음밥을": 5, "있다": 2},
    "low-lower-newest-widest.tsv": {"low": 5, "lower": 2, "newest": 6, "widest": 3},
}
# Seed 003's word_freqs, printed by the XLNet (metaspace) pre-tokenizer on its four sentences.
SEED_003_WORD_FREQS = {
    "▁This": 3,
    "▁is": 2,
    "▁the": 1,
    "▁Hugging": 1,
    "▁Face": 1,
    "▁Course.": 1,
    "▁chapter": 1,
    "▁about": 1,
    "▁tokenization.": 1,
    "▁section": 1,
    "▁shows": 1,
    "▁several": 1,
    "▁tokenizer": 1,
    "▁algorithms.": 1,
    "▁Hopefully,": 1,
    "▁you": 1,
    "▁will": 1,
    "▁be": 1,
    "▁able": 1,
    "▁to": 1,
    "▁understand": 1,
    "▁how": 1,
    "▁they": 1,
    "▁are": 1,
    "▁trained": 1,
    "▁and": 1,
    "▁generate": 1,
    "▁tokens.": 1,
}


def load_examples(resources_dir) -> list[dict]:
    return json.loads((resources_dir / "examples" / "examples.json").read_text(encoding="utf-8"))["examples"]


@pytest.mark.parametrize("name", sorted(SEED_COUNTS))
def test_example_word_counts_hold_the_seed_tables(resources_dir, name):
    assert read_word_counts(resources_dir / "examples" / name) == SEED_COUNTS[name]


def test_example_texts_hold_the_seed_inputs(resources_dir):
    ex = resources_dir / "examples"
    c, _ = count(ex / "aaabdaaabac.txt", TrainOptions("bpe", pre_tokenizer="none", special_tokens=[]))
    assert c.words == {"aaabdaaabac": 1}
    c, _ = count(ex / "unigram-four-sentences.txt", TrainOptions("unigram"))
    assert c.words == SEED_003_WORD_FREQS and c.lines == 4


def test_examples_json_describes_every_example_file(resources_dir):
    examples = load_examples(resources_dir)
    files = {p.name for p in (resources_dir / "examples").iterdir()} - {"examples.json", "README.md"}
    assert {e["file"] for e in examples} == files
    readme = (resources_dir / "examples" / "README.md").read_text(encoding="utf-8")
    for e in examples:
        assert f"`{e['file']}`" in readme
        assert e["kind"] in ("counts", "text") and e["seed"] in {"000", "001", "002", "003", "004"}
        assert e["description"] and e["title"]
        # the options the Examples menu will build must be valid
        options = TrainOptions(
            e["algorithm"],
            vocab_size=e["vocab_size"],
            pre_tokenizer=e["pre_tokenizer"],
            normalizer=e["normalizer"],
            special_tokens=e.get("special_tokens"),
            end_of_word_suffix=e.get("end_of_word_suffix"),
            extra=e.get("extra", {}),
        )
        path = resources_dir / "examples" / e["file"]
        if e["kind"] == "counts":
            assert load_word_counts_as_corpus(path, options).n_words > 0
        else:
            assert count(path, options)[0].n_words > 0


# The first merges each example's description promises, worked by hand from the seeds
# (seed 000: u g 20, u n 16, h ug 15 and aa, ab, aaab; seed 001: 먹 고 11 first; seed 004:
# es, est, lo, low). With </w> joined to the last letter (as `tokenizers` does it), the pair
# s t</w> ties with e s at 9 and the smaller ids (e before s) win, then es t</w>.
EXAMPLE_FIRST_MERGES = {
    ("hug-pug.tsv", None): [("u", "g", 20), ("u", "n", 16), ("h", "ug", 15)],
    ("aaabdaaabac.txt", None): [("a", "a", 4), ("a", "b", 2), ("aa", "ab", 2)],
    ("cheolsu.tsv", None): [("먹", "고", 11)],
    ("low-lower-newest-widest.tsv", None): [("e", "s", 9), ("es", "t", 9), ("l", "o", 7), ("lo", "w", 7)],
    ("low-lower-newest-widest.tsv", "</w>"): [("e", "s", 9), ("es", "t</w>", 9)],
}
# Seed 000's encodings, also promised by the descriptions.
EXAMPLE_ENCODINGS = {
    ("hug-pug.tsv", None): ("pug bug mug", ["p", "ug", "b", "ug", "<unk>", "ug"]),
    ("aaabdaaabac.txt", None): ("aaabdaaabac", ["aaab", "d", "aaab", "a", "c"]),
}


def test_bpe_examples_train_to_the_merges_their_descriptions_promise(resources_dir):
    from core.events import MergeEvent
    from core.training import train_from_counts

    checked = set()
    for e in load_examples(resources_dir):
        key = (e["file"], e.get("end_of_word_suffix"))
        if e["algorithm"] != "bpe":
            continue
        options = TrainOptions(
            "bpe",
            vocab_size=e["vocab_size"],
            pre_tokenizer=e["pre_tokenizer"],
            special_tokens=e.get("special_tokens"),
            end_of_word_suffix=e.get("end_of_word_suffix"),
        )
        path = resources_dir / "examples" / e["file"]
        corpus_counts = (
            load_word_counts_as_corpus(path, options) if e["kind"] == "counts" else count(path, options)[0]
        )
        events: list = []
        tokenizer = drain(train_from_counts(corpus_counts.words, options), events.append)
        if key in EXAMPLE_ENCODINGS:
            text, tokens = EXAMPLE_ENCODINGS[key]
            assert tokenizer.encode(text).tokens == tokens
        merges = [(m.left, m.right, m.count) for m in events if isinstance(m, MergeEvent)]
        expected = EXAMPLE_FIRST_MERGES[key]
        assert merges[: len(expected)] == expected, key
        checked.add(key)
    assert checked == set(EXAMPLE_FIRST_MERGES)


def test_bundled_sample_corpus_is_clean_mixed_korean_and_english(resources_dir):
    p = resources_dir / "sample" / "sample-ko-en.txt"
    assert 80_000 <= p.stat().st_size <= 400_000
    c, events = count(p)
    assert c.encoding == "utf-8" and c.replaced_bytes == 0
    assert not [e for e in events if isinstance(e, Warning_)]
    raw = p.read_bytes()
    assert b"\r" not in raw and not raw.startswith(codecs.BOM_UTF8) and raw.endswith(b"\n")
    lines = raw.decode("utf-8").splitlines()
    assert all(line.strip() == line and line for line in lines)  # one paragraph per line, no blanks
    hangul = [line for line in lines if re.search("[가-힣]", line)]
    latin_only = [line for line in lines if not re.search("[가-힣]", line)]
    assert len(hangul) >= 100 and len(latin_only) >= 100
    # resources/README.md states the size; keep it true
    stated = re.search(
        r"\(([\d,]+) bytes, ([\d,]+) lines\)", (resources_dir / "README.md").read_text(encoding="utf-8")
    )
    assert stated and (int(stated[1].replace(",", "")), int(stated[2].replace(",", ""))) == (
        len(raw),
        len(lines),
    )
    # Korean verb endings and particles for BPE to find
    for piece in ("먹고", "먹었다", "먹는", "은 ", "는 ", "을 ", "를 ", "이 ", "가 "):
        assert piece in raw.decode("utf-8"), piece


def test_icon_is_an_svg(resources_dir):
    svg = (resources_dir / "icons" / "subword-explorer.svg").read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and svg.rstrip().endswith("</svg>")


# --- the real corpora ----------------------------------------------------------------------


@pytest.mark.slow
def test_ko_movie_reviews_matches_the_corpus_readme(corpora_dir):
    c, events = count(corpora_dir / "ko-movie-reviews.txt")
    assert c.lines == 237_461  # exact in the README
    assert round(c.n_words / 1e6, 2) == 1.83  # "1.83 M whitespace words"
    assert round(c.distinct_words / 1e3) == 497  # "497 k distinct words"
    # "3,218 distinct characters" counts the line end "\n" too; we never count line ends.
    assert c.distinct_chars + 1 == 3_218 and "\n" not in c.chars
    assert c.encoding == "utf-8" and c.replaced_bytes == 0
    assert c.bytes_read == (corpora_dir / "ko-movie-reviews.txt").stat().st_size
    text = (corpora_dir / "ko-movie-reviews.txt").read_text(encoding="utf-8")
    assert c.words == dict(Counter(text.split()))
    assert c.n_words == len(text.split()) and c.characters == len(text) - text.count("\n")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["en-botchan.txt", "ja-wagahaiwa.txt"])
def test_bom_and_crlf_corpora_equal_pythons_own_reading(corpora_dir, name):
    path = corpora_dir / name
    with open(path, encoding="utf-8-sig", newline=None) as f:  # universal newlines, BOM stripped
        text = f.read()
    c, _ = count(path)
    assert c.lines == len(text.splitlines())
    assert c.words == dict(Counter(text.split()))
    assert c.chars == dict(Counter(text.replace("\n", "")))
    options = TrainOptions("bpe", pre_tokenizer="whitespace", normalizer="nfkc")
    assert count(path, options)[0].words == pre_tokenize_lines(text.splitlines(), options)


# -- encoding detection: CP949 only when it reads cleanly and UTF-8 does not ----------------


def test_a_utf8_file_with_one_stray_byte_stays_utf8_and_counts_the_byte(tmp_path):
    # the audit's case: CP949 reads "\xc3d" as the rare syllable 홥, which must not appear
    path = tmp_path / "stray.txt"
    path.write_bytes(b"caf\xc3def hello world\n" * 3 + "naïve café\n".encode())
    events = []
    counts = drain(count_words(path), events.append)
    assert counts.encoding == "utf-8" and counts.replaced_bytes == 3
    assert "홥" not in counts.chars and "\ufffd" in counts.chars and "é" in counts.chars
    assert any("invalid byte" in e.message for e in events if isinstance(e, Warning_))


def test_a_cp949_korean_file_is_read_as_cp949(tmp_path):
    text = "철수는 치킨을 먹고 똠양꿍도 먹었다\n영희는 집에 갔다\n"  # 똠 is one of CP949's rare syllables
    path = tmp_path / "ko.txt"
    path.write_bytes(text.encode("cp949"))
    counts = drain(count_words(path))
    assert counts.encoding == "cp949" and counts.replaced_bytes == 0
    assert counts.words == dict(Counter(text.split()))


def test_cp949_with_an_undecodable_byte_is_read_as_utf8_with_the_bytes_counted(tmp_path):
    path = tmp_path / "ko-broken.txt"
    # a lone lead byte at the end: CP949 does not read it cleanly, so the rule says UTF-8
    path.write_bytes(("abc " * 200 + "철수 영희\n").encode("cp949") + b"\xb0")
    counts = drain(count_words(path))
    assert counts.encoding == "utf-8" and counts.replaced_bytes > 0


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("The cat sat. 'Hm,' said he!\n" * 3000, id="few distinct: str.count, no numpy"),
        pytest.param("".join(chr(0xAC00 + i % 300) for i in range(90_000)) + "\n", id="many distinct"),
    ],
)
def test_a_small_file_counts_the_same_characters_on_every_path(tmp_path, text):
    # In a fresh process numpy is not loaded, so a small file of few distinct characters is
    # counted with str.count and never imports numpy; the figures must be Counter's.
    import subprocess
    import sys

    path = tmp_path / "small.txt"
    path.write_text(text, encoding="utf-8")
    code = (
        "import json, sys\n"
        "from core.corpus import count_words\n"
        "from core.events import drain\n"
        f"counts = drain(count_words({str(path)!r}))\n"
        "print(json.dumps([counts.chars, 'numpy' in sys.modules]))\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    chars, numpy_loaded = json.loads(done.stdout)
    assert chars == dict(Counter(text.replace("\n", "")))
    if len(set(text)) < 20:
        assert not numpy_loaded


# -- ASCII text under Whitespace and BERT: split at white space first, cut the distinct tokens ------

# Letters, digits, the underscore, punctuation, white space, control characters and U+001C..U+001F
# (where str.split() cuts and the pre-tokenizers do not), in about the proportions that find bugs.
ASCII_TEXT = st.text(
    alphabet=st.one_of(
        st.sampled_from("abcAB019_"),
        st.sampled_from(".,;'\"!?-()[]{}@#$%&*+/<=>\\^`|~"),
        st.sampled_from(" \t\n\r\x0b\x0c"),
        st.sampled_from("\x00\x07\x1b\x7f\x1c\x1d\x1e\x1f"),
    ),
    max_size=120,
)
SPLIT_FIRST = ["whitespace", "bert"]


@pytest.mark.parametrize("pre_tokenizer", SPLIT_FIRST)
@settings(max_examples=300, deadline=None)
@given(text=ASCII_TEXT)
def test_split_first_counts_as_the_pre_tokenizer_does(pre_tokenizer, text):
    options = TrainOptions("bpe", pre_tokenizer=pre_tokenizer)
    split = build_pre_tokenizer(options).split_words
    expected = list(Counter(split(text)).items())  # the counts, and the order of first occurrences
    if not counting._has_unit_separators(text):
        assert list(counting._count_split_first(text, split).items()) == expected
    # the whole counting takes the fast way or not by itself
    lines = text.split("\n")
    assert list(count_lines(lines, options).words.items()) == list(pre_tokenize_lines(lines, options).items())


@pytest.mark.parametrize("pre_tokenizer", SPLIT_FIRST)
def test_split_first_leaves_unit_separators_and_other_scripts_to_the_regex(pre_tokenizer, tmp_path):
    options = TrainOptions("bpe", pre_tokenizer=pre_tokenizer)
    # (x² and a½b: letters and digits to str.isalnum, not one piece to the Whitespace pattern)
    for text in ("a\x1cb c,d\x1fe\n", "naïve café, naïve x² a½b\n", "hug_pug hug--pug\n"):
        path = tmp_path / "c.txt"
        path.write_text(text, encoding="utf-8")
        expected = pre_tokenize_lines(text.rstrip("\n").split("\n"), options)
        assert list(count(path, options)[0].words.items()) == list(expected.items()), text


def test_only_a_block_with_a_long_line_is_cut_into_segments(tmp_path, monkeypatch):
    monkeypatch.setattr(counting, "LONG_LINE_CHARS", 40)
    cut: list[str] = []
    segments = counting._segments
    monkeypatch.setattr(counting, "_segments", lambda line: cut.append(line) or segments(line))
    options = TrainOptions("bytelevel-bpe")  # a pre-tokenizer that splits line by line
    short = "\n".join(["a short line of words"] * 5) + "\n"  # a block longer than the limit
    assert count(write(tmp_path, short), options)[0].words == pre_tokenize_lines(short.splitlines(), options)
    assert cut == []
    long = short + "a line of words much longer than the forty characters of the limit\n"
    assert count(write(tmp_path, long), options)[0].words == pre_tokenize_lines(long.splitlines(), options)
    assert max(map(len, cut)) > 40  # the long line went through the cutting
