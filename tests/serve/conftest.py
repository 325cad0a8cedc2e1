"""The serve tests' shared fixture: one real `diamonds serve` process per test module."""

from __future__ import annotations

import pytest
from servehelp import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    running = Server(tmp_path_factory.mktemp("club")).start()
    yield running
    running.stop()
