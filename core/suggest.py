"""'Did you mean' hints for near-miss names."""
from __future__ import annotations

import difflib
from typing import Iterable


def did_you_mean(word: str, options: Iterable[str]) -> str:
    matches = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"; did you mean {matches[0]!r}?" if matches else ""
