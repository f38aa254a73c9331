"""Per-game records on disk: JSON lines (always available), or Parquet through pyarrow (the ``data``
extra) when the file name ends in ``.parquet``, so pandas, polars or DuckDB read a run directly.

A record (one game, or one match in a best-of mode) holds: ``index`` (the game's number in its run),
``seed``, ``mode``, ``decks`` (as given: installed names or deck files, in seat order), ``names``,
``agents``, ``result``, ``winners`` (seats), ``first`` (the seat that went first), ``turns``,
``games`` and ``wins``/``draws`` (per match), ``actions``, ``events``, ``hash`` (the log hash),
``plays`` (per seat: card code -> the seat's own turn numbers on which it was played), ``error``
(a crash, broken invariant or stuck game; else absent/null) and ``engine`` (the engine version).
``riftscript replay`` plays a record again from its seed, decks and agents to the same log hash.
"""
from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any, Protocol, TextIO

from riftscript.core.errors import RiftScriptError
from riftscript.tools.lab.engine import Record

ROW_GROUP = 10_000  # records per Parquet row group (memory held before a write)


class Writer(Protocol):
    def write(self, record: Record) -> None: ...

    def close(self) -> None: ...


class JsonLines:
    def __init__(self, stream: TextIO, owned: bool = True, flush: bool = False) -> None:
        self.stream, self.owned, self.flush = stream, owned, flush

    def write(self, record: Record) -> None:
        self.stream.write(json.dumps(record, separators=(",", ":")) + "\n")
        if self.flush:
            self.stream.flush()

    def close(self) -> None:
        if self.owned:
            self.stream.close()
        else:
            self.stream.flush()


def _arrow() -> Any:
    try:
        pyarrow = importlib.import_module("pyarrow")
        importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise RiftScriptError("Parquet records need pyarrow: pip install 'riftscript[data]' "
                              "(or write JSON lines: a file name not ending in .parquet)") from None
    return pyarrow


def parquet_schema() -> Any:
    pa = _arrow()
    seats = pa.list_(pa.int16())
    names = pa.list_(pa.string())
    return pa.schema([
        ("index", pa.int64()), ("seed", pa.int64()), ("mode", pa.string()), ("decks", names), ("names", names),
        ("agents", names), ("result", pa.string()), ("winners", seats), ("first", pa.int16()),
        ("turns", pa.int32()), ("games", pa.int16()), ("wins", seats), ("draws", pa.int16()),
        ("actions", pa.int32()), ("events", pa.int32()), ("hash", pa.string()),
        ("plays", pa.list_(pa.map_(pa.string(), pa.list_(pa.int16())))), ("error", pa.string()),
        ("engine", pa.string())])


class Parquet:
    """Rows buffered and written a row group at a time; ``close`` writes the rest and the footer."""

    def __init__(self, path: Path) -> None:
        pa = _arrow()
        self.pa = pa
        self.schema = parquet_schema()
        self.rows: list[Record] = []
        self.writer = pa.parquet.ParquetWriter(str(path), self.schema)

    def write(self, record: Record) -> None:
        self.rows.append({**record, "plays": [list(seat.items()) for seat in record["plays"]]})
        if len(self.rows) >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if self.rows:
            self.writer.write_table(self.pa.Table.from_pylist(self.rows, schema=self.schema))
            self.rows = []

    def close(self) -> None:
        self._flush()
        self.writer.close()


def open_writer(path: str, flush: bool = False) -> Writer:
    """A writer for ``path``: Parquet for ``*.parquet``, else JSON lines (with ``flush``, each line
    reaches the file at once); ``-`` is standard output."""
    if path == "-":
        import sys

        return JsonLines(sys.stdout, owned=False)
    target = Path(path)
    try:
        if target.suffix == ".parquet":
            return Parquet(target)
        return JsonLines(target.open("w", encoding="utf-8"), flush=flush)
    except OSError as exc:
        raise RiftScriptError(f"cannot write records to {path}: {exc.strerror}") from None


def read_records(path: str) -> list[Record]:
    """Every record of a JSON-lines or Parquet file, with what is wrong and where if it can't be read."""
    source = Path(path)
    if not source.is_file():
        raise RiftScriptError(f"no such records file: {path}")
    if source.suffix == ".parquet":
        pa = _arrow()
        try:
            rows: list[Record] = pa.parquet.read_table(str(source)).to_pylist()
        except (pa.ArrowException, OSError) as exc:
            raise RiftScriptError(f"{path}: not a readable Parquet file: {exc}") from None
        for row in rows:
            row["plays"] = [dict(seat) for seat in row.get("plays") or []]
            if row.get("error") is None:
                row.pop("error", None)
        return rows
    records: list[Record] = []
    with source.open(encoding="utf-8") as stream:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RiftScriptError(f"{path}:{number}: not a JSON record: {exc.msg}") from None
            if not isinstance(record, dict):
                raise RiftScriptError(f"{path}:{number}: a record is a JSON object, not {type(record).__name__}")
            records.append(record)
    return records
