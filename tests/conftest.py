"""Test-wide safety: nothing a test starts may write into the real user's data folder.

``noddy-server`` keeps its database under ``$XDG_DATA_HOME`` by default; every test session
points that at a temporary folder, so a subprocess started without ``--db`` still cannot
touch ``~/.local/share/noddy``.
"""

from __future__ import annotations

import os
from typing import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_data_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    old = os.environ.get("XDG_DATA_HOME")
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("xdg-data"))
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("XDG_DATA_HOME", None)
        else:
            os.environ["XDG_DATA_HOME"] = old
