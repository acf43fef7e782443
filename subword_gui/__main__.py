"""``python -m subword_gui``: the explorer, as the ``subword-explorer`` command launches it."""

import sys

from subword_gui.app import main

sys.exit(main())
