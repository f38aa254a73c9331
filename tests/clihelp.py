"""Running the ``riftscript`` command in-process for tests (same code path as the console script)."""
from __future__ import annotations

import io
from contextlib import redirect_stderr
from dataclasses import dataclass

from riftscript.tools import cli


@dataclass
class Result:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.out.splitlines()


def run(*argv: str) -> Result:
    out, err = io.StringIO(), io.StringIO()
    cli.CONTEXT.out = out
    try:
        with redirect_stderr(err):
            code = cli.main(list(argv))
    finally:
        cli.CONTEXT.out = None
    return Result(code, out.getvalue(), err.getvalue())
