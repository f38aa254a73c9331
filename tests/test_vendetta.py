"""Vendetta (VEN) is an outside package: it installs with pip next to RiftScript and adds its cards,
keywords, effect primitives and words of the script language through the plugin hooks alone.

Every scenario of the package runs here, with the package installed (``pip install --target`` into a
temporary folder, no build isolation, nothing downloaded), one test per scenario.  The last test builds
both wheels and installs them into a fresh virtual environment, where the package's scenarios run again
and ``riftscript sets`` lists VEN: what a user who installs the two wheels gets.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any, Iterator

import pytest

from riftscript.core.script.catalog import Catalog, load_catalog
from riftscript.core.script.discovery import load_plugins

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "sets" / "vendetta"
PACKAGE = "riftscript_vendetta"
SCENARIOS = sorted((SOURCE / PACKAGE / "scenarios").glob("*.yaml"))


def _pip(*args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args], check=True,
                   capture_output=True, text=True, env=env)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("src") / "vendetta"
    shutil.copytree(SOURCE, source, ignore=shutil.ignore_patterns("__pycache__", "build", "*.egg-info"))
    target = tmp_path_factory.mktemp("site")
    _pip("install", "--quiet", "--no-build-isolation", "--no-deps", "--no-index", "--target", str(target), str(source))
    return target


@pytest.fixture(scope="module")
def catalog(site: Path) -> Iterator[Catalog]:
    sys.path.insert(0, str(site))
    try:
        yield load_catalog(load_plugins(), cache=False)
    finally:
        sys.path.remove(str(site))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_found_through_its_entry_points(catalog: Catalog) -> None:
    assert catalog.plugins is not None
    found = {p.name: (p.group, p.error) for p in catalog.plugins.loaded if p.name.startswith("vendetta")}
    assert found == {"vendetta": ("riftscript.sets", None), "vendetta-effects": ("riftscript.effects", None)}
    assert catalog.sets["VEN"].name == "Vendetta"
    assert {"empower", "disempower", "burn"} <= set(catalog.effect_types)
    assert {(w.kind, w.name) for w in catalog.words} >= {("state", "empowered"), ("event", "empowered")}
    assert {"empower", "empowered"} <= set(catalog.keywords)


def _pending() -> int:
    from riftscript.core.script.yamlio import load_file

    return sum(1 for path in SCENARIOS for scenario in load_file(path).get("scenarios", []) if scenario.get("pending"))


PENDING = _pending()


def _scenarios() -> list[Any]:
    """One parameter per scenario of the package (read as plain YAML: the words it uses load later)."""
    from riftscript.core.script.yamlio import load_file

    return [pytest.param(path, index, id=f"{path.stem}: {scenario.get('name', index)}")
            for path in SCENARIOS for index, scenario in enumerate(load_file(path).get("scenarios", []))]


@pytest.mark.parametrize("path, index", _scenarios())
def test_scenario(catalog: Catalog, path: Path, index: int) -> None:
    from riftscript.tools.scenario import load_file, run_scenario

    assert catalog.schemas is not None
    scenario = load_file(path, catalog.schemas)[index]
    if scenario.pending:
        pytest.skip(f"pending: {scenario.pending}")  # not run yet, as in every scenario folder
    run_scenario(catalog, scenario)


RUN_SCENARIOS = """
import sys
from pathlib import Path
import riftscript_vendetta
from riftscript.core.script.catalog import load_catalog
from riftscript.tools.scenario import load_file, run_scenario
catalog = load_catalog(cache=False)
folder = Path(riftscript_vendetta.__file__).parent / "scenarios"
count = 0
for path in sorted(folder.glob("*.yaml")):
    for scenario in load_file(path, catalog.schemas):
        if not scenario.pending:
            run_scenario(catalog, scenario)
            count += 1
print("scenarios passed:", count)
"""


def test_wheels_in_a_fresh_virtual_environment(tmp_path: Path) -> None:
    """The riftscript wheel and the Vendetta wheel, and nothing else of this tree, in a new venv."""
    wheels = tmp_path / "wheels"
    skip = shutil.ignore_patterns("__pycache__", "build", "*.egg-info", ".git", "tests", "benchmarks", "docs",
                                  "examples", "vendetta")
    for project in (ROOT, SOURCE):
        copy = tmp_path / "src" / project.name
        shutil.copytree(project, copy, ignore=skip if project == ROOT else shutil.ignore_patterns("__pycache__"))
        _pip("wheel", "--quiet", "--no-build-isolation", "--no-deps", "--wheel-dir", str(wheels), str(copy))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RIFTSCRIPT_SETS")}
    env["RIFTSCRIPT_CACHE_DIR"] = str(tmp_path / "cache")
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    *map(str, sorted(wheels.glob("*.whl")))], check=True, capture_output=True, text=True, env=env)
    sets = subprocess.run([str(env_dir / "bin" / "riftscript"), "sets"], check=True, capture_output=True,
                          text=True, env=env, cwd=tmp_path).stdout
    assert any(line.split()[:2] == ["VEN", "Vendetta"] for line in sets.splitlines())
    ran = subprocess.run([str(python), "-c", RUN_SCENARIOS], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert ran.stdout.strip() == f"scenarios passed: {len(_scenarios()) - PENDING}"
