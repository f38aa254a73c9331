"""The rules engine, its modules in dependency order: each imports only modules above it, except
three groups that are genuinely mutually recursive, each saying why in its docstrings
(``effects``/``layers``, ``verbs``/``replacement``/``payment``, ``decisions``/``offer``).

1. ``state`` (plain data: objects, zones, steps), ``events`` (the log and its hash), ``rng`` (chance),
   ``caches`` (the per-state caches and what invalidates each);
2. ``effects`` (the script interpreter) and ``layers`` (characteristics, and the queries on
   continuous effects);
3. ``points`` (points, the Victory Score), ``verbs`` (the game's verbs: draw, kill, deal, ...),
   ``replacement``, ``payment``;
4. ``movement``, ``chain`` (playing cards, paying, the chain and priority), ``triggers``,
   ``scoring``, ``combat``, ``cleanup``;
5. ``turn``, ``setup``, ``loop`` (the run loop: tasks, guarded steps that may ask a player, snapshots
   and replay), ``loop_draw`` (the rule for endless loops), ``language`` (the script language's
   tables as a whole);
6. the player's side: ``hide``, ``concession``, ``decisions`` (listing, checking and performing
   actions) with ``offer`` (the list offered, the action's shape), ``observe`` (what a player sees);
7. ``trigger_index`` (the dispatch index), ``jsonshape``, ``invariants`` and ``saves`` (reading a saved
   game), then ``game`` (the public API and the state), then ``match``, ``builder`` and ``agents``.

Nothing here is imported by ``core/script`` except the language tables of ``effects``, which the
compiler checks names against.
"""
