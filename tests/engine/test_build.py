"""``python -m core.build``: the warm-up first, then each kernel build that is missing, and a
failed build says what runs instead (the engine still works on numba's JIT)."""

import subprocess
import sys

import core.build as build


def _fake_builds(monkeypatch, built_already: bool, fails: bool) -> list[str]:
    calls: list[str] = []
    monkeypatch.setattr(build, "load_compiled_encoders", lambda: calls.append("warm-up"))
    monkeypatch.setattr(build, "AHEAD_OF_TIME", {"probe.kernels": "probe.signatures:EXPORTS"})
    monkeypatch.setattr(build, "PLAIN_LIBRARIES", ("probe.kernels",))

    def load(module):
        calls.append(f"load {module}")
        return object() if built_already else None

    def make(kind):
        def build_one(module):
            calls.append(f"build {kind} {module}")
            if fails:
                raise OSError("no C compiler")
            return f"/somewhere/{kind}.so"

        return build_one

    monkeypatch.setattr(build, "load_ahead_of_time", load)
    monkeypatch.setattr(build, "load_plain_library", load)
    monkeypatch.setattr(build, "build_ahead_of_time", make("extension"))
    monkeypatch.setattr(build, "build_plain_library", make("library"))
    return calls


def test_the_build_warms_up_first_then_builds_what_is_missing(monkeypatch, capsys):
    calls = _fake_builds(monkeypatch, built_already=False, fails=False)
    assert build.main() == 0
    assert calls == [
        "warm-up",  # subtle: before any build, or numba's cache of the encoders is not kept
        "load probe.kernels",
        "build extension probe.kernels",
        "load probe.kernels",
        "build library probe.kernels",
    ]
    assert "build: built /somewhere/extension.so" in capsys.readouterr().err


def test_what_is_built_already_is_not_built_again(monkeypatch, capsys):
    calls = _fake_builds(monkeypatch, built_already=True, fails=False)
    assert build.main() == 0
    assert not [c for c in calls if c.startswith("build")]
    assert "probe.kernels: the plain library is built already" in capsys.readouterr().err


def test_a_failed_build_says_what_runs_instead_and_exits_1(monkeypatch, capsys):
    _fake_builds(monkeypatch, built_already=False, fails=True)
    assert build.main() == 1
    err = capsys.readouterr().err
    assert "could not build the ahead-of-time extension (no C compiler); it will use numba's JIT" in err
    assert "small jobs will merge in Python" in err


def test_the_compile_mechanism_imports_no_other_part_of_the_engine():
    code = "import sys, core.jit; print(sorted(m for m in sys.modules if m.startswith('core')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["['core',", "'core.jit']"], out.stdout
