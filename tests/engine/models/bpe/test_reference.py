"""BPE training's merge loops agree: the plain Python one (core/models/bpe/reference.py) and the
compiled one (core/models/bpe/train_kernels.py), on numpy arrays and from the plain shared library
small jobs take, give the same events, merges, tie flags, vocabulary and stop reason on any input.

Both are checked against ``tokenizers`` in tests/parity (the ``bpe_kernels_build`` fixture runs
each path); here they are checked against each other on random small corpora built to tie:
two- and three-letter alphabets, runs of one letter ("aaaa"), one-character words, tokens that
two different merges build, with and without affixes, alphabet limits and minimum frequencies.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import CorpusError
from core.events import MergeEvent, Progress, TrainingStopped
from core.models.bpe import trainer as bpe
from core.models.bpe.trainer import train_bpe
from core.options import TrainOptions


def _plain_library_built() -> bool:
    from core.jit import load_plain_library

    return load_plain_library("core.models.bpe.train_kernels") is not None


def _run(word_counts, options, python: bool | str, monkeypatch):
    """Every event and the model, on the path asked for: the Python loop (True), the compiled
    one on numpy arrays (False), or the compiled one from the plain library ("plain")."""
    monkeypatch.setattr(bpe, "PYTHON_LOOP_MAX_SYMBOLS", 1 << 62 if python else -1)
    monkeypatch.setattr(bpe, "PLAIN_LIBRARY", python == "plain")
    monkeypatch.setattr(bpe, "PLAIN_LIBRARY_MAX_SYMBOLS", 1 << 62)
    events = []
    gen = train_bpe(dict(word_counts), options)
    while True:
        try:
            events.append(next(gen))
        except StopIteration as stop:
            return events, stop.value


def _same_training(word_counts, options, monkeypatch):
    py_events, py_model = _run(word_counts, options, True, monkeypatch)
    kernel_events, kernel_model = _run(word_counts, options, False, monkeypatch)
    assert py_events == kernel_events  # merges, counts, tie flags, sizes, progress, stop reason
    assert py_model.get_vocab() == kernel_model.get_vocab()
    assert py_model.ranked_merges() == kernel_model.ranked_merges()
    if _plain_library_built():  # the same kernels on array.array buffers, through ctypes
        plain_events, plain_model = _run(word_counts, options, "plain", monkeypatch)
        assert plain_events == kernel_events
        assert plain_model.ranked_merges() == kernel_model.ranked_merges()
    return py_events


words = st.text(alphabet=st.sampled_from("aab가"), min_size=1, max_size=9)
corpora = st.dictionaries(words, st.integers(1, 7), min_size=1, max_size=12)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    counts=corpora,
    vocab_size=st.integers(1, 40),
    min_frequency=st.sampled_from([0, 0, 2, 5]),
    affixes=st.sampled_from([(None, None), ("##", None), (None, "</w>"), ("##", "</w>")]),
    limit=st.sampled_from([None, None, 1, 2]),
    specials=st.sampled_from([[], ["<unk>"], ["a"], ["<unk>", "b"]]),
)
def test_python_and_compiled_loops_give_the_same_training(
    counts, vocab_size, min_frequency, affixes, limit, specials, monkeypatch
):
    options = TrainOptions(
        "bpe",
        vocab_size=vocab_size,
        min_frequency=min_frequency,
        special_tokens=specials,
        continuing_subword_prefix=affixes[0],
        end_of_word_suffix=affixes[1],
        limit_alphabet=limit,
    )
    _same_training(counts, options, monkeypatch)


@pytest.mark.parametrize(
    "counts",
    [
        pytest.param({"a": 7}, id="one character"),
        pytest.param({"aaaa": 3, "aaaaaaa": 2, "aa": 1, "a": 5}, id="repeated symbols"),
        pytest.param({"ab": 1, "cd": 1, "ef": 1, "ba": 1, "dc": 1, "fe": 1}, id="all pairs tie"),
        pytest.param({"abc": 2, "bcd": 2, "ab": 1, "cd": 1}, id="a token built two ways"),
        pytest.param({"ab" * 300 + "c": 2, "abc" * 200: 1, "ca" * 50: 3}, id="long words"),
        pytest.param({"": 3, "ab": 2}, id="an empty word"),
    ],
)
@pytest.mark.parametrize("algorithm", ["bpe", "bytelevel-bpe"])
def test_awkward_inputs_give_the_same_training(counts, algorithm, monkeypatch):
    options = TrainOptions(algorithm, vocab_size=300, special_tokens=["<unk>"])
    events = _same_training(counts, options, monkeypatch)
    assert isinstance(events[-1], TrainingStopped)


def test_ties_are_flagged_and_progress_comes_first(monkeypatch):
    # every pair occurs once: each merge but the last is a tie
    events = _same_training({"ab": 1, "cd": 1, "ef": 1}, TrainOptions("bpe", vocab_size=20), monkeypatch)
    merges = [e for e in events if isinstance(e, MergeEvent)]
    assert [e.tie for e in merges] == [True, True, False]
    assert isinstance(events[0], Progress) and events.index(merges[0]) > 0


def test_no_words_is_refused_on_every_path(monkeypatch):
    for python in (True, False, "plain"):
        with pytest.raises(CorpusError):
            _run({}, TrainOptions("bpe", vocab_size=10), python, monkeypatch)


def test_small_jobs_train_without_numpy():
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from core.events import drain\n"
        "from core.models.bpe.trainer import train_bpe\n"
        "from core.options import TrainOptions\n"
        "drain(train_bpe({'hug': 10, 'pug': 5, 'pun': 12}, TrainOptions('bpe', vocab_size=12)))\n"
        "print('numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("algorithm", ["bpe", "bytelevel-bpe", "wordpiece"])
def test_a_small_training_job_on_ascii_text_loads_neither_numpy_nor_regex(tmp_path, algorithm):
    # What `subword train` does on a short English text: count (the pre-tokenizers' `re` path
    # for ASCII), train, wrap into a tokenizer. Importing numpy or regex would cost it more CPU
    # than its merges (~0.1 s and ~12 ms), and dataclasses (with inspect) ~11 ms (core.records).
    import subprocess
    import sys

    corpus = tmp_path / "corpus.txt"
    corpus.write_text("Hug the pug, hug the pun!\nbun hugs 42 times.\n" * 30, encoding="utf-8")
    code = (
        "import sys\n"
        "from core.corpus import count_words\n"
        "from core.events import drain\n"
        "from core.options import TrainOptions\n"
        "from core.training import train_from_counts\n"
        f"options = TrainOptions({algorithm!r}, vocab_size=300)\n"
        f"words = drain(count_words({str(corpus)!r}, options, characters=False)).words\n"
        "drain(train_from_counts(words, options))\n"
        "print(sorted(m for m in ('numpy', 'regex', 'dataclasses', 'inspect') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


many_words = st.dictionaries(
    st.text(alphabet=st.sampled_from("abcdefghij"), min_size=2, max_size=12),
    st.integers(1, 3),
    min_size=60,
    max_size=250,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(counts=many_words, vocab_size=st.integers(30, 400))
def test_many_tied_pairs_give_the_same_training(counts, vocab_size, monkeypatch):
    # Hundreds of pairs tied at counts 1-3 and many stale heap entries: the tie rule and the
    # lazy re-pushes decide most merges here.
    _same_training(counts, TrainOptions("bpe", vocab_size=vocab_size), monkeypatch)


def test_ids_through_the_surrogate_range_give_the_same_training(monkeypatch):
    # 60,000 distinct characters: the alphabet's ids 55,296-57,343 are lone surrogates as code
    # points, which the Python loop keeps in its id strings and the plain library receives through
    # UTF-32 buffers; the words around them occur most, so the merges are theirs.
    chars = [chr(0x20000 + i) for i in range(60_000)]
    counts = {
        chars[2 * i] + chars[2 * i + 1] + chars[(2 * i + 2) % 60_000]: 5 if 55_000 <= 2 * i <= 58_000 else 1
        for i in range(30_000)
    }
    events = _same_training(counts, TrainOptions("bpe", vocab_size=60_300), monkeypatch)
    merged = [e for e in events if isinstance(e, MergeEvent)]
    assert merged[-1].vocab_size == 60_300
    ids = [
        1 + ord(e.left) - 0x20000 for e in merged
    ]  # (the alphabet's ids follow "<unk>" in code-point order)
    assert sum(0xD800 <= i < 0xE000 for i in ids) > 100


def _form_by_place(word: str, i: int, prefix: str | None, suffix: str | None) -> int:
    """A character's form by its place in its word: the spec ``forms_needed`` and ``word_ids`` follow."""
    return (1 if prefix and i > 0 else 0) | (2 if suffix and i == len(word) - 1 else 0)


