"""The test tiers (issue 34): the default run leaves out exactly the heavier tiers, CI runs those in its
second call, and each tier is a registered marker, so that CI runs every test exactly once."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPTIONS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]


def heavy_tiers() -> str:
    """The default run's `-m` is `not (HEAVY)`: HEAVY, the expression of the heavier tiers."""
    words = shlex.split(OPTIONS["addopts"])
    assert words.count("-m") == 1
    found = re.fullmatch(r"not \((.+)\)", words[words.index("-m") + 1])
    assert found, words
    return found.group(1)


def test_the_heavier_tiers_are_registered_markers_and_a_misspelt_one_is_an_error() -> None:
    tiers = heavy_tiers().split(" or ")
    registered = {line.split(":", 1)[0] for line in OPTIONS["markers"]}
    assert {"process", "browser", "cluster", "slow"} <= set(tiers) <= registered
    assert "--strict-markers" in shlex.split(OPTIONS["addopts"])  # not a heavy test run by default unseen


def test_ci_runs_the_readme_command_then_exactly_the_heavier_tiers() -> None:
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    readme = run.index('python -m pip install ".[test]" && pytest')
    heavy = shlex.split(next(line for line in run[readme + 1:] if line.startswith("pytest")))  # the next pytest
    assert heavy[:3] == ["pytest", "-m", heavy_tiers()]  # together: every test once
    if heavy[-2:] == ["||", "status=$?"]:  # its failure kept for the end, once the side checks have printed
        heavy = heavy[:-2]
    assert heavy[3:] in ([], ["-n", "$(( $(nproc) + 1 ))"])  # at most a worker count: nothing left out
    assert not [line for line in run if line.startswith("pytest") and " -k " in line]
