"""core.jit compiles a kernel that computes what the same Python computes, wherever it is defined;
its ahead-of-time build is used when current and spares a training numba altogether."""

import numpy as np
import pytest

from core.jit import AHEAD_OF_TIME, JIT_ONLY_VARIABLE, ahead_of_time_name, kernel, load_ahead_of_time


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


# -- ahead of time ------------------------------------------------------------------------------


def _fresh_python(code: str, **env: str) -> str:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    environ = {k: v for k, v in os.environ.items() if k != JIT_ONLY_VARIABLE} | env
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env=environ, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


TRAIN_AND_SAY_IF_NUMBA_LOADED = """
import sys
from core.events import drain
from core.models.bpe import trainer as bpe
from core.models.bpe.trainer import train_bpe
from core.options import TrainOptions
bpe.PYTHON_LOOP_MAX_SYMBOLS = -1  # the compiled merge loop on numpy arrays, small as the job is
bpe.PLAIN_LIBRARY = False
model = drain(train_bpe({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, TrainOptions("bpe", vocab_size=11)))
print(model.merges == [("u", "g"), ("u", "n"), ("h", "ug")], "numba" in sys.modules)
"""


def test_a_training_on_the_ahead_of_time_build_never_loads_numba():
    if load_ahead_of_time("core.models.bpe.train_kernels") is None:
        pytest.skip("BPE kernels not compiled ahead of time here (python -m core.build builds them)")
    assert _fresh_python(TRAIN_AND_SAY_IF_NUMBA_LOADED) == "True False"
    # and the switch that tests use to reach the JIT build really reaches it
    assert _fresh_python(TRAIN_AND_SAY_IF_NUMBA_LOADED, **{JIT_ONLY_VARIABLE: "1"}) == "True True"


