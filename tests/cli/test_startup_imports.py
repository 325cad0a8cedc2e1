"""Start-up (issue 20): what a one-game command must not import. Each of these once cost a one-game
`validate` or `convert --to parquet` several milliseconds, for nothing the command used."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import diamonds

PROBE = """
import json, sys
from diamonds.cli.main import main
code = main(sys.argv[1:])
print(json.dumps([code, sorted(sys.modules)]))
"""

#: Never needed to check or table valid games of one family.
HEAVY = ("importlib.metadata", "email", "hashlib", "jsonschema", "lark")


def modules_after(*argv: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True)
    code, modules = json.loads(done.stdout.splitlines()[-1])
    assert code == 0, done.stderr
    return set(modules)


@pytest.fixture(scope="module")
def kirk_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pos = diamonds.Position("kirk", ["Ann", "Bob", "Cat", "Dan"], dealer="Ann")
    import random

    rng = random.Random(2)
    while not pos.is_over:
        pos.push(pos.chance_move(rng) if pos.is_chance else rng.choice(pos.legal_moves))
    path = tmp_path_factory.mktemp("startup") / "kirk.dgn"
    path.write_text(str(pos.game()), encoding="utf-8")
    modules_after("validate", "-q", str(path))  # the first run may ask Lark for the patterns, and keep them
    return path


def test_validate_imports_only_the_family_it_checks(kirk_game: Path) -> None:
    modules = modules_after("validate", "-q", str(kirk_game))
    assert "diamonds.families.kirk.rules" in modules
    assert not [name for name in modules if name.split(".")[0] in HEAVY or name in HEAVY]
    assert not {"diamonds.families.fitzgerald.rules", "diamonds.families.bidding.rules"} & modules


def test_parquet_imports_no_other_family_engine_nor_the_json_schema_checker(kirk_game: Path, tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    modules = modules_after("convert", str(kirk_game), "--to", "parquet", "-o", str(tmp_path / "tables"))
    assert (tmp_path / "tables" / "plays.parquet").is_file()
    assert "jsonschema" not in modules and "importlib.metadata" not in modules
    assert not {"diamonds.families.fitzgerald.rules", "diamonds.families.bidding.rules"} & modules
