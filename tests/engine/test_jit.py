"""core.jit compiles a kernel that computes what the same Python computes, wherever it is defined."""

import numpy as np

from core.jit import kernel


def _running_maximum(values, out):
    best = values[0]
    for i in range(values.shape[0]):
        if values[i] > best:
            best = values[i]
        out[i] = best


def test_a_kernel_computes_what_its_python_computes():
    values = np.random.default_rng(7).integers(-1000, 1000, size=500)
    expected = np.empty_like(values)
    _running_maximum(values, expected)
    got = np.empty_like(values)
    kernel(_running_maximum)(values, got)
    assert np.array_equal(got, expected)
    assert np.array_equal(expected, np.maximum.accumulate(values))


def test_a_kernel_defined_where_no_cache_can_live_still_compiles():
    namespace: dict = {}
    exec("def double(x):\n    return 2 * x\n", namespace)
    assert kernel(namespace["double"])(21) == 42
