"""Vendetta (VEN) for RiftScript, an installable set plugin.

``sets`` hands the set folder beside this file (``set.yaml``, ``cards/``, ``keywords/``, ``decks/``,
``scenarios/``) to RiftScript; ``effects`` adds what YAML alone can't say: the Empowered status (effect
primitives ``empower`` and ``disempower``, and the words that read it), ``burn`` and ``predict``.
"""
