"""The front door made consistent (issue 30, point 9) and the parts contract (point 8): one name per thing,
rulings written one way, the public names listed, a missing optional part one clean refusal."""

from __future__ import annotations

import importlib
import subprocess
import sys
import types

import pytest
from replaycheck import SAMPLES

import diamonds
from diamonds.core import Family, IllegalMove, MissingPart, NotationError, family_named
from diamonds.core.family import REQUIRED_PARTS, STANDARD_PARTS


def test_families_is_a_plain_package_and_rule_sets_lists_the_registered_ones() -> None:
    package = diamonds.families
    assert type(package) is types.ModuleType and not callable(package)
    assert diamonds.families is package is importlib.import_module("diamonds.families")
    listed = diamonds.rule_sets()
    assert listed["fitzgerald"] == ("1e", "2e", "bga") and listed["kirk"] == ("kirk",)
    assert listed["bidding"] == ("bidding",)


def test_dir_lists_the_public_names_before_they_are_imported() -> None:
    code = "import diamonds, sys; print(sorted(dir(diamonds))); print('diamonds.game' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    names, imported = done.stdout.splitlines()
    for name in ("Position", "read_games", "read_game", "Game", "Standing", "rule_sets", "families", "core"):
        assert repr(name) in names, names
    assert "'TYPE_CHECKING'" not in names and imported == "False"  # listing imports nothing


def test_one_game_at_the_front_door_and_the_engine_under_its_own_name() -> None:
    from diamonds.core import Engine

    assert diamonds.Game is not Engine and diamonds.Game.__module__ == "diamonds.game"
    assert "Game" not in diamonds.core.__all__ and "Engine" in diamonds.core.__all__
    with pytest.warns(DeprecationWarning, match="Engine"):
        assert diamonds.core.Game is Engine  # the old name, for scripts that import it

def test_one_standing_at_the_front_door_and_the_engine_s_result_under_its_own_name() -> None:
    from diamonds.core import SideResult

    assert "Standing" not in diamonds.core.__all__ and "SideResult" in diamonds.core.__all__
    with pytest.warns(DeprecationWarning, match="SideResult"):
        assert diamonds.core.Standing is SideResult  # the old name, for plug-ins that subclass it
    game = next(iter(diamonds.read_games(SAMPLES / "kirk-4p-hands.dgn")))
    front = game.end().standings
    assert all(type(standing) is diamonds.Standing for standing in front)
    assert all(isinstance(standing.details, SideResult) and not isinstance(standing.details, diamonds.Standing)
               for standing in front)
    assert [standing.score for standing in front] == [standing.details.score for standing in front]



def test_rulings_are_written_one_way_with_one_field_name() -> None:
    illegal = IllegalMove("Bob does not hold AS", rule="K4")
    words = NotationError("Jo is not in the pack", text="Jo", rule="K2")
    assert (str(illegal), illegal.rule, illegal.ruling) == ("Bob does not hold AS (K4)", "K4", "K4")
    assert (str(words), words.rule, words.ruling) == ("Jo is not in the pack (K2)", "K2", "K2")
    assert str(NotationError("no move given", text="")) == "no move given"


def test_a_part_a_family_lacks_is_its_default_or_one_missing_part() -> None:
    kirk = family_named("kirk")
    assert kirk.part("bridge") is kirk.part("bridge", None) is not None
    bare = Family(name="bare", title="no parts", rule_sets=(), package="diamonds.families.kirk", parts={})
    assert bare.part("bot", "fallback") == "fallback"
    with pytest.raises(MissingPart) as info:
        bare.part("bot")
    assert (info.value.family, info.value.part) == ("bare", "bot")
    assert str(info.value).startswith("the bare family has no `bot` part: bots") and "\n" not in str(info.value)
    nowhere = Family(name="nowhere", title="a part named where no module is", rule_sets=(),
                     package="diamonds.families.kirk", parts={"bot": "no_such_module:BOT"})
    assert nowhere.part("bot", None) is None
    assert REQUIRED_PARTS < set(STANDARD_PARTS) and "invariants" in STANDARD_PARTS
