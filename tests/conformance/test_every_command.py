"""Every command works for every family (issue 30, point 7): on a non-canonical file of every rule set and of the
toy plug-in (a dist-info on the path, tests/toyfamily), each command exits 0, or with one clean line and status 2
(a part the family does not have: `MissingPart`), never with an internal error or a traceback.

The files are a game's first round, written the way people write (extra spaces after a trick's number), so
that `fmt` has something to rewrite and every reader meets text that is not the writer's own.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from command import Run, diamonds  # noqa: F401  (the fixture)

TESTS = Path(__file__).resolve().parents[1]
SAMPLES = TESTS.parent / "samples"
SCRIPT = Path(sys.executable).with_name("diamonds")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "diamonds.cli.main"]

#: A sample of every rule set (the Kirk one is written without deal lines).
SAMPLE_OF = {"1e": "1e-3p-league.dgn", "2e": "2e-5p-perfect.dgn", "bga": "bga-2p-online.dgn",
             "kirk": "kirk-4p-no-deals.dgn", "bidding": "bidding-3p-kitchen-table.dgn"}


def first_round_not_canonical(text: str) -> str:
    """The first game's tags and first round, unfinished (Result "*"), with a trick's number followed by three
    spaces: valid, and not in canonical form."""
    game = text.split("\n\n[", 1)[0]
    head, _, rounds = game.partition("\nR1 ")
    first = ("R1 " + rounds).split("\nR2 ", 1)[0]
    head = re.sub(r'\[Result "[^"]*"\]', '[Result "*"]', head)
    return head + "\n" + re.sub(r"^(\d+)\. ", r"\1.   ", first, flags=re.MULTILINE).rstrip("\n") + "\n"


def players_of(text: str) -> list[str]:
    return re.search(r'\[Players "([^"]*)"\]', text).group(1).split()  # type: ignore[union-attr]


def commands(rules: str, path: Path, players: list[str]) -> list[tuple[str, ...]]:
    """Every command and its main options, on `path` (a game of `rules`) or for `rules`."""
    folder = path.parent
    bots = ",".join(["random"] * len(players))
    length = ("--hands", "1") if rules == "kirk" else ()
    return [
        ("validate", str(path)),
        ("replay", str(path), "--steps"),
        ("replay", str(path), "--at", "R1.2"),
        ("replay", str(path), "--at", "R1.2", "--svg", str(folder / "at.svg")),
        ("replay", str(path), "--html", str(folder / "game.html")),
        ("replay", str(path), "--at", "R1.2", "--as", players[1]),
        ("convert", str(path), "--to", "json", "-o", str(folder / "game.json")),
        ("convert", str(folder / "game.json"), "--to", "dgn", "-o", str(folder / "back-json.dgn")),
        ("convert", str(path), "--to", "jsonl", "-o", str(folder / "game.jsonl")),
        ("convert", str(folder / "game.jsonl"), "--to", "dgn", "-o", str(folder / "back-jsonl.dgn")),
        ("convert", str(path), "--to", "csv", "-o", str(folder / "plays.csv")),
        ("convert", str(path), "--to", "parquet", "-o", str(folder / "tables")),
        ("convert", str(path), "--to", "dgn", "-o", str(folder / "again.dgn")),
        ("stats", str(path)),
        ("stats", "--by", "player", str(path)),
        ("ratings", str(path)),
        ("analyse", str(path), "--samples", "1", "--exact-nodes", "0", "-o", str(folder / "judged.dgn")),
        ("arena", "--rules", rules, "--players", str(len(players)), "--bots", bots, "--games", "1", *length,
         "-o", str(folder / "arena.dgn")),
        ("simulate", "--rules", rules, "--players", str(len(players)), "--seed", "5", *length,
         "-o", str(folder / "simulated.dgn")),
        ("play", "--rules", rules, "--players", " ".join(players), "--as", players[0], "--bots",
         ",".join(["random"] * (len(players) - 1)), *length),
        ("record", str(folder / "recorded.dgn"), "--rules", rules, "--players", " ".join(players)),
        ("fmt", str(path)),
    ]


def check(run: Callable[..., Run], rules: str, path: Path) -> dict[str, int]:
    """Run every command; each exits 0, or 2 with one line; the codes by command."""
    text = path.read_text(encoding="utf-8")
    codes = {}
    for args in commands(rules, path, players_of(text)):
        done = run(*args, stdin=b"")
        shown = " ".join(args[:1] + tuple(a for a in args[1:] if a.startswith("--")))
        assert "internal error" not in done.err and "Traceback" not in done.err, (shown, done)
        assert done.code in (0, 2), (shown, done)
        if done.code == 2:
            assert len(done.err.strip().splitlines()) == 1, (shown, done)
        codes[shown] = done.code
    assert path.read_text(encoding="utf-8") != text, "fmt left a non-canonical file as it was"
    assert run("fmt", "--check", str(path)).code == 0
    return codes


@pytest.mark.slow
@pytest.mark.parametrize("rules", list(SAMPLE_OF))
def test_every_command_on_a_non_canonical_game_of_every_rule_set(rules, diamonds, tmp_path) -> None:  # noqa: F811
    path = tmp_path / f"{rules}.dgn"
    path.write_text(first_round_not_canonical((SAMPLES / SAMPLE_OF[rules]).read_text(encoding="utf-8")),
                    encoding="utf-8")
    codes = check(diamonds, rules, path)
    assert {c: code for c, code in codes.items() if code} == {}, codes  # the shipped games have every part
    assert (tmp_path / "back-json.dgn").read_text(encoding="utf-8") == (tmp_path / "again.dgn").read_text("utf-8")


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a Python that finds the toy family as an installed plug-in (its dist-info)."""
    site = tmp_path_factory.mktemp("site")
    info = site / "diamonds_toy-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: diamonds-toy\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[diamonds.families]\ntoy = toyfamily:FAMILY\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE", "PYTEST_ADDOPTS")}
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(site), *filter(None, [os.environ.get("PYTHONPATH")])])
    env.update(COLUMNS="80", LINES="24")
    return env


@pytest.mark.slow
def test_every_command_on_a_non_canonical_game_of_the_toy_plugin(plugin, tmp_path) -> None:
    def run(*args: str, stdin: bytes = b"") -> Run:
        done = subprocess.run([*COMMAND, *args], cwd=tmp_path, env=plugin, input=stdin, capture_output=True,
                              timeout=120)
        return Run(done.returncode, done.stdout.decode(), done.stderr.decode())

    assert run("simulate", "--rules", "toy", "--seed", "3", "-o", "whole.dgn").code == 0
    path = tmp_path / "toy.dgn"
    path.write_text(first_round_not_canonical((tmp_path / "whole.dgn").read_text(encoding="utf-8")), "utf-8")
    codes = check(run, "toy", path)
    # The toy family has no bots: only the commands that need them end with the one line; random bots need none.
    assert {command for command, code in codes.items() if code == 2} == {"analyse --samples --exact-nodes"}, codes
