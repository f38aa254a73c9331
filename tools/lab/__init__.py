"""The simulation lab: many seeded games on every core (or a Ray cluster), with progress, per-game
records that replay to the same log hash, tournaments with confidence intervals, and the soak.

- ``engine``: what one game is (``GameSpec``), plans that number the games of a run, and playing a
  game to a compact record;
- ``backends``: running a plan in process, on a process pool or on Ray, results identical for any
  of them and any number of workers;
- ``progress``, ``records``, ``stats``: feedback, record files (JSON lines, Parquet), intervals;
- ``simulate``, ``tournament``, ``replay``: the commands.
"""
