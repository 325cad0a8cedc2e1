"""Test-wide set-up: the shared helpers (tests/helpers.py) import as `helpers` from every test folder."""

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
