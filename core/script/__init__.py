"""The script side: reading, checking and compiling what set authors write.

In the order a file travels: ``yamlio`` (safe YAML, bounded), ``schema`` (JSON Schema messages)
with its fast path ``schema_fastpath`` (a compiled yes/no check), ``validated_cache`` (files whose
validation is remembered by content hash), ``catalog`` (the loader, the compiler and the integrity
checks, building ``Catalog``), ``cards`` (the compiled ``CardDef``/``Ability``), ``cardrefs`` and
``decks`` (deck and scenario references); plugins: ``hookspecs`` (the hooks), ``registry`` (their
records and discovery), ``folders`` (sets as folders); ``suggest`` gives 'did you mean' hints.
Nothing here imports the rules engine (``core/engine``) at load time.
"""
