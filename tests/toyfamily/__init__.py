"""The toy trick game (rulings T1-T7): a whole family in one folder, living only in tests/.

It is registered the way a separately installed game would be (entry-point
group `diamonds.families`, `toy = toyfamily:FAMILY`; see
tests/families/toy/test_toy_family.py), and must get every generic command
and the conformance suite from that registration alone. It is its rules
(`rules.py`: the engine, its rulings as data, its invariants); it plays with the
plain trick game's moves and events (diamonds.core.trick), so its other parts are
the house's. It has no bots and no figures of its own for `stats`: optional parts.
"""

from diamonds.core.family import Family

from .rules import Toy

__all__ = ["FAMILY"]

FAMILY = Family(name="toy", title="The toy trick game", rule_sets=(Toy,), package=__name__, parts={
    "invariants": "rules:INVARIANTS", "bridge": "diamonds.replay.plain:BRIDGE", "steps": "diamonds.replay.plain:build_steps",
    "marks": "diamonds.replay.plain:MARKS", "export": "diamonds.replay.plain:EXPORT",
    "tables": "diamonds.replay.plain:TABLES", "picture": "diamonds.svg.plain:PICTURE",
    "view": "diamonds.views.plain:VIEW", "words": "diamonds.notation.words:DEAL_LINES"})
