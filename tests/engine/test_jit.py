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
from core.trainers import bpe
from core.trainers.bpe import train_bpe
from core.training import TrainOptions
bpe.PYTHON_LOOP_MAX_SYMBOLS = -1  # the compiled merge loop, small as the job is
model = drain(train_bpe({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, TrainOptions("bpe", vocab_size=11)))
print(model.merges == [("u", "g"), ("u", "n"), ("h", "ug")], "numba" in sys.modules)
"""


def test_a_training_on_the_ahead_of_time_build_never_loads_numba():
    if load_ahead_of_time("core.trainers.bpe_kernels") is None:
        pytest.skip("BPE kernels not compiled ahead of time here (python -m core.jit builds them)")
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


@pytest.mark.slow
def test_a_module_built_ahead_of_time_computes_what_its_jit_computes(tmp_path):
    # Built in a fresh process (the build sets numba's cache folder and compiler flags), in tmp_path.
    (tmp_path / "aot_probe").mkdir()
    (tmp_path / "aot_probe" / "__init__.py").write_text("")
    (tmp_path / "aot_probe" / "kernels.py").write_text(
        "from core.jit import kernel\n\n\n@kernel\ndef running_maximum(values, out):\n"
        "    best = values[0]\n    for i in range(values.shape[0]):\n"
        "        if values[i] > best:\n            best = values[i]\n        out[i] = best\n"
    )
    (tmp_path / "aot_probe" / "signatures.py").write_text(
        "EXPORTS = {'running_maximum': 'void(int64[::1], int64[::1])'}\n"
    )
    register = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import core.jit as jit; "
        "jit.AHEAD_OF_TIME['aot_probe.kernels'] = 'aot_probe.signatures:EXPORTS'; "
    )
    built = _fresh_python(register + "print(jit.build_ahead_of_time('aot_probe.kernels').name)")
    assert built.startswith("_kernels_aot_") and (tmp_path / "aot_probe" / built).is_file()
    use = register + (
        "import numpy as np; m = jit.load_ahead_of_time('aot_probe.kernels'); "
        "v = np.random.default_rng(7).integers(-1000, 1000, size=500); out = np.empty_like(v); "
        "m.running_maximum(v, out); print(bool((out == np.maximum.accumulate(v)).all()), 'numba' in sys.modules)"
    )
    assert _fresh_python(use) == "True False"
