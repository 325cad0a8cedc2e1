"""A family that names its engine instead of importing it declares the rule sets' ids and option tags,
so that reading one family's games never loads another's engine; the declaration is checked on load."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from diamonds.core import families
from diamonds.core.family import Family, FamilyMismatch

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


@pytest.mark.parametrize("family", families(), ids=lambda family: family.name)
def test_every_registered_family_declares_what_its_engine_holds(family: Family) -> None:
    loaded = family.rule_sets  # a mismatch raises FamilyMismatch here
    assert tuple(rules.id for rules in loaded) == family.rule_ids
    assert frozenset(tag for rules in loaded for tag in rules.option_tags) == family.option_tags
    assert all(family.rule_set(rules.id) is rules for rules in loaded)


def test_a_wrong_declaration_is_refused_when_the_engine_loads() -> None:
    wrong_ids = Family(name="kirk2", title="Kirk misdeclared", rule_sets="rules:Kirk", rule_ids=("kirk2",),
                       option_tags=("Hands", "Target"), package="diamonds.families.kirk")
    with pytest.raises(FamilyMismatch) as info:
        _ = wrong_ids.rule_sets
    assert info.value.name == "kirk2" and "kirk2" in str(info.value) and "holds kirk" in str(info.value)
    wrong_tags = Family(name="kirk3", title="Kirk misdeclared", rule_sets="rules:Kirk", rule_ids=("kirk",),
                        package="diamonds.families.kirk")
    with pytest.raises(FamilyMismatch):
        _ = wrong_tags.rule_sets


def test_an_engine_named_without_its_ids_is_refused_at_once() -> None:
    with pytest.raises(FamilyMismatch) as info:
        Family(name="vague", title="Vague", rule_sets="rules:Kirk", package="diamonds.families.kirk")
    assert info.value.name == "vague"


def test_validating_one_family_loads_no_other_engine() -> None:
    probe = ("import sys\nfrom diamonds.cli.main import main\ncode = main(['validate', sys.argv[1]])\n"
             "print(code, sorted({m.split('.')[2] for m in sys.modules if m.startswith('diamonds.families.')"
             " and '.rules' in m}))")
    done = subprocess.run([sys.executable, "-c", probe, str(SAMPLES / "kirk-4p-hands.dgn")], capture_output=True,
                          text=True, check=True)
    assert done.stdout.split("\n")[-2] == "0 ['kirk']", done.stdout
