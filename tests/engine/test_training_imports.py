"""A small training job imports only what it uses (each import is part of every short job's cost)."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_plain_bpe_training_does_not_import_the_decoders():
    code = (
        "import sys\n"
        "from core.events import drain\n"
        "from core.options import TrainOptions\n"
        "from core.training import train_from_counts\n"
        "tok = drain(train_from_counts({'hug': 10, 'pug': 5, 'pun': 12}, TrainOptions('bpe', vocab_size=9)))\n"
        "assert tok.decoder is None\n"
        "print('core.decoders' in sys.modules)\n"
        "tok = drain(train_from_counts({'hug': 10, 'pug': 5}, TrainOptions('wordpiece', vocab_size=9)))\n"
        "print(type(tok.decoder).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "WordPiece"], out.stdout + out.stderr
