"""The script side: reading, checking and compiling what set authors write.

In the order a file travels: ``yamlio`` (safe YAML, bounded), ``schema`` (JSON Schema messages)
with its fast path ``schema_fastpath`` (a compiled yes/no check), ``validated_cache`` (files whose
validation is remembered by content hash), ``loader`` (reading a file), ``compiler`` (a card's script
into ``CardDef``), ``integrity`` (references between files), ``catalog`` (all of it in one run, building
``Catalog``), ``cards`` (the compiled ``CardDef``/``Ability``), ``cardrefs`` and
``decks`` (deck and scenario references); plugins: ``hookspecs`` (the hooks), ``registry`` (their
records), ``discovery`` (finding them), ``folders`` (sets as folders); ``suggest`` gives 'did you mean' hints.
The one import of the rules engine (``core/engine``) is the catalog's: plugin words go into the
script language's tables in ``core/engine/effects.py``, and the compiler checks names against them.
"""
