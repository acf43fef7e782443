"""The README is executable: its test command is what CI runs, and its Python snippet works."""

import re
import subprocess
import sys

from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def test_readme_has_two_setup_commands_and_ci_runs_the_test_one():
    commands = [b.strip() for b in _blocks("bash") if b.strip().startswith("bash .ci/setup.sh")]
    assert len(commands) == 2, commands
    launch, test = commands
    assert "subword-explorer" in launch and "pytest" in test
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert test in ci, "'.ci/run' must call the README's test command"


def test_readme_python_snippets_run(tmp_path):
    snippets = _blocks("python")
    assert snippets, "the README should show the library in use"
    for code in snippets:
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip()
