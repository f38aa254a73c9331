"""``.ci/run`` installs Chromium when missing, runs the README's test command, and fails loudly
when pytest collects nothing."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

CI = Path(__file__).resolve().parent.parent / ".ci" / "run"


def fake_python(folder: Path, pytest_status: int, chromium: bool = True, apt_status: int = 0) -> dict[str, str]:
    """A ``python3`` and an ``apt-get`` on PATH that record their arguments (in one file, in order)
    and exit like pip, pytest and apt would; a Chromium binary there or not."""
    (folder / "python3").write_text(
        "#!/usr/bin/env bash\n"
        f'echo "$*" >> "{folder / "calls"}"\n'
        f'if [ "$2" = "pytest" ]; then exit {pytest_status}; fi\n'
        "exit 0\n")
    (folder / "apt-get").write_text(
        "#!/usr/bin/env bash\n"
        f'echo "apt-get $*" >> "{folder / "calls"}"\n'
        f"exit {apt_status}\n")
    browser = folder / "chromium"
    if chromium:
        browser.write_text("#!/bin/sh\n")
    for tool in (folder / "python3", folder / "apt-get", browser):
        if tool.exists():
            tool.chmod(0o755)
    return dict(os.environ, PATH=f"{folder}{os.pathsep}{os.environ['PATH']}", RIFTSCRIPT_CHROMIUM=str(browser))


@pytest.mark.parametrize("status", [0, 1, 5])
def test_ci_passes_on_the_pytest_status(tmp_path: Path, status: int) -> None:
    done = subprocess.run([str(CI)], env=fake_python(tmp_path, status), capture_output=True, text=True)
    assert done.returncode == status
    assert (tmp_path / "calls").read_text().splitlines() == ["-m pip install -e .[test]", "-m pytest"]
    empty = "ci: pytest collected no tests (exit status 5); the test suite must not be empty\n"
    assert (done.stderr == empty) == (status == 5)


def test_ci_stops_when_the_install_fails(tmp_path: Path) -> None:
    env = fake_python(tmp_path, 0)
    (tmp_path / "python3").write_text("#!/usr/bin/env bash\nexit 3\n")
    assert subprocess.run([str(CI)], env=env, capture_output=True).returncode == 3


def test_ci_installs_chromium_first_when_it_is_missing(tmp_path: Path) -> None:
    done = subprocess.run([str(CI)], env=fake_python(tmp_path, 0, chromium=False), capture_output=True, text=True)
    assert done.returncode == 0
    assert (tmp_path / "calls").read_text().splitlines() == [
        "apt-get update -q", "apt-get install -y -q chromium", "-m pip install -e .[test]", "-m pytest"]
    assert "installing Debian's chromium" in done.stderr


def test_ci_fails_when_chromium_cannot_be_installed(tmp_path: Path) -> None:
    env = fake_python(tmp_path, 0, chromium=False, apt_status=100)
    done = subprocess.run([str(CI)], env=env, capture_output=True, text=True)
    assert done.returncode == 1 and "could not install chromium" in done.stderr
    assert (tmp_path / "calls").read_text().splitlines() == ["apt-get update -q"]
