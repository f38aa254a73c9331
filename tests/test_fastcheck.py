"""The fast validation paths give the same verdicts as plain jsonschema on the shipped schemas.

Loading uses a compiled yes/no gate (core/script/schema_fastpath.py) and validators whose if/then chains and
$refs are rewritten for speed (core/script/schema.py).  A document the gate wrongly accepted would
slip through unchecked, so both are compared with an unmodified Draft 2020-12 validator on
every installed card and keyword and on thousands of seeded mutations of them.
"""
from __future__ import annotations

import copy
import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from riftscript.core.script import yamlio
from riftscript.core.script.catalog import load_catalog
from riftscript.core.script.schema_fastpath import compile_check, equal
from riftscript.core.script.schema import Schemas

ROOT = Path(__file__).resolve().parent.parent


def _bench_module() -> Any:
    spec = importlib.util.spec_from_file_location("bench_load", ROOT / "benchmarks" / "bench_load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def schemas() -> Schemas:
    """The schemas with the installed plugins' effect fragments (a set's own primitives)."""
    loaded = load_catalog(strict=False).schemas
    assert loaded is not None
    return loaded


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Any]]:
    catalog = load_catalog(strict=False)
    docs: list[tuple[str, Any]] = [("card", card.raw) for card in catalog.cards.values()]
    docs += [("keyword", yamlio.load_file(Path(kw.source))) for kw in catalog.keywords.values()]
    cards = _bench_module().generate(tmp_path_factory.mktemp("gen"), 150, seed=3)
    docs += [("card", yamlio.load_file(p)) for p in sorted(cards.iterdir())]
    return docs


def reference_valid(schemas: Schemas, kind: str, doc: Any) -> bool:
    return next(iter(schemas.reference[kind].iter_errors(doc)), None) is None


def test_every_installed_document_is_valid_on_all_paths(schemas: Schemas, documents: list[tuple[str, Any]]) -> None:
    assert len(documents) > 150
    for kind, doc in documents:
        gate = schemas.gates[kind]
        assert gate is not None and gate(doc), doc.get("code") or doc.get("keyword")
        assert schemas.validators[kind].is_valid(doc)
        assert reference_valid(schemas, kind, doc)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, path + (i,))
    return out


REPLACEMENTS: list[Any] = ["x", "unit", "self", "deal_damage", "", 0, 1, -1, 100, 1000, 2.0, 2.5, True, None,
                           [], ["fury"], {}, {"type": "draw"}, {"pick": "target"}, "draw"]


def mutate(doc: Any, rng: random.Random) -> Any:
    """One small random change: replace a value, drop a key, add a key, or rename a key."""
    doc = copy.deepcopy(doc)
    path = rng.choice(_paths(doc)[1:])
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    action = rng.randrange(4)
    if action == 0 or not isinstance(parent, dict):
        parent[last] = copy.deepcopy(rng.choice(REPLACEMENTS))
    elif action == 1:
        del parent[last]
    elif action == 2:
        parent[rng.choice(["extra", "type", "amount", "target", "kind", "keyword", "when"])] = \
            copy.deepcopy(rng.choice(REPLACEMENTS))
    else:
        parent[str(last) + "s"] = parent.pop(last)
    return doc


def test_mutated_documents_get_the_same_verdict(schemas: Schemas, documents: list[tuple[str, Any]]) -> None:
    rng = random.Random(2026)
    verdicts = {True: 0, False: 0}
    for _ in range(1500):
        kind, doc = rng.choice(documents)
        mutant = mutate(doc, rng)
        expected = reference_valid(schemas, kind, mutant)
        gate = schemas.gates[kind]
        assert gate is not None
        assert gate(mutant) == expected, (kind, mutant)
        assert schemas.validators[kind].is_valid(mutant) == expected, (kind, mutant)
        assert (schemas.problems(kind, mutant) == []) == expected, (kind, mutant)
        verdicts[expected] += 1
    assert min(verdicts.values()) > 100  # both outcomes well exercised


def test_json_equality_distinguishes_booleans_from_numbers() -> None:
    assert equal(1, 1.0) and not equal(True, 1) and not equal(0, False)
    assert equal({"a": [1, True]}, {"a": [1.0, True]}) and not equal({"a": [1]}, {"a": [True]})


def test_unsupported_keywords_fall_back_to_jsonschema() -> None:
    assert compile_check({"type": "array", "uniqueItems": True}) is None
    check = compile_check({"type": "integer", "minimum": 1})
    assert check is not None and check(2) and check(2.0) and not check(True) and not check(0)
