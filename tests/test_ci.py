"""``.ci/run`` runs the README's test command and fails loudly when pytest collects nothing."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

CI = Path(__file__).resolve().parent.parent / ".ci" / "run"


def fake_python(folder: Path, pytest_status: int) -> dict[str, str]:
    """A ``python3`` on PATH that records its arguments and exits like pip and pytest would."""
    (folder / "python3").write_text(
        "#!/usr/bin/env bash\n"
        f'echo "$*" >> "{folder / "calls"}"\n'
        f'if [ "$2" = "pytest" ]; then exit {pytest_status}; fi\n'
        "exit 0\n")
    (folder / "python3").chmod(0o755)
    return dict(os.environ, PATH=f"{folder}{os.pathsep}{os.environ['PATH']}")


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
