"""The house hosts games: a fourth family, living only in tests/toyfamily, gets everything from its registration.

The toy trick game (rulings T1-T7, see tests/toyfamily/rules.py) is registered
the way a separately installed game is: a `*.dist-info` folder with an
`entry_points.txt` naming `toy = toyfamily:FAMILY` in the group
`diamonds.families`, put on the path of a subprocess. No generic module
names it. From that alone the real `diamonds` command simulates, validates
(a revoke at file:line:col with its T-ruling), replays step by step,
converts to JSON that validates against `diamonds schema`, draws the table
as SVG, records live and summarises games, and the conformance suite (test_families.py,
test_api.py) passes for it. In-process, `diamonds.core.register()` adds it
too, and refuses a clash of family names or rule ids.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import diamonds
from diamonds.core import Family, registry
from diamonds.core.registry import RegistrationError, register, rules_for

TESTS = Path(__file__).resolve().parents[2]
ROOT = TESTS.parent
SCRIPT = Path(sys.executable).with_name("diamonds")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "diamonds.cli.main"]

#: A revoke (T4): Bob leads 3D, Ann holds 1D and 2D and plays 1H. `1H` is at line 9, column 7.
REVOKE = """[Rules "toy"]
[Players "Ann Bob"]
[Dealer "Ann"]
[Result "*"]

R1 dealer Ann
deal Ann 1D 2D 1H 2H 1S 2S
deal Bob 3D 3H 3S 1C 2C 3C
1. 3D 1H
"""


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
    env.update(COLUMNS="80", LINES="24", DIAMONDS_DEBUG="1")  # a bug shows its traceback
    return env


@pytest.fixture(scope="module")
def work(plugin: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a simulated toy game (game.dgn), the same without deal lines, and the revoke."""
    folder = tmp_path_factory.mktemp("toy")
    diamonds_cmd(plugin, folder, "simulate", "--rules", "toy", "--seed", "3", "-o", "game.dgn")
    diamonds_cmd(plugin, folder, "simulate", "--rules", "toy", "--seed", "3", "--no-deals", "-o", "nodeals.dgn")
    (folder / "bad.dgn").write_text(REVOKE, encoding="utf-8")
    return folder


