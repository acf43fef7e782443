"""Long work off the GUI thread.

- ``jobs.py``    the explorer's long jobs as engine-style generators (count, train, cut): Qt-free, so
  a worker process can import and run them.
- ``workers.py`` runs a job in a worker process, coalesces its events on a timer and delivers them
  to the GUI thread; Cancel and Step.
- ``analysers.py`` holds a morpheme-aware model back until its analyser, loading in a process of
  its own, answers (so the window never waits on it).
"""
