"""Byte-pair encoding (Sennrich et al., 2016), one module per role:

- ``model.py``        the BPE model: apply merges by rank inside one pre-token;
- ``kernels.py``      its compiled encoders (many pieces in one call);
- ``trainer.py``      training: a generator of merge events that returns a ``BPE``;
- ``reference.py``    the merge loop in plain Python, readable top to bottom (small jobs run it);
- ``merge_loop.py``   the compiled merge loop's state and chunks (``train_kernels.py``, with the
  slots and signatures both sides share in ``signatures.py``; ``flat_arrays.py`` for its arrays);
- ``subword_nmt.py``  the subword-nmt variant (``@@`` separators, glossaries, vocabulary filter);
- ``sentencepiece.py`` SentencePiece's BPE (pairs ranked by their merged piece's score, byte fallback);
- ``tiktoken.py``     tiktoken's BPE (a rank file: pairs ranked by their joined bytes' rank).

Nothing is imported here: a job pays only for the modules it uses.
"""
