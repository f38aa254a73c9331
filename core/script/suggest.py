"""'Did you mean' hints for near-miss names."""
from __future__ import annotations

import difflib
from typing import Iterable


def closest(word: str, options: Iterable[str]) -> str | None:
    """The option most like ``word``, if any is close enough to be a plausible typo."""
    matches = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(word: str, options: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest option, or an empty string."""
    match = closest(word, options)
    return f"; did you mean {match!r}?" if match else ""
