"""The validation cache: a warm load skips parsing and validation, gives the same catalog, and a
bad cache file is ignored."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from riftscript.core.script.validated_cache import CACHE_DIR_ENV, NO_CACHE_ENV, PREFIX, ValidationCache, default_dir
from riftscript.core.script.catalog import load_catalog
from riftscript.core.script.hookspecs import hookimpl
from riftscript.core.script.registry import EffectType, Plugins, SetSpec
from riftscript.core.script.discovery import load_plugins
from riftscript.core.script.schema import Schemas

CARD = "schema_version: 1\ncode: CCH-{n:03d}\nname: Cached {n}\ntype: unit\nmight: {n}\nkeywords: [Tank]\n"


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_DIR_ENV, str(folder))
    monkeypatch.delenv(NO_CACHE_ENV, raising=False)
    return folder


@pytest.fixture()
def cards(tmp_path: Path) -> Path:
    folder = tmp_path / "cards"
    folder.mkdir()
    for n in range(1, 6):
        (folder / f"{n}.yaml").write_text(CARD.format(n=n), encoding="utf-8")
    return folder


def load(cards: Path, store: ValidationCache | None = None) -> tuple[object, ValidationCache]:
    schemas = Schemas()
    cache = store or ValidationCache.open(schemas)
    assert cache is not None
    catalog = load_catalog(extra_cards=[cards], cache=cache)
    return catalog, cache


def test_second_load_hits_the_cache_and_gives_the_same_catalog(cache_dir: Path, cards: Path) -> None:
    cold, first = load(cards)
    assert first.hits == 0 and first.misses > 300
    warm, second = load(cards)
    assert second.misses == 0 and second.hits == first.misses
    assert warm.cards == cold.cards  # type: ignore[attr-defined]
    assert [p.name for p in cache_dir.iterdir()] == [first.path.name]


def test_a_changed_file_is_read_again(cache_dir: Path, cards: Path) -> None:
    load(cards)
    (cards / "3.yaml").write_text(CARD.format(n=3).replace("might: 3", "might: 7"), encoding="utf-8")
    catalog, cache = load(cards)
    assert cache.misses == 1
    assert catalog.cards["CCH-003"].might == 7  # type: ignore[attr-defined]


def test_invalid_files_are_never_cached(cache_dir: Path, cards: Path) -> None:
    (cards / "bad.yaml").write_text(CARD.format(n=9).replace("might: 9", "might: nine"), encoding="utf-8")
    for _ in range(2):
        catalog = load_catalog(extra_cards=[cards], strict=False)
        assert [str(p) for p in catalog.problems] == [f"{cards / 'bad.yaml'}:5:8: 'nine' is not of type 'integer' (might)"]


def test_unknown_references_are_reported_on_warm_loads_too(cache_dir: Path, cards: Path) -> None:
    (cards / "1.yaml").write_text(CARD.format(n=1).replace("[Tank]", "[Tnak]"), encoding="utf-8")
    expected = [f"{cards / '1.yaml'}:6:12: unknown keyword 'Tnak'; did you mean 'Tank'? (keywords[0])"]
    for _ in range(2):
        assert [str(p) for p in load_catalog(extra_cards=[cards], strict=False).problems] == expected


@pytest.mark.parametrize("damage", ["garbage", "truncate", "flip", "wrong-shape", "empty"])
def test_a_damaged_cache_file_is_ignored(cache_dir: Path, cards: Path, damage: str) -> None:
    cold, first = load(cards)
    raw = first.path.read_bytes()
    header, _, payload = raw.partition(b"\n")
    damaged = {
        "garbage": b"\x00\xffnot json at all",
        "truncate": raw[: len(raw) // 2],
        "flip": header + b"\n" + payload.replace(b'"might":3', b'"might":4'),
        "wrong-shape": header + b"\n" + b"[1, 2, 3]",
        "empty": b"",
    }[damage]
    first.path.write_bytes(damaged)
    warm, second = load(cards)
    assert second.hits == 0
    assert warm.cards == cold.cards  # type: ignore[attr-defined]
    third = load(cards)[1]
    assert third.misses == 0  # the damaged file was replaced by a good one


def test_a_tampered_entry_that_passes_the_checksum_is_still_shape_checked(cache_dir: Path, cards: Path) -> None:
    cold, first = load(cards)
    entries = first._read()
    assert entries is not None
    key = next(iter(entries))
    entries[key] = ["card", "not a mapping", []]
    first._new, first._entries = entries, None
    first.path.unlink()
    first.save()
    warm, second = load(cards)
    assert second.misses == 1
    assert warm.cards == cold.cards  # type: ignore[attr-defined]


def test_plugin_effect_schemas_are_part_of_the_fingerprint(cache_dir: Path) -> None:
    class Bloom:
        @hookimpl
        def riftscript_effect_types(self) -> list[EffectType]:
            return [EffectType("bloom", run=lambda ctx, eff: None, schema={"properties": {"amount": {"type": "integer"}}})]

    def schemas(plugins: Plugins) -> Schemas:  # installed sets may bring effect schemas and words too
        return Schemas([(e.name, e.schema) for e in plugins.effect_types() if e.schema is not None],
                       [(w.kind, w.name, w.schema) for w in plugins.words()])

    with_bloom = load_plugins(extra=[Bloom()])
    plain = ValidationCache.open(schemas(load_plugins()))
    extended = ValidationCache.open(schemas(with_bloom))
    assert plain is not None and extended is not None and plain.path != extended.path
    load_catalog(with_bloom)
    assert extended.path.exists()


def test_switched_off_by_the_environment(cache_dir: Path, cards: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NO_CACHE_ENV, "1")
    assert ValidationCache.open(Schemas()) is None
    load_catalog(extra_cards=[cards])
    assert not cache_dir.exists()


def test_an_unwritable_cache_folder_does_not_stop_loading(tmp_path: Path, cards: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(CACHE_DIR_ENV, str(blocker / "cache"))
    assert "CCH-001" in load_catalog(extra_cards=[cards]).cards


def test_default_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(CACHE_DIR_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_dir() == tmp_path / "riftscript"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_dir() == Path.home() / ".cache" / "riftscript"


def test_old_cache_files_are_pruned(cache_dir: Path, cards: Path) -> None:
    cache_dir.mkdir()
    for i in range(6):
        (cache_dir / f"{PREFIX}old{i}.json").write_text("{}")
    (cache_dir / "unrelated.txt").write_text("kept")
    load(cards)
    names = sorted(p.name for p in cache_dir.iterdir())
    assert len([n for n in names if n.startswith(PREFIX)]) == 4 and "unrelated.txt" in names


class TokenSet:
    def __init__(self, root: Path) -> None:
        self.root = root

    @hookimpl
    def riftscript_sets(self) -> list[SetSpec]:
        return [SetSpec(manifest=self.root / "set.yaml", cards=self.root / "cards")]


def test_installed_set_from_a_plugin_is_cached(cache_dir: Path, tmp_path: Path, cards: Path) -> None:
    root = tmp_path / "set"
    root.mkdir()
    (root / "set.yaml").write_text("schema_version: 1\ncode: CCH\nname: Cache\nversion: 1.0.0\n"
                                   "requires: {engine: '>=0.1', schema_version: 1}\n")
    cards.rename(root / "cards")
    plugins = load_plugins(extra=[TokenSet(root)])
    first = load_catalog(plugins)
    second = load_catalog(plugins)
    assert first.sets["CCH"].cards == second.sets["CCH"].cards == [f"CCH-{n:03d}" for n in range(1, 6)]
