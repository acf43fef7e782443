"""WordPiece, one module per role:

- ``model.py``    the WordPiece model: greedy longest match with a continuing-subword prefix;
- ``kernels.py``  its compiled encoder (many pieces in one call);
- ``trainer.py``  training: a generator of merge events that returns a ``WordPiece``.

Nothing is imported here: a job pays only for the modules it uses.
"""
