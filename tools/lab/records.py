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
import sys
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
        return JsonLines(sys.stdout, owned=False)
    target = Path(path)
    try:
        if target.suffix == ".parquet":
            return Parquet(target)
        return JsonLines(target.open("w", encoding="utf-8"), flush=flush)
    except OSError as exc:
        raise RiftScriptError(f"cannot write records to {path}: {exc.strerror}") from None


SEED_RANGE = (-2 ** 63, 2 ** 63)  # a Parquet record's int64; simulate's seeds are far inside it
TEXT_FIELDS = ("mode", "hash", "engine", "error")
OPTIONAL = ("index", "actions", "names", "error", "engine")
TEXT_LIST_FIELDS = ("decks", "agents", "names")


class RecordError(RiftScriptError):
    """A record that can't be replayed as written: the file, its line (or row) and the field."""


KINDS = {bool: "true/false", int: "a whole number", float: "a number with a fraction", str: "text",
         list: "a list", dict: "an object", type(None): "null"}


def _kind(value: Any) -> str:
    """A JSON value's kind in words, for 'must be ..., not ...'."""
    return KINDS.get(type(value), type(value).__name__)


def check_record(record: Record, where: str) -> None:
    """Refuse a record whose fields replay reads have the wrong kind of value, naming the field:
    ``"seed": "5"`` or ``5.5`` would otherwise be converted and replayed as another game.  A field
    replay does without (``index``, ``actions``, ``names``, ``error``, ``engine``) may be null."""
    def present(name: str) -> bool:
        return name in record and not (name in OPTIONAL and record[name] is None)

    def wrong(name: str, expected: str) -> RecordError:
        value = record[name]
        found = str(value) if type(value) is int else _kind(value)
        return RecordError(f"{where}: field {name!r} must be {expected}, not {found}")

    for name in ("index", "actions"):
        if present(name) and (type(record[name]) is not int or record[name] < 0):
            raise wrong(name, "a whole number from 0")
    if present("seed"):
        seed = record["seed"]
        if type(seed) is not int:
            raise wrong("seed", "a whole number")
        if not SEED_RANGE[0] <= seed < SEED_RANGE[1]:
            raise RecordError(f"{where}: field 'seed' must be a whole number of at most 64 bits, "
                              f"not one of {seed.bit_length()} bits")
    for name in TEXT_FIELDS:
        if present(name) and not isinstance(record[name], str):
            raise wrong(name, "text")
    for name in TEXT_LIST_FIELDS:
        if not present(name):
            continue
        value = record[name]
        if not isinstance(value, list):
            raise wrong(name, "a list of text")
        if not value:
            raise RecordError(f"{where}: field {name!r} must be a list of text, not an empty list")
        odd = next((v for v in value if not isinstance(v, str)), "")
        if not isinstance(odd, str):
            raise RecordError(f"{where}: field {name!r} must be a list of text, not one holding {_kind(odd)}")


def _parse_line(line: str, where: str) -> Record:
    """One JSON-lines record; hostile nesting and huge numbers are refused as such, not crashed on."""
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: not a JSON record: {exc.msg}") from None
    except RecursionError:
        raise RecordError(f"{where}: not a record: JSON nested too deeply to read") from None
    except ValueError:  # json reads every integer, and one of over 4,300 digits can't be converted
        raise RecordError(f"{where}: not a record: a number with more than {sys.get_int_max_str_digits():,} "
                          f"digits") from None
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a record is a JSON object, not {type(record).__name__}")
    return record


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
        for number, row in enumerate(rows, 1):
            check_record(row, f"{path}: row {number}")
            row["plays"] = [dict(seat) for seat in row.get("plays") or []]
            if row.get("error") is None:
                row.pop("error", None)
        return rows
    records: list[Record] = []
    with source.open("rb") as stream:
        for number, raw in enumerate(stream, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(f"{path}:{number}: not UTF-8 text ({exc.reason})") from None
            if not line.strip():
                continue
            record = _parse_line(line, f"{path}:{number}")
            check_record(record, f"{path}:{number}")
            records.append(record)
    return records
