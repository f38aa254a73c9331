"""A cache of validated script data, so that unchanged files skip parsing and validation.

An entry is keyed by the SHA-256 of the file's bytes; the whole cache file is keyed by a
fingerprint of everything else that decides validity: the cache format, the engine and script
schema versions, the ruamel.yaml version, the loader's limits and the complete JSON Schemas
(which include the parameter schemas of plugin effect primitives).  Change any of them and the
old cache file is simply not used.

The cache is an optimisation, never a source of truth: a missing, unreadable, truncated or
tampered file (its payload carries a checksum) is ignored, and failures to write are ignored.
It stores JSON only, so reading it can never execute anything.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import ruamel.yaml

from . import yamlio
from .schema import Schemas
from ..version import ENGINE_VERSION, SCHEMA_VERSION

CACHE_DIR_ENV = "RIFTSCRIPT_CACHE_DIR"
NO_CACHE_ENV = "RIFTSCRIPT_NO_CACHE"
FORMAT = 2
MAX_ENTRIES = 20_000
KEEP_FILES = 4
PREFIX = "validated-"


def default_dir() -> Path:
    """``$RIFTSCRIPT_CACHE_DIR``, else ``$XDG_CACHE_HOME/riftscript``, else ``~/.cache/riftscript``."""
    override = os.environ.get(CACHE_DIR_ENV)
    if override:
        return Path(override).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "riftscript"


def enabled() -> bool:
    """The cache is on unless ``RIFTSCRIPT_NO_CACHE`` is set to a non-empty value other than 0."""
    return os.environ.get(NO_CACHE_ENV, "") in ("", "0")


# The modules whose code decides what a file parses to and whether it is accepted.
LOADER_SOURCES = ("yamlio.py", "schema.py", "schema_fastpath.py", "loader.py", "catalog.py", "validated_cache.py")


def fingerprint(schemas: Schemas) -> str:
    """Hash of everything besides a file's own bytes that decides whether it is valid, including
    the loader's own source, so that a changed rule never meets a stale entry during development."""
    digest = hashlib.sha256()
    parts = [str(FORMAT), ENGINE_VERSION, str(SCHEMA_VERSION), ruamel.yaml.__version__,
             str((yamlio.MAX_FILE_BYTES, yamlio.MAX_DEPTH, yamlio.MAX_NODES, yamlio.MAX_SCALAR))]
    for part in parts:
        digest.update(part.encode() + b"\0")
    here = Path(__file__).parent
    for name in LOADER_SOURCES:
        try:
            digest.update((here / name).read_bytes())
        except OSError:  # no sources (e.g. a zipped install): the versions above still apply
            digest.update(name.encode())
    digest.update(json.dumps(schemas.documents, sort_keys=True).encode())
    return digest.hexdigest()


def content_key(content: bytes, kind: str | None) -> str:
    return hashlib.sha256(content).hexdigest() + ":" + (kind or "auto")


class ValidationCache:
    """Validated documents by content hash, persisted as one JSON file per fingerprint."""

    def __init__(self, directory: Path, fingerprint: str) -> None:
        self.directory = directory
        self.fingerprint = fingerprint
        self.path = directory / f"{PREFIX}{fingerprint[:24]}.json"
        self._entries: dict[str, Any] | None = None
        self._new: dict[str, Any] = {}
        self._used: set[str] = set()
        self.hits = 0
        self.misses = 0

    @classmethod
    def open(cls, schemas: Schemas, directory: Path | None = None) -> ValidationCache | None:
        """The cache for these schemas, or None when switched off by ``RIFTSCRIPT_NO_CACHE``."""
        if not enabled():
            return None
        return cls(directory or default_dir(), fingerprint(schemas))

    def _load(self) -> dict[str, Any]:
        if self._entries is None:
            self._entries = self._read() or {}
        return self._entries

    def _read(self) -> dict[str, Any] | None:
        """The stored entries, or None if the file is absent or not exactly what we wrote."""
        try:
            raw = self.path.read_bytes()
        except OSError:
            return None
        header, _, payload = raw.partition(b"\n")
        try:
            meta = json.loads(header)
            if not isinstance(meta, dict) or meta.get("format") != FORMAT \
                    or meta.get("fingerprint") != self.fingerprint \
                    or meta.get("sha256") != hashlib.sha256(payload).hexdigest():
                return None
            entries = json.loads(payload)
        except (ValueError, UnicodeDecodeError):
            return None
        return entries if isinstance(entries, dict) else None

    def get(self, content: bytes, kind: str | None) -> tuple[str, Any, list[Any]] | None:
        """(kind, data, references) stored for a file with exactly these bytes, read as ``kind``."""
        key = content_key(content, kind)
        entry = self._load().get(key)
        if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[0], str)
                and isinstance(entry[1], dict) and isinstance(entry[2], list)
                and all(isinstance(r, list) and len(r) == 3 and isinstance(r[0], list) for r in entry[2])):
            self.misses += 1
            return None
        self.hits += 1
        self._used.add(key)
        return entry[0], entry[1], [(r[0], r[1], r[2]) for r in entry[2]]

    def put(self, content: bytes, kind: str | None, detected: str, data: Any, refs: list[Any]) -> None:
        """Remember that these bytes are a valid ``detected`` document with this data."""
        key = content_key(content, kind)
        self._new[key] = [detected, data, refs]  # serialised in save(), before the loader returns
        self._used.add(key)

    def save(self) -> None:
        """Merge new entries into the file atomically; give up silently if the disk says no."""
        if not self._new:
            return
        entries = dict(self._read() or {})
        entries.update(self._new)
        if len(entries) > MAX_ENTRIES:
            entries = {k: v for k, v in entries.items() if k in self._used}
        try:
            payload = json.dumps(entries, separators=(",", ":")).encode()
        except (TypeError, ValueError):  # not plain JSON data: the loader never stores such
            return
        header = json.dumps({"format": FORMAT, "fingerprint": self.fingerprint,
                             "sha256": hashlib.sha256(payload).hexdigest()}).encode()
        try:
            self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
            fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=self.directory)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(header + b"\n" + payload)
                os.replace(tmp, self.path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError:
            return
        self._entries = entries
        self._new = {}
        self._prune()

    def _prune(self) -> None:
        """Keep only the few most recent cache files (other fingerprints are from old versions)."""
        try:
            files = sorted(self.directory.glob(f"{PREFIX}*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
            for old in files[KEEP_FILES:]:
                if old != self.path:
                    old.unlink(missing_ok=True)
        except OSError:
            return