def test_the_ahead_of_time_name_follows_the_kernels_source(tmp_path, monkeypatch):
    import sys

    package = tmp_path / "aot_probe"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "kernels.py").write_text("def f(x):\n    return x\n")
    (package / "signatures.py").write_text("EXPORTS = {'f': 'int64(int64)'}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(AHEAD_OF_TIME, "aot_probe.kernels", "aot_probe.signatures:EXPORTS")
    before = ahead_of_time_name("aot_probe.kernels")
    assert before.startswith("aot_probe._kernels_aot_")
    (package / "kernels.py").write_text("def f(x):\n    return x + 1\n")
    assert ahead_of_time_name("aot_probe.kernels") != before  # an edited kernel is a new name: rebuilt
    assert load_ahead_of_time("aot_probe.kernels") is None  # not built: callers use the JIT
    sys.modules.pop("aot_probe", None)


def _probe_package(root, name: str, kernel_source: str, signature: str) -> str:
    """A package ``name`` under ``root`` with one kernel (``running_maximum``) and its signature;
    the code that registers it for ``core.jit``'s builds in a fresh process."""
    (root / name).mkdir()
    (root / name / "__init__.py").write_text("")
    (root / name / "kernels.py").write_text("from core.jit import kernel\n\n\n@kernel\n" + kernel_source)
    (root / name / "signatures.py").write_text(f"EXPORTS = {{'running_maximum': {signature!r}}}\n")
    return (
        f"import sys; sys.path.insert(0, {str(root)!r}); import core.jit as jit; "
        f"jit.AHEAD_OF_TIME['{name}.kernels'] = '{name}.signatures:EXPORTS'; "
    )


@pytest.mark.slow
def test_a_module_built_ahead_of_time_computes_what_its_jit_computes(tmp_path):
    # Built in a fresh process (the build sets numba's cache folder and compiler flags), in tmp_path.
    register = _probe_package(
        tmp_path,
        "aot_probe",
        "def running_maximum(values, out):\n"
        "    best = values[0]\n    for i in range(values.shape[0]):\n"
        "        if values[i] > best:\n            best = values[i]\n        out[i] = best\n",
        "void(int64[::1], int64[::1])",
    )
    built = _fresh_python(register + "print(jit.build_ahead_of_time('aot_probe.kernels').name)")
    assert built.startswith("_kernels_aot_") and (tmp_path / "aot_probe" / built).is_file()
    use = register + (
        "import numpy as np; m = jit.load_ahead_of_time('aot_probe.kernels'); "
        "v = np.random.default_rng(7).integers(-1000, 1000, size=500); out = np.empty_like(v); "
        "m.running_maximum(v, out); print(bool((out == np.maximum.accumulate(v)).all()), 'numba' in sys.modules)"
    )
    assert _fresh_python(use) == "True False"


# -- the plain shared library (no numpy) --------------------------------------------------------


@pytest.mark.slow
def test_a_plain_library_computes_what_its_jit_computes_without_numpy(tmp_path):
    # Built in a fresh process as above; used in another that never imports numpy: array.array
    # buffers and spans of them in, a pair of ints and written arrays out.
    register = _probe_package(
        tmp_path,
        "lib_probe",
        "def running_maximum(values, flags, out, start):\n"
        "    best = values[0]\n    changes = 0\n    for i in range(values.shape[0]):\n"
        "        if values[i] > best:\n            best = values[i]\n            changes += 1\n"
        "        out[i] = best + start\n        flags[i] = values[i] == best\n"
        "    return changes, out.shape[0]\n",
        "UniTuple(int64, 2)(int32[::1], bool_[::1], int64[::1], int64)",
    )
    built = _fresh_python(register + "print(jit.build_plain_library('lib_probe.kernels').name)")
    assert built.startswith("_kernels_lib_") and (tmp_path / "lib_probe" / built).is_file()
    use = register + (
        "import random; from array import array; k = jit.load_plain_library('lib_probe.kernels'); "
        "rng = random.Random(7); v = array('i', [rng.randrange(-1000, 1000) for _ in range(500)]); "
        "flags = array('b', bytes(500)); out = array('q', [-7]) * 503; "
        "got = k.running_maximum(v, flags, jit.Span(out, 2, 500), 5); "
        "best = [max(v[: i + 1]) for i in range(500)]; "
        "changes = sum(1 for i in range(1, 500) if best[i] > best[i - 1]); "
        "print(got == (changes, 500), out[2:502].tolist() == [b + 5 for b in best], "
        "out[:2].tolist() + out[502:].tolist() == [-7, -7, -7], flags.tolist() == [int(x == b) for x, b in zip(v, best)], "
        "'numpy' in sys.modules, 'numba' in sys.modules)"
    )
    assert _fresh_python(use) == "True True True True False False"


def test_a_span_past_its_array_is_refused_before_any_kernel_sees_it():
    from array import array

    from core.jit import Span

    values = array("q", range(10))
    address, _ = values.buffer_info()
    assert Span(values, 3, 7).address_and_length() == (address + 3 * 8, 7)
    for start, length in ((3, 8), (-1, 2), (11, 0)):
        with pytest.raises(IndexError):
            Span(values, start, length).address_and_length()


def test_a_small_training_takes_the_plain_library_where_it_is_built(monkeypatch):
    from core.jit import load_plain_library
    from core.models.bpe import reference
    from core.models.bpe import trainer as bpe

    if load_plain_library("core.models.bpe.train_kernels") is None:
        pytest.skip("the BPE kernels' plain library is not built here (python -m core.build builds it)")

    def no_python_loop(*args, **kwargs):
        raise AssertionError("a small job merged in plain Python although the plain library is built")

    monkeypatch.setattr(reference, "merge", no_python_loop)
    from core.events import drain
    from core.options import TrainOptions

    model = drain(
        bpe.train_bpe(
            {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, TrainOptions("bpe", vocab_size=11)
        )
    )
    assert model.merges == [("u", "g"), ("u", "n"), ("h", "ug")]
    monkeypatch.setattr(bpe, "PLAIN_LIBRARY", False)  # and the switch tests use reaches the Python loop
    with pytest.raises(AssertionError, match="plain Python"):
        drain(bpe.train_bpe({"hug": 10}, TrainOptions("bpe", vocab_size=11)))


def _twice(x):
    return 2 * x


def _sum_of_twice(values):
    s = 0
    for v in values:
        s += _twice_inlined(v)
    return s


def test_an_inlined_helper_computes_inside_the_kernel_that_calls_it():
    from core.jit import inlined

    global _twice_inlined
    _twice_inlined = inlined(_twice)
    assert kernel(_sum_of_twice)(np.arange(4)) == 12


def test_a_kernel_is_compiled_again_when_a_kernel_it_calls_changes(tmp_path):
    # numba's cache knows only the file that defines a kernel: one calling a kernel of another
    # file (the SentencePiece Viterbi calling core.normalizer_kernels) ran the old callee after
    # that file changed
    package = tmp_path / "edited"
    package.mkdir()
    (package / "__init__.py").write_text("")
    callee = "from core.jit import kernel\n\n\n@kernel\ndef value():\n    return {}\n"
    (package / "callee.py").write_text(callee.format(1))
    (package / "caller.py").write_text(
        "from core.jit import kernel\nfrom edited.callee import value\n\n\n@kernel\ndef twice():\n    return 2 * value()\n"
    )
    code = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); from edited.caller import twice; print(twice())"
    )
    cache = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    assert _fresh_python(code, **cache) == "2"
    assert list((tmp_path / "cache").rglob("*caller*.nbi"))  # the caller is cached...
    (package / "callee.py").write_text(callee.format(5))
    assert _fresh_python(code, **cache) == "10"  # ...and compiled again once its callee changed
