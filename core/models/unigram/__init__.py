"""The Unigram language model (Kudo, 2018), one module per role:

- ``model.py``        the Unigram model: the Viterbi cut, n-best and sampling;
- ``lattice.py``      the lattice of one pre-token (best path, k best, samples, marginals);
- ``kernels.py``      its compiled encoders (Viterbi over many pieces in one call);
- ``trainer.py``      training by EM and pruning: a generator of round events that returns a ``Unigram``;
- ``reference.py``    training the textbook way (the Hugging Face course's recipe), in plain Python;
- ``train_kernels.py`` the trainer's compiled lattice sweeps (signatures in ``signatures.py``);
- ``sentencepiece.py`` SentencePiece's unigram (its float32 Viterbi, user-defined and byte pieces).

Nothing is imported here: a job pays only for the modules it uses.
"""
