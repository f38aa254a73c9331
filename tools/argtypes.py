"""Argument types for the command line: bad input is refused by the parser, before any work.

A refused value makes argparse print the command's usage line and the reason, and exit with
status 2 - the user's mistake, never an "internal error".  Each function here is an argparse
``type=``: it returns the value as the command uses it or raises ArgumentTypeError.
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Callable


def whole(least: int) -> Callable[[str], int]:
    """A whole number of at least ``least`` (a count of games: 1; a depth: 0)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{value} is less than {least}")
        return value
    parse.__name__ = "whole number"  # argparse names the type in some messages
    return parse


def fraction(text: str) -> float:
    """A number from 0 to 1 (a similarity threshold)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1")
    return value


def output_file(text: str) -> str:
    """A file to write: its folder must exist and be writable, and it must not be a folder itself.
    Checked when the command line is read, so no work is lost to a typo in the path."""
    path = Path(text)
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file")
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"can't write {text}: there is no folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise argparse.ArgumentTypeError(f"can't write {text}: permission denied")
    return text


def lower_choice(text: str) -> str:
    """Choices compared without regard to case (``--type Unit``)."""
    return text.lower()
