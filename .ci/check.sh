#!/usr/bin/env bash
# The checks that keep the codebase honest without a reviewer; .ci/run and pre-commit both run this.
#   ruff check / ruff format --check   lint and formatting (pyproject [tool.ruff])
#   mypy                               types of the library layer, core/ (pyproject [tool.mypy])
#   lint-imports                       import contracts: core never imports the GUI, Qt, pyqtgraph
#                                      or the peer libraries (pyproject [tool.importlinter])
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
status=0
run() { echo "check: $*" >&2; "$@" || status=1; }
run "$BIN/ruff" check --quiet .
run "$BIN/ruff" format --check --quiet .
run "$BIN/mypy"
run "$BIN/lint-imports" --no-cache
exit $status
