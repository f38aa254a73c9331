"""The rules engine, its modules in dependency order: each imports only modules above it, except
three groups that are genuinely mutually recursive, each saying why in its docstrings
(``effects``/``layers``, ``verbs``/``replacement``/``payment``, ``decisions``/``offer``).
``tests/test_layout.py`` fails on any other import cycle.

1. plain data and bookkeeping: ``state`` (objects, zones, steps), ``events`` (the log and its hash),
   ``rng`` (chance), ``caches`` (the per-state caches and what invalidates each), ``loop_draw`` (the
   rule for endless loops), ``jsonshape``, ``vocabulary`` (the actions and events that cross the API,
   as types);
2. ``effects`` (the script interpreter) with ``layers`` (characteristics, and the queries on
   continuous effects); the interpreter's words: ``selectors`` (zones, filters, states, locations)
   and ``conditions`` (statistics, amounts, conditions);
3. ``points`` (points, the Victory Score), then ``verbs`` (draw, kill, deal, ...) with
   ``replacement`` and ``payment``;
4. the rules areas: ``movement``, ``scoring``, ``setup``, ``hide``, ``observe``; ``combat``,
   ``concession``, ``targeting`` (what spells and abilities may choose), ``turn``; ``chain`` (the chain,
   priority and resolving) and ``cleanup``; ``playing`` (playing a card), ``triggers``;
   ``activation`` (activating abilities);
5. ``trigger_index`` (the dispatch index), ``language`` (the script language's tables as a whole),
   ``decisions`` (listing, checking and performing player actions) with ``offer`` (the list offered
   and the action's shape), ``loop`` (the run loop: tasks, guarded steps that may ask a player,
   snapshots and replay);
6. ``invariants``, ``saves`` (reading a saved game), ``game`` (the public API and the state), then
   ``match``, ``builder`` and ``agents``.

Nothing here is imported by ``core/script`` except the language tables of ``effects``, which the
compiler checks names against.
"""