def _token(ch: str, form: int, prefix: str | None, suffix: str | None) -> str:
    return (prefix if form & 1 else "") + ch + (suffix if form & 2 else "")


@settings(max_examples=300, deadline=None)
@given(
    words=st.lists(st.text(alphabet=st.sampled_from("ab가😀#\ud800"), max_size=5), max_size=8),
    affixes=st.sampled_from([(None, None), ("##", None), (None, "</w>"), ("##", "</w>")]),
    unknown=st.sets(st.sampled_from("ab가😀#\ud800"), max_size=2),
    without_token=st.sets(st.integers(0, 30), max_size=3),
)
def test_words_become_ids_by_each_characters_place(words, affixes, unknown, without_token):
    """``forms_needed`` and ``word_ids`` (the one-affix cases take two translates, the others a
    loop) against the spec character by character: empty and one-character words, characters
    outside the alphabet, forms missing from the vocabulary, lone surrogates and emoji."""
    from core.models.bpe.reference import forms_needed, word_ids

    prefix, suffix = affixes
    forms = {(ch, _form_by_place(w, i, prefix, suffix)) for w in words for i, ch in enumerate(w)}
    assert forms_needed(words, prefix, suffix) == forms
    tokens = sorted({ch for ch, _ in forms} | {_token(ch, f, prefix, suffix) for ch, f in forms})
    token_to_id = {t: i for i, t in enumerate(t for k, t in enumerate(tokens) if k not in without_token)}
    known = {ch for ch, _ in forms if ch not in unknown}
    expected = [
        "".join(
            chr(token_to_id[t])
            for i, ch in enumerate(w)
            if ch in known
            and (t := _token(ch, _form_by_place(w, i, prefix, suffix), prefix, suffix)) in token_to_id
        )
        for w in words
    ]
    assert word_ids(words, token_to_id, known, prefix, suffix) == expected
