"""What the command-line tests share: run ``subword`` in-process, and check an error is one line."""

from __future__ import annotations

from core.cli import main


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code, err, *words):
    assert code != 0
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.startswith("subword: error:")]
    assert len(lines) == 1, err
    for w in words:
        assert w in lines[0], lines[0]
