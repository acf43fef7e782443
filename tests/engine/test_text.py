"""core.text: the text helpers every stage and model shares."""

from __future__ import annotations

import numpy as np

from core.text import codepoints


def test_codepoints_is_one_int32_array_of_every_text_with_int64_bounds():
    # the one reading of text the kernels share (BPE's read int64 copies, Unigram's int32 views
    # that failed on a lone surrogate); a trainer's words may hold one
    codes, bounds = codepoints(["ab", "", "한", "\U0001f600", "\ud800"])
    assert codes.dtype == np.int32 and bounds.dtype == np.int64
    assert codes.tolist() == [97, 98, 0xD55C, 0x1F600, 0xD800]
    assert bounds.tolist() == [0, 2, 2, 3, 4, 5]
    codes, bounds = codepoints([])
    assert codes.tolist() == [] and bounds.tolist() == [0]


def test_check_texts_refuses_a_batch_as_check_text_refuses_its_first_bad_text():
    # one pass over the whole batch (joined and encoded) instead of a call each; a batch that
    # fails is checked text by text, so the error is the one check_text gives
    import pytest

    from core.errors import InputError
    from core.text import check_text, check_texts

    good = ["철수", "", "👋🏽 a"]
    assert check_texts(good) is good
    for bad in (["a", "b\ud800c"], ["a", b"b"], ["\udfff"], [3]):
        with pytest.raises(InputError) as raised:
            check_texts(bad)
        first = next(t for t in bad if not isinstance(t, str) or any(0xD800 <= ord(c) < 0xE000 for c in t))
        with pytest.raises(InputError) as expected:
            check_text(first)
        assert str(raised.value) == str(expected.value)
