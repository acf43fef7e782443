"""The README is executable: its test command is what CI runs, its Python and command-line snippets
work, and every relative link in it and in the documents it points to resolves."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
SUBWORD = ".venv/bin/subword "


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def _command_lines(block: str) -> list[str]:
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def _cli_blocks() -> list[str]:
    """The README's command-line examples: bash blocks made only of `.venv/bin/subword …` lines."""
    return [b for b in _blocks("bash") if all(line.startswith(SUBWORD) for line in _command_lines(b))]


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


def test_readme_shows_the_command_line():
    assert _cli_blocks(), "the README should show `subword` in use"


@pytest.mark.parametrize("block", _cli_blocks(), ids=lambda b: " ".join(_command_lines(b)[0].split()[-2:]))
def test_readme_command_line_snippets_run(block, tmp_path):
    """Each line as a user types it in a checkout (`resources/` beside it), in a folder of its own."""
    (tmp_path / "resources").symlink_to(ROOT / "resources", target_is_directory=True)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    for line in _command_lines(block):
        assert not re.search(r"[|<>;&$`]", line), f"a README command is run without a shell: {line}"
        argv = [sys.executable, "-m", "core.cli", *shlex.split(line[len(SUBWORD) :])]
        out = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, f"{line}\n{out.stderr}"
    assert out.stdout.strip(), f"the last command printed nothing: {line}"


# Links: the README, docs/ and benchmarks/ point at each other by relative paths and anchors.
LINKED_DOCUMENTS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "benchmarks").glob("*.md")),
]
_LINK = re.compile(r"\]\(([^()\s]+)(?:\s+\"[^\"]*\")?\)")
_FENCE = re.compile(r"^```.*?^```", flags=re.S | re.M)


def _without_code(text: str) -> str:
    text = _FENCE.sub("", text)
    return re.sub(r"`[^`\n]*`", "", text)


def heading_anchors(text: str) -> set[str]:
    """GitHub's anchors for a Markdown file's headings: `## Two commands` -> `two-commands`.

    >>> sorted(heading_anchors("# A `b` c\\n## Don't panic!\\n## Don't panic!"))
    ['a-b-c', 'dont-panic', 'dont-panic-1']
    """
    anchors: set[str] = set()
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*\s*$", _FENCE.sub("", text), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        anchor, n = slug, 0
        while anchor in anchors:
            n += 1
            anchor = f"{slug}-{n}"
        anchors.add(anchor)
    return anchors


def broken_links(document: Path) -> list[str]:
    """Relative links in `document` whose file, or whose `#anchor` in that file, does not exist."""
    broken = []
    for target in _LINK.findall(_without_code(document.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        if not file.exists():
            broken.append(f"{target} (no such file)")
        elif (
            anchor
            and file.suffix == ".md"
            and anchor not in heading_anchors(file.read_text(encoding="utf-8"))
        ):
            broken.append(f"{target} (no such heading)")
    return broken


@pytest.mark.parametrize("document", LINKED_DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(document):
    assert broken_links(document) == []


def test_heading_anchors_are_githubs():
    text = "# A `b` c\n## Don't panic!\n```\n# not a heading\n```\n## Don't panic!\n### 한국어 and Japanese"
    assert heading_anchors(text) == {"a-b-c", "dont-panic", "dont-panic-1", "한국어-and-japanese"}


def test_a_broken_link_is_found(tmp_path):
    (tmp_path / "there.md").write_text("# Here at last\n", encoding="utf-8")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "[ok](there.md) [ok](there.md#here-at-last) [web](https://example.org/x) `[code](gone.md)`\n"
        "[gone](gone.md) [lost](there.md#elsewhere) ![img](pic.png) [self](#nowhere)\n",
        encoding="utf-8",
    )
    assert broken_links(doc) == [
        "gone.md (no such file)",
        "there.md#elsewhere (no such heading)",
        "pic.png (no such file)",
        "#nowhere (no such heading)",
    ]
