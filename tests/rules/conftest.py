"""The rules tests share one catalog for the whole session (loading it once)."""
from __future__ import annotations

import pytest

from riftscript.core.script.catalog import Catalog
from riftscript.tools.pytest_plugin import catalog


@pytest.fixture(scope="session")
def cat() -> Catalog:
    return catalog()
