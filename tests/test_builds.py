"""The pure and the compiled build give byte-identical outputs on every sample (issue 33; docs/build.md).

One interpreter is this test's own; the other is named by an environment variable:
`DIAMONDS_COMPILED_PYTHON` (a venv with `DIAMONDS_COMPILE=1 pip install .`) when this one is pure,
`DIAMONDS_PURE_PYTHON` when this one is compiled. `.ci/compiled` runs it from the compiled venv with
`DIAMONDS_REQUIRE_COMPILED=1`, so there a missing build is a failure; elsewhere it skips.

Each build runs `validate`, `convert --to json` and `replay --steps` (every game of every file) on every
sample, valid and invalid, and a seeded `arena` game of each family with the sampling bots (their rollouts
are compiled too), in one process through `main()`, and reports each run's exit code, the bytes it wrote to
stdout and stderr, and the arena's file.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.process  # each build's commands, on every sample, in a process of its own

REPO = Path(__file__).resolve().parent.parent
SAMPLES = sorted(REPO.glob("samples/*.dgn")) + sorted(REPO.glob("samples/invalid/*.dgn"))

# Runs in the interpreter under test: every command on every sample, through the command's main().
DRIVER = r"""
import base64, contextlib, io, json, sys
import diamonds
from diamonds.cli.main import main

def run(args):
    out, err = io.BytesIO(), io.BytesIO()
    out_text, err_text = io.TextIOWrapper(out, encoding="utf-8"), io.TextIOWrapper(err, encoding="utf-8")
    with contextlib.redirect_stdout(out_text), contextlib.redirect_stderr(err_text):
        try:
            code = main(args)
        except SystemExit as exit:
            code = exit.code
    out_text.flush(), err_text.flush()
    return [code, base64.b64encode(out.getvalue()).decode(), base64.b64encode(err.getvalue()).decode()]

results = {}
for path in sys.argv[1:]:
    results["validate " + path] = run(["validate", path])
    results["convert --to json " + path] = run(["convert", path, "--to", "json"])
    games = sum(1 for _ in diamonds.read_games(path))
    for number in range(1, games + 1):
        results[f"replay --steps --game {number} " + path] = run(["replay", path, "--steps", "--game", str(number)])
# The bots, whose rollouts and redraws are compiled too: a seeded arena game of each family, bytes and file.
import os, tempfile
for rules, bots, extra in (("kirk", "mc:2,ismcts:2,greedy,random", ["--hands", "1"]),
                           ("2e", "mc:2,ismcts:2,greedy,random", []), ("bidding", "mc:2,ismcts:2,greedy", [])):
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "arena.dgn")
        ran = run(["arena", "--rules", rules, "--bots", bots, "--games", "1", "--seed", "3", "--jobs", "1",
                   "-o", out, *extra])
        with open(out, "rb") as written:
            results["arena " + rules] = ran + [base64.b64encode(written.read()).decode()]
json.dump(results, sys.stdout)
"""

BUILD = ("import importlib.machinery, diamonds.core.game; "
         "print(diamonds.core.game.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)))")


def _is_compiled(python: str) -> bool:
    answer = subprocess.run([python, "-c", BUILD], capture_output=True, text=True, check=True, cwd=REPO.parent)
    return answer.stdout.strip() == "True"


def _builds() -> tuple[str, str]:
    """The pure build's interpreter and the compiled build's; skips (or fails, where required) without both."""
    here_compiled = _is_compiled(sys.executable)
    other = os.environ.get("DIAMONDS_PURE_PYTHON" if here_compiled else "DIAMONDS_COMPILED_PYTHON", "")
    if not other:
        missing = "DIAMONDS_PURE_PYTHON" if here_compiled else "DIAMONDS_COMPILED_PYTHON (no compiled build)"
        if os.environ.get("DIAMONDS_REQUIRE_COMPILED") == "1":
            pytest.fail(f"both builds are required here, and {missing} is not set")
        pytest.skip(f"needs both builds: set {missing}; .ci/compiled does")
    pure, compiled = (other, sys.executable) if here_compiled else (sys.executable, other)
    assert not _is_compiled(pure), f"{pure} runs a compiled diamonds: this would compare a build with itself"
    assert _is_compiled(compiled), f"{compiled} runs a pure diamonds: this would compare a build with itself"
    return pure, compiled


def _outputs(python: str) -> dict[str, list[object]]:
    env = {**os.environ, "COLUMNS": "80", "LINES": "24", "PYTHONHASHSEED": "0"}
    for name in ("FORCE_COLOR", "CLICOLOR_FORCE", "TTY_COMPATIBLE", "TTY_INTERACTIVE", "NO_COLOR"):
        env.pop(name, None)
    # Run from the repository's root, so that the sample paths (and every message naming them) are the same;
    # `diamonds` is imported from the interpreter's site-packages (no checkout folder is named `diamonds`).
    paths = [str(path.relative_to(REPO)) for path in SAMPLES]
    done = subprocess.run([python, "-c", DRIVER, *paths], capture_output=True, check=True, cwd=REPO, env=env)
    results: dict[str, list[object]] = json.loads(done.stdout)
    return results


def test_both_builds_write_the_same_bytes_on_every_sample() -> None:
    pure, compiled = _builds()
    expected, actual = _outputs(pure), _outputs(compiled)
    assert expected.keys() == actual.keys()
    assert sum(1 for name in expected if name.startswith("replay")) > len(SAMPLES) // 2  # games were replayed
    assert all(expected[name][0] == 0 and expected[name][3] for name in expected if name.startswith("arena"))
    assert any(code != 0 for code, _, _ in expected.values())  # the invalid samples were refused...
    assert any(code == 0 for code, _, _ in expected.values())  # ...and the valid ones passed
    different = [name for name in expected if expected[name] != actual[name]]
    assert not different, f"the compiled build differs from the pure one on {len(different)} runs: {different[:10]}"
