"""The rules engine, its modules in dependency order (each imports only those above it, except
the pairs named in their docstrings as genuinely mutually recursive).

1. ``state`` (plain data), ``events``, ``rng`` (chance);
2. ``layers`` (characteristics and the queries on continuous effects) and ``effects`` (the
   script interpreter);
3. ``verbs`` (the game's verbs: draw, kill, move, ...), ``replacement``, ``payment``;
4. ``triggers``, ``chain``, ``combat``, ``movement``, ``scoring``, ``cleanup``;
5. ``turn``, ``setup``, ``loop_draw`` (the loop rule), the player actions (``decisions``), ``offer``,
   ``observe``;
6. ``game``, ``match``, ``builder``, ``saves``, ``invariants``, ``agents``.
"""
