"""The distribution: every package folder is in the wheel under the one ``noddy``
namespace, and the console scripts point at real functions."""

from __future__ import annotations

import importlib
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_package_folder_is_listed_for_the_wheel() -> None:
    setuptools = PYPROJECT["tool"]["setuptools"]
    mapped = {Path(folder): name for name, folder in setuptools["package-dir"].items()}
    listed = set(setuptools["packages"])
    missing = []
    for init in ROOT.rglob("__init__.py"):
        folder = init.parent.relative_to(ROOT)
        if folder.parts[0] in ("tests", "build", "examples") or any(
                part.startswith(".") or part.endswith(".egg-info") for part in folder.parts):
            continue
        if (ROOT / folder.parts[0] / "pyvenv.cfg").exists():
            continue  # a virtual environment made inside the checkout is not our source
        # The import name of this folder: the nearest mapped ancestor plus the rest.
        for ancestor in [folder, *folder.parents]:
            if ancestor in mapped:
                rest = folder.relative_to(ancestor).parts
                name = ".".join([mapped[ancestor], *rest])
                break
        else:
            missing.append(f"{folder} is not under any mapped package folder")
            continue
        if name not in listed:
            missing.append(f"{folder} ({name}) is not in [tool.setuptools] packages")
    assert missing == []


def test_import_names_live_under_noddy_only() -> None:
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert all(name == "noddy" or name.startswith("noddy.") for name in setuptools["packages"])
    assert all(name.startswith("noddy") for name in setuptools["package-dir"])


def test_console_scripts_resolve() -> None:
    scripts = PYPROJECT["project"]["scripts"]
    assert {"noddy-server", "noddy-client"} <= set(scripts)
    for target in scripts.values():
        module, _, function = target.partition(":")
        assert callable(getattr(importlib.import_module(module), function))
