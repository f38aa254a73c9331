"""The event log: every change of state is an event; the log's hash identifies a game.

Events are plain dicts ``{"n": seq, "t": type, ...}`` so they serialize as they are (not a
``TypedDict``, unlike actions: their vocabulary is open to plugins, core/engine/vocabulary.py says why).  The hash
is a running SHA-256 over the canonical JSON of each event, so two games with the same seed and
the same decisions have the same hash.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

Event = dict[str, Any]


def canonical(event: Event) -> bytes:
    """An event's canonical JSON (sorted keys, no spaces): what the log hash is computed over."""
    return json.dumps(event, sort_keys=True, separators=(",", ":")).encode()


def log_hash(log: list[Event]) -> str:
    """SHA-256 over the canonical events, one per line: equal logs, equal hashes."""
    digest = hashlib.sha256()
    for event in log:
        digest.update(canonical(event))
        digest.update(b"\n")
    return digest.hexdigest()
