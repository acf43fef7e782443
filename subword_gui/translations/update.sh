#!/usr/bin/env bash
# Refresh the Korean catalogue (and the English one of plural forms) from the code, then compile them:
#   bash subword_gui/translations/update.sh
# lupdate adds new messages (marked unfinished) and keeps existing translations; translate the
# new ones (pyside6-linguist, or by hand in the .ts), run this again, and commit .ts and .qm.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-.venv/bin}
"$BIN/pyside6-lupdate" -no-obsolete -locations none $(git ls-files 'subword_gui/*.py' 'subword_gui/**/*.py' | sort -u) \
  -ts subword_gui/translations/subword_explorer_ko.ts
"$BIN/pyside6-lrelease" -silent subword_gui/translations/subword_explorer_ko.ts \
  -qm subword_gui/translations/subword_explorer_ko.qm
# English needs a catalogue only for its plurals: the messages tr() counts with n ("{0} merge(s)"
# becomes "1 merge" / "2 merges"); -pluralonly keeps just those
"$BIN/pyside6-lupdate" -no-obsolete -pluralonly -locations none $(git ls-files 'subword_gui/*.py' 'subword_gui/**/*.py' | sort -u) \
  -ts subword_gui/translations/subword_explorer_en.ts
"$BIN/pyside6-lrelease" -silent subword_gui/translations/subword_explorer_en.ts \
  -qm subword_gui/translations/subword_explorer_en.qm
