"""Test-wide settings: the validation cache lives in a temporary folder, never in ~/.cache."""
from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from riftscript.core.script.validated_cache import CACHE_DIR_ENV
from riftscript.core.script.discovery import DISABLE_ENV
from riftscript.core.script.folders import SETS_ENV

from installed import walkthrough_set_installed


@pytest.fixture(autouse=True, scope="session")
def _isolated_validation_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    old = os.environ.get(CACHE_DIR_ENV)
    os.environ[CACHE_DIR_ENV] = str(tmp_path_factory.mktemp("riftscript-cache"))
    yield
    if old is None:
        os.environ.pop(CACHE_DIR_ENV, None)
    else:
        os.environ[CACHE_DIR_ENV] = old


def pytest_configure(config: pytest.Config) -> None:
    os.environ.pop(SETS_ENV, None)  # the suite sees the installed sets only, whatever the shell lists
    if walkthrough_set_installed():
        # the README walkthrough's set MYS (plugin 'mys') is installed here; the suite makes MYS folders of its own
        disabled = {name.strip() for name in os.environ.get(DISABLE_ENV, "").split(",") if name.strip()}
        os.environ[DISABLE_ENV] = ",".join(sorted(disabled | {"mys"}))
    config.addinivalue_line("markers", "community: builds and installs examples/community-set with pip "
                                       "into a temporary folder (part of the default run; -m 'not community' skips it)")
