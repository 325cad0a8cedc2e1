"""The reader starts without Lark once the terminals' patterns are cached (issue 20's start-up), and
any trouble with that cache only means Lark is asked again: the records read are the same."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import diamonds

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
from diamonds.cli.main import main
code = main(["validate", sys.argv[1]])
print(code, "lark" in sys.modules)
"""


def _game_file(tmp_path: Path, broken: bool = False) -> Path:
    pos, rng = diamonds.Position("kirk", ["Ann", "Bob", "Cat", "Dan"], dealer="Ann"), random.Random(4)
    while not pos.is_over:
        pos.push(pos.chance_move(rng) if pos.is_chance else rng.choice(pos.legal_moves))
    text = str(pos.game())
    if broken:
        text = text.replace("\n1. ", "\n1. ZZ ", 1)
    path = tmp_path / ("broken.dgn" if broken else "game.dgn")
    path.write_text(text)
    return path


def _probe(path: Path, cache: Path) -> tuple[int, bool]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, env=env,
                          check=True)
    code, lark = done.stdout.split()[-2:]
    return int(code), lark == "True"


def test_a_valid_game_is_read_without_lark_once_the_patterns_are_cached(tmp_path: Path) -> None:
    path, cache = _game_file(tmp_path), tmp_path / "cache"
    assert _probe(path, cache) == (0, True)  # the first run asks Lark for the patterns, and keeps them
    assert list((cache / "diamonds").glob("dgn-terminals-*.json"))
    assert _probe(path, cache) == (0, False)


def test_an_error_is_still_found_and_explained_by_lark(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _probe(_game_file(tmp_path), cache)
    assert _probe(_game_file(tmp_path, broken=True), cache) == (1, True)


def test_a_garbled_cache_means_lark_is_asked_again(tmp_path: Path) -> None:
    path, cache = _game_file(tmp_path), tmp_path / "cache"
    _probe(path, cache)
    (kept,) = (cache / "diamonds").glob("dgn-terminals-*.json")
    good = json.loads(kept.read_text())
    assert good["key"].startswith((ROOT / "grammars" / "dgn.lark").read_text(encoding="utf-8"))
    other = {"key": good["key"].replace("PLAY", "PLAYS"), "patterns": good["patterns"]}  # another grammar's
    for garbage in ("{not json", json.dumps(["a", "list"]), json.dumps({"PLAY": 7}), json.dumps(other),
                    json.dumps({"key": good["key"], "patterns": {"PLAY": 7}})):
        kept.write_text(garbage)
        assert _probe(path, cache) == (0, True)
        assert json.loads(kept.read_text()) == good  # written again, whole
