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
