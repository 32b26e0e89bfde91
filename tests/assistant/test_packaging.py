"""Hearth installed as the README's service section installs it: from a wheel (`pip install .`,
no -e). The package list named only the top packages, so the wheel left out assistant.cli and
every other subpackage, and the installed `hearth` failed at its first import."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
TOP_PACKAGES = ("assistant", "audio", "memory", "config", "support")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # Built from a copy: setuptools reuses a build/ folder left in the source, which would
    # hide a package list that leaves something out.
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(REPOSITORY / name, source / name)
    for top in TOP_PACKAGES:
        shutil.copytree(
            REPOSITORY / top, source / top, ignore=shutil.ignore_patterns("__pycache__")
        )
    folder = tmp_path_factory.mktemp("wheel")
    pip = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", str(source), "-w", str(folder)]
    subprocess.run(pip, check=True, capture_output=True)
    (built,) = folder.glob("hearth_assistant-*.whl")
    return built


def test_the_wheel_holds_every_package_and_the_files_hearth_reads(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {
        str(init.parent.relative_to(REPOSITORY))
        for top in TOP_PACKAGES
        for init in (REPOSITORY / top).rglob("__init__.py")
    }
    assert packages >= {"assistant/cli", "memory/judging"}  # the ones the list left out
    missing = sorted(p for p in packages if f"{p}/__init__.py" not in names)
    assert not missing, f"left out of the wheel: {missing}"
    assert {"config/assistant.yaml", "config/personality.yaml"} <= names
    assert "assistant/hearth.service" in names


def test_the_hearth_command_runs_from_the_wheel_alone(wheel: Path, tmp_path: Path) -> None:
    unpacked = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(unpacked)
    # -P: not the working folder; the wheel's copy of Hearth, this venv's libraries.
    run = subprocess.run(
        [sys.executable, "-P", "-c",
         "import sys; sys.path.insert(0, sys.argv[1]); import assistant.cli as cli; "
         "assert cli.__file__.startswith(sys.argv[1]), cli.__file__; "
         "sys.argv = ['hearth', '--help']; cli.main()", str(unpacked)],
        cwd=tmp_path, capture_output=True, text=True,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "memory" in run.stdout and "run" in run.stdout


# A library the code imports, made missing: what a `git pull` without `pip install` leaves.
_WITHOUT = """
import sys
class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == sys.argv[1]:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Missing())
from assistant.console import main
sys.exit(main(["memory", "list"]))
"""


@pytest.mark.parametrize(
    ("module", "said"),
    [("text_to_num", "a library Hearth needs"), ("memory", "part of Hearth is not installed")],
)
def test_a_missing_package_is_named_with_its_fix_not_a_traceback(
    module: str, said: str, tmp_path: Path
) -> None:
    run = subprocess.run(
        [sys.executable, "-c", _WITHOUT, module],
        cwd=REPOSITORY, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert said in run.stderr and module in run.stderr and "pip install" in run.stderr
