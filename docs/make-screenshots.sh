#!/usr/bin/env bash
# Regenerate the README's screenshots with the explorer's own --screenshot switch
# (offscreen, on the bundled sample corpus). Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
export QT_QPA_PLATFORM=offscreen
PY=${PYTHON:-.venv/bin/python}
OUT=docs/screenshots
TEXT="토크나이저는 문장을 작은 조각으로 나눕니다. Tokenizers cut text into subword pieces."
mkdir -p "$OUT"
$PY -m subword_gui.app --theme light --screenshot "$OUT/corpus.png" --panel corpus
$PY -m subword_gui.app --theme light --screenshot "$OUT/training-bpe.png" --train bpe:1500 --text "$TEXT" --panel training
$PY -m subword_gui.app --theme light --screenshot "$OUT/slider-cut.png" --train bpe:1500 --cut 1000 --text "$TEXT" --panel training
$PY -m subword_gui.app --theme light --screenshot "$OUT/unigram.png" --train unigram:2000 --text "$TEXT" --panel training
$PY -m subword_gui.app --theme light --screenshot "$OUT/wordpiece-vocabulary.png" --train wordpiece:3000 --text "$TEXT" --panel vocabulary
$PY -m subword_gui.app --theme light --screenshot "$OUT/compare.png" --train bpe:1500 --text "$TEXT" --panel compare
$PY -m subword_gui.app --screenshot "$OUT/dark.png" --theme dark --size 1280x800 --train unigram:2000 \
  --text "$TEXT 안녕 👋🏽" --panel training
# the newer algorithms: SuperBPE's stage-2 mark (the cut scrolls the log there), a PickyBPE removal
# row, and the Segmentation panel's Samples tab (Unigram sampling)
$PY -m subword_gui.app --theme light --size 1280x800 --screenshot "$OUT/superbpe.png" --train superbpe:2000 --cut 1805 \
  --text "영화가 정말 재미있었어요, and by the way 배우들의 연기가 좋았어요" --panel training
$PY -m subword_gui.app --theme light --size 1280x800 --screenshot "$OUT/picky-bpe.png" --train picky-bpe:2000 --cut 937 \
  --text "$TEXT" --panel training
$PY -m subword_gui.app --theme light --size 1280x800 --screenshot "$OUT/samples.png" --train unigram:2000 \
  --text "$TEXT" --panel samples
