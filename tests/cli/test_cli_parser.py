"""The parser builds only the arguments of the subcommand a command line names (a fixed cost of
every ``subword`` run), and parses that command exactly as the whole parser does."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from cli_helpers import run

import core.cli as cli

ROOT = Path(__file__).resolve().parents[2]

COMMAND_LINES = [
    ["train", "c.txt", "-v", "8000", "-o", "out", "-a", "wordpiece", "-q"],
    ["count", "a.txt", "b.txt", "-o", "counts.tsv", "--normalizer", "nfkc"],
    ["encode", "--model", "out", "some text", "--json"],
    ["convert", "in.json", "out", "--to", "hf-json"],
]


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


@pytest.mark.parametrize("argv", COMMAND_LINES, ids=lambda argv: argv[0])
def test_each_command_line_parses_as_with_the_whole_parser(argv):
    only = cli._named_command(argv)
    assert only == argv[0]
    assert vars(cli.build_parser(only=only).parse_args(argv)) == vars(cli.build_parser().parse_args(argv))
    subparsers = _subparsers(cli.build_parser(only=only))
    assert sorted(subparsers) == sorted(cli.SUBCOMMANDS)  # every name stays (for --help)
    for name, sub in subparsers.items():
        added = [a for a in sub._actions if not isinstance(a, argparse._HelpAction)]
        assert bool(added) == (name == only), name


@pytest.mark.parametrize(
    "argv, named",
    [
        ([], None),
        (["--help"], None),
        (["--version"], None),
        (["-h", "train"], "train"),
        (["nope", "x"], None),
    ],
)
def test_the_named_command_is_the_first_word_that_is_not_an_option(argv, named):
    assert cli._named_command(argv) == named


def test_main_builds_the_named_command_only(monkeypatch, tmp_path, capsys):
    built = []
    whole = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda only=None: built.append(only) or whole(only))
    corpus = tmp_path / "c.txt"
    corpus.write_text("hug pug pun bun hugs\n", encoding="utf-8")
    code, _, err = run(["train", corpus, "-v", 11, "-o", tmp_path / "m", "-q"], capsys)
    assert code == 0, err
    assert built == ["train"]


def test_help_still_lists_every_subcommand(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    for name, (help_text, _, _) in cli.SUBCOMMANDS.items():
        assert name in out and help_text in out
    with pytest.raises(SystemExit):
        cli.main(["encode", "--help"])
    assert "--model" in capsys.readouterr().out


def test_training_without_an_analyser_loads_no_analyser_code(tmp_path):
    """``subword train`` checks whether tokenizer.json holds our own parts (an analyser) without
    importing core.morphemes (and subprocess) when the pipeline has none."""
    import subprocess
    import sys

    corpus = tmp_path / "c.txt"
    corpus.write_text("hug pug pun bun hugs\n", encoding="utf-8")
    script = (
        "import sys\n"
        "from core.cli import main\n"
        f"assert main(['train', {str(corpus)!r}, '-v', '11', '-o', {str(tmp_path / 'm')!r}, '-q']) == 0\n"
        "print(sorted(m for m in ('core.morphemes', 'subprocess') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[-2] == "[]", out.stdout
