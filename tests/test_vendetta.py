"""Vendetta (VEN) is an outside package: it installs with pip next to RiftScript and adds its cards,
keywords, effect primitives and words of the script language through the plugin hooks alone.

Both wheels are built once for the module (no build isolation, nothing downloaded).  Every scenario of
the package runs here, with the Vendetta wheel installed (``pip install --target`` into a temporary
folder), one test per scenario.  The last test installs both wheels into a fresh virtual environment,
where the package's scenarios run again and ``riftscript sets`` lists VEN: what a user who installs the
two wheels gets.  That environment is made and its scenarios run in a background thread started with the
module's first test, while the scenarios run here (it waits for nothing of theirs), and only when the
wheel test is selected.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from concurrent.futures import Future, ThreadPoolExecutor
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
    """pip, building riftscript's wheel in pure Python (compiling it with mypyc, setup.py, takes minutes)."""
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args], check=True,
                   capture_output=True, text=True, env={**(env or os.environ), "RIFTSCRIPT_COMPILE": "0"})


WHEEL_TEST = "test_wheels_in_a_fresh_virtual_environment"


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The riftscript wheel and the Vendetta wheel, built from copies of this tree by one pip call."""
    folder = tmp_path_factory.mktemp("wheels")
    skip = shutil.ignore_patterns("__pycache__", "build", "*.egg-info", ".git", "tests", "benchmarks", "docs",
                                  "examples", "vendetta")
    copies = []
    for project in (ROOT, SOURCE):
        copy = tmp_path_factory.mktemp("src") / project.name
        shutil.copytree(project, copy, ignore=skip if project == ROOT else shutil.ignore_patterns(
            "__pycache__", "build", "*.egg-info"))
        copies.append(str(copy))
    _pip("wheel", "--quiet", "--no-build-isolation", "--no-deps", "--wheel-dir", str(folder / "dist"), *copies)
    return folder / "dist"


@pytest.fixture(scope="module")
def site(wheels: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    vendetta = next(wheels.glob("riftscript_vendetta-*.whl"))
    _pip("install", "--quiet", "--no-deps", "--no-index", "--target", str(target), str(vendetta))
    return target


@pytest.fixture(scope="module")
def fresh_venv(request: pytest.FixtureRequest, wheels: Path,
               tmp_path_factory: pytest.TempPathFactory) -> Iterator[Future[tuple[str, subprocess.CompletedProcess[str]]] | None]:
    """The fresh virtual environment's run (riftscript sets, the scenarios), started in the background
    when the wheel test is among the selected tests."""
    if not any(item.name == WHEEL_TEST for item in request.session.items):
        yield None
        return
    with ThreadPoolExecutor(max_workers=1) as pool:
        job = pool.submit(_fresh_venv_run, wheels, tmp_path_factory.mktemp("fresh"))
        yield job
        job.exception()  # nothing of it outlives the module


@pytest.fixture(scope="module")
def catalog(site: Path, fresh_venv: Any) -> Iterator[Catalog]:
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
catalog = load_catalog()  # the cache 'riftscript sets' has just written in this venv's cache folder
folder = Path(riftscript_vendetta.__file__).parent / "scenarios"
count = 0
for path in sorted(folder.glob("*.yaml")):
    for scenario in load_file(path, catalog.schemas):
        if not scenario.pending:
            run_scenario(catalog, scenario)
            count += 1
print("scenarios passed:", count)
"""


def _fresh_venv_run(wheels: Path, tmp_path: Path) -> tuple[str, subprocess.CompletedProcess[str]]:
    """A new venv without pip (the running pip installs into it) holding the two wheels and what they
    require: what ``riftscript sets`` prints there, and the run of the package's scenarios."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RIFTSCRIPT_SETS")}
    env["RIFTSCRIPT_CACHE_DIR"] = str(tmp_path / "cache")
    _pip("--python", str(python), "install", "--quiet", *map(str, sorted(wheels.glob("*.whl"))), env=env)
    sets = subprocess.run([str(env_dir / "bin" / "riftscript"), "sets"], check=True, capture_output=True,
                          text=True, env=env, cwd=tmp_path).stdout
    ran = subprocess.run([str(python), "-c", RUN_SCENARIOS], capture_output=True, text=True, env=env, cwd=tmp_path)
    return sets, ran


def test_wheels_in_a_fresh_virtual_environment(fresh_venv: Future[tuple[str, subprocess.CompletedProcess[str]]],
                                              wheels: Path) -> None:
    """The riftscript wheel and the Vendetta wheel, and nothing else of this tree, in a new venv."""
    assert sorted(w.name.split("-")[0] for w in wheels.glob("*.whl")) == ["riftscript", "riftscript_vendetta"]
    sets, ran = fresh_venv.result()
    assert any(line.split()[:2] == ["VEN", "Vendetta"] for line in sets.splitlines())
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert ran.stdout.strip() == f"scenarios passed: {len(_scenarios()) - PENDING}"
