"""The docked panels a user works in, one module each, and the item models behind their tables.

- ``corpus.py``       Corpus: count a text or word-count file, show what it holds.
- ``training.py``     Training: options, Train / Step / Cancel, the live merge log and plots.
- ``slider.py``       Vocab size: cut the trained model to its first k tokens, live.
- ``segmentation.py`` Segmentation: type text, see its coloured tokens and the why view.
- ``vocabulary.py``   Vocabulary: every token, searchable, and how it was built.
- ``compare.py``      Compare: one text under several tokenizers, with statistics and plots.
- ``runs.py``         Runs: the session's training runs, to show again, compare, rename, save or discard.
- ``item_models.py``  Qt item models: merge log, Unigram rounds, word and character tables.

Panels read `subword_gui.state.AppState` and listen to its signals; they never own the engine data.
"""
