"""Test-wide set-up: the shared helpers (tests/helpers.py) import as `helpers` from every test folder, and
the default run says which heavier tiers it left out and how to run them (pyproject's addopts, issue 34)."""

import sys
from pathlib import Path

import pytest

TESTS = str(Path(__file__).resolve().parent)
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


def default_expression(config: pytest.Config) -> str | None:
    """The `-m` expression of pyproject's addopts, `not (TIER or TIER ...)` (the last one, as pytest takes it)."""
    words = list(config.getini("addopts"))  # split as the shell splits
    found = None
    for before, word in zip(words, words[1:]):
        if before == "-m":
            found = word
    return found


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """One line after a default run: how many tests the heavier tiers hold, and the command for them."""
    left_out = len(terminalreporter.stats.get("deselected", []))
    expression = config.getoption("markexpr", "")
    if not left_out or config.getoption("keyword", "") or expression != default_expression(config):
        return
    heavy = expression.removeprefix("not (").removesuffix(")")
    terminalreporter.write_line(f'{left_out} tests of the heavier tiers left out: `pytest -m "{heavy}"` runs them, '
                                f'`pytest -m ""` runs every test (CONTRIBUTING.md)')
