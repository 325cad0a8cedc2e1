"""Test-wide set-up: the shared helpers (tests/helpers.py) import as `helpers` from every test folder, and
the default run says that it left out the heavier tiers, and how to run them (pyproject's addopts, issue 34)."""

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
    """One line after a default run: that the heavier tiers were left out, and the commands for them. (Under
    xdist the controller does not see what the workers deselected, so the line gives no count.)"""
    expression = config.getoption("markexpr", "")
    if not expression or expression != default_expression(config) or config.getoption("collectonly", False):
        return
    heavy = expression.removeprefix("not (").removesuffix(")")
    terminalreporter.write_line(f'The heavier tiers were left out: `pytest -m "{heavy}"` runs them, '
                                f'`pytest -m ""` runs every test (CONTRIBUTING.md).')