def diamonds_cmd(env: dict[str, str], cwd: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    """The real `diamonds` command in a subprocess; its exit code must be `code`."""
    done = subprocess.run([*COMMAND, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == code, f"diamonds {' '.join(args)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


# --------------------------------------------------------------------------- the command, through the entry point


@pytest.mark.process  # the real command as a plug-in's user runs it
def test_simulate_writes_a_toy_game(plugin: dict[str, str], work: Path) -> None:
    text = (work / "game.dgn").read_text(encoding="utf-8")
    assert '[Rules "toy"]' in text and "R2 dealer" in text and "\n6. " in text
    assert "deal " not in (work / "nodeals.dgn").read_text(encoding="utf-8")
    told = diamonds_cmd(plugin, work, "simulate", "--rules", "toy", "--seed", "3", "--narrate").stdout
    assert "Round 1:" in told and "(T5)" in told and "Game over:" in told


@pytest.mark.process  # the real command as a plug-in's user runs it
def test_validate_reports_a_revoke_at_its_token_with_the_ruling(plugin: dict[str, str], work: Path) -> None:
    assert "2 games: 2 valid" in diamonds_cmd(plugin, work, "validate", "game.dgn", "nodeals.dgn").stdout
    done = diamonds_cmd(plugin, work, "validate", "bad.dgn", code=1)
    assert "bad.dgn:9:7: Ann must follow Diamonds with 1D 2D, not play 1H (T4)" in done.stdout + done.stderr
    wrong = re.sub(r'\[Result "[^"]*"\]', '[Result "Ann 0, Bob 12"]', (work / "game.dgn").read_text("utf-8"))
    (work / "wrong.dgn").write_text(wrong, encoding="utf-8")
    listed = json.loads(diamonds_cmd(plugin, work, "validate", "--format", "json", "wrong.dgn", code=1).stdout)
    [error] = listed["files"][0]["games"][0]["errors"]
    assert (error["code"], error["rule"], error["line"]) == ("wrong-result", "T6", 6)  # after Event, Seed, Rules, Players, Dealer


@pytest.mark.process  # the real command as a plug-in's user runs it
def test_replay_steps_and_svg(plugin: dict[str, str], work: Path) -> None:
    steps = diamonds_cmd(plugin, work, "replay", "game.dgn", "--steps").stdout
    for label in ("R1.0", "R1.1.1", "R1.6.2", "R1.end", "R2.0", "R2.6.2", "R2.end"):
        assert re.search(rf"^{re.escape(label)}\s", steps, re.MULTILINE), f"no stop {label}:\n{steps}"
    assert "wins trick 6" in steps and "Game over:" in steps
    diamonds_cmd(plugin, work, "replay", "game.dgn", "--at", "R2.3.2", "--svg", "table.svg", "--as", "Ann")
    svg = ET.parse(work / "table.svg").getroot()
    ns = {"s": "http://www.w3.org/2000/svg"}
    title = svg.find("s:title", ns)
    assert title is not None and title.text == "Diamonds toy: R2.3.2 (round 2 of 2), as Ann sees it"
    trick = [g.get("data-card") for g in svg.iterfind(".//s:g[@class='trick']/s:g", ns)]
    assert len(trick) == 2  # the leader's card and the reply


@pytest.mark.process  # the real command as a plug-in's user runs it
def test_convert_to_json_validates_against_the_schema_and_reads_back(plugin: dict[str, str], work: Path) -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads(diamonds_cmd(plugin, work, "schema").stdout)
    assert {"toy.config", "toy.state"} <= set(schema["$defs"]) and "toy" in schema["$defs"]["family"]["enum"]
    validator = Draft202012Validator(schema)
    for extra in ((), ("--full", "--states")):
        diamonds_cmd(plugin, work, "convert", "game.dgn", "--to", "json", "-o", "game.json", *extra)
        doc = json.loads((work / "game.json").read_text(encoding="utf-8"))
        errors = [f"{list(e.absolute_path)}: {e.message[:150]}" for e in validator.iter_errors(doc)]
        assert not errors, errors
        [game] = doc["games"]
        assert game["family"] == "toy" and game["valid"] and game["result"]["complete"]
        assert all(trick.get("winner") for rnd in game["rounds"] for trick in rnd["tricks"])
    back = diamonds_cmd(plugin, work, "convert", "game.json", "--to", "dgn").stdout
    assert back == (work / "game.dgn").read_text(encoding="utf-8")


@pytest.mark.process  # the real command as a plug-in's user runs it
def test_stats_summarise_toy_games_without_figures_of_their_own(plugin: dict[str, str], work: Path) -> None:
    """The toy family has no `stats` part (an optional part): stats gives the figures every game has."""
    out = diamonds_cmd(plugin, work, "stats", "game.dgn", "nodeals.dgn", "--width", "100").stdout
    assert out.startswith("2 games: 2 valid") and re.search(r"^toy 2p .* 2 \u2502", out, re.MULTILINE), out
    assert "Tricks by" not in out


@pytest.mark.process  # the real command as a plug-in's user runs it
def test_record_refuses_a_revoke_live(plugin: dict[str, str], work: Path) -> None:
    moves = "deal Ann 1D 2D 1H 2H 1S 2S\ndeal Bob 3D 3H 3S 1C 2C 3C\n3D\n1H\n1D\n"
    done = subprocess.run([*COMMAND, "record", "live.dgn", "--rules", "toy", "--players", "Ann Bob"], cwd=work,
                          env=plugin, input=moves, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr  # 1: a line was refused
    assert "must follow Diamonds with 1D 2D, not play 1H (T4)" in done.stdout + done.stderr
    assert (work / "live.dgn").read_text(encoding="utf-8").endswith("\n1. 3D 1D\n")


# --------------------------------------------------------------------------- the conformance suite, for the plug-in


@pytest.mark.process  # a nested pytest
def test_the_conformance_suite_passes_for_the_plugin(plugin: dict[str, str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/conformance", "-k", "(toy or unique) and not every_command",
         "-p", "no:cacheprovider", "-o", "addopts=", "-rfEs", "-v"],
        cwd=ROOT, env=plugin, capture_output=True, text=True, timeout=600,  # a hang only: a whole pytest run
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    ran = set(re.findall(r"^tests/conformance/(\S+) PASSED", done.stdout, re.MULTILINE))
    for expected in (
        "test_families.py::test_family_has_invariants[toy]",
        "test_families.py::test_random_playthrough[toy-2p-1]",
        "test_families.py::test_illegal_moves_refused[toy-2p]",
        "test_families.py::test_dgn_round_trip[toy-2p-1]",
        "test_families.py::test_dgn_round_trip_unfinished[toy-2p]",
        "test_families.py::test_family_parts_load[toy-view]",
        "test_families.py::test_family_parts_load[toy-tables]",
        "test_families.py::test_export_valid_against_schema[toy-2p]",
        "test_families.py::test_rule_ids_unique",
        "test_api.py::test_random_playthrough_through_the_front_door[3-toy-2p]",
        "test_api.py::test_an_illegal_move_names_its_ruling_and_player_and_changes_nothing[toy]",
    ):
        assert expected in ran, f"{expected} did not pass:\n{done.stdout[-3000:]}"
    assert not re.search(r"\b(failed|skipped|error)", done.stdout.splitlines()[-1])


# --------------------------------------------------------------------------- in-process registration


class _Clash(diamonds.core.Rules):
    id = "kirk"  # a rule id the registry holds already
    family = "toy-clash"


@pytest.fixture()
def fresh_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A registry of this test's own (the shipped families, found again), put back afterwards."""
    monkeypatch.setattr(registry, "_REGISTRY", registry._Registry())


def test_register_in_process_and_play_through_the_front_door(fresh_registry: None) -> None:
    import toyfamily
    from toyfamily.rules import Toy

    assert register(toyfamily.FAMILY) is toyfamily.FAMILY
    assert rules_for("toy") is Toy and diamonds.rule_sets()["toy"] == ("toy",)
    rng = random.Random(7)
    pos = diamonds.Position("toy")
    assert pos.players == ("Ann", "Bob") and pos.is_chance
    while not pos.is_over:
        pos.push(pos.rule_set.chance_move(pos.state, rng) if pos.is_chance else rng.choice(pos.legal_moves))
    assert pos.label == "R2.end" and sum(s.score for s in pos.standings) == 12  # T6, T7
    text = str(pos.game())
    [game] = diamonds.read_games([line + "\n" for line in text.split("\n")])
    assert game.is_valid and game.is_complete and game.moves == pos.moves


def test_register_refuses_a_clash_of_names_or_rule_ids(fresh_registry: None) -> None:
    import toyfamily
    from toyfamily.rules import Toy

    register(toyfamily.FAMILY)
    with pytest.raises(RegistrationError, match="named 'toy'"):
        register(toyfamily.FAMILY)
    with pytest.raises(RegistrationError, match="named 'toy'"):
        register(Family(name="toy", title="another toy", rule_sets=(_Clash,), package="toyfamily"))
    with pytest.raises(RegistrationError, match="rule sets toy are registered"):
        register(Family(name="toy2", title="the toy again", rule_sets=(Toy,), package="toyfamily"))
    with pytest.raises(RegistrationError, match="rule sets kirk are registered"):
        register(Family(name="toy-clash", title="a clash", rule_sets=(_Clash,), package="toyfamily"))
    with pytest.raises(RegistrationError):
        register("toyfamily:FAMILY")  # type: ignore[arg-type]
    assert [family.name for family in diamonds.core.families()][-1] == "toy"


def test_a_set_up_kept_from_a_registry_is_not_used_after_it_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check path keeps the configuration of set-up tags it has read; what it kept under one registry
    must not answer for a game read under another (a family added, or the registry replaced)."""
    import toyfamily

    monkeypatch.setattr(registry, "_REGISTRY", registry._Registry())
    before = registry.registry_version()
    register(toyfamily.FAMILY)
    assert registry.registry_version() != before
    pos = diamonds.Position("toy")
    rng = random.Random(3)
    while not pos.is_over:
        pos.push(pos.rule_set.chance_move(pos.state, rng) if pos.is_chance else rng.choice(pos.legal_moves))
    text = str(pos.game())
    [game] = diamonds.read_games([text])
    assert game.is_valid

    monkeypatch.setattr(registry, "_REGISTRY", registry._Registry())  # the toy family gone again
    [game] = diamonds.read_games([text])
    assert not game.is_valid and [p.code for p in game.problems] == ["unknown-rules"]
