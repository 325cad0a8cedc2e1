"""The generic writer of a plain trick game (replay.record.trick_game_record) needs nothing of a family beyond the
protocol: Kirk's game, a plain trick game with its own writer, is written the same by both, whole or unfinished,
with and without deal lines; and what it writes validates."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from diamonds.core import ConfigError, families, family_of, play_random_game, rules_for, simulate
from diamonds.notation import parse_game
from diamonds.notation.records import ResultEntry
from diamonds.notation.tags import format_result
from diamonds.notation.writer import write_game
from diamonds.replay import validate_record
from diamonds.replay.record import result_value, trick_game_record


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("deals", [True, False])
def test_the_generic_writer_writes_kirks_games_as_kirks_own_writer_does(seed: int, deals: bool) -> None:
    whole = simulate(rules="kirk", seed=seed, options={"Hands": "2"})
    unfinished = play_random_game(whole.config, random.Random(seed), stop_after=30 + 17 * seed)
    own = family_of("kirk").part("bridge").record_from_game
    for game in (whole, unfinished):
        text = write_game(trick_game_record(game, deals=deals))
        assert text == write_game(own(game, deals=deals))
        checked = validate_record(parse_game(text))
        assert checked.valid, checked.problems


@pytest.mark.parametrize("rules", sorted({rule_set for family in families() for rule_set in family.rule_ids}))
def test_the_result_written_for_a_finished_game_is_the_canonical_writers(rules: str) -> None:
    """`result_value` writes a game's Result from its seats (every valid game's tag is compared with it); it is
    what the canonical writer's `format_result` writes for the same sides and scores, members given in any
    order, in every set-up a rule set allows (teams included), with scores of every sign."""
    rng = random.Random(rules)
    rule_set = rules_for(rules)
    for count in range(2, 7):
        for variants in ((), ("partnership",)):
            try:
                config = rule_set.configure([f"P{seat}x" for seat in range(count)], variants=variants)
            except ConfigError:
                continue
            standings = [SimpleNamespace(side=side, score=rng.randint(-60, 120)) for side in range(config.side_count)]
            rng.shuffle(standings)
            entries = tuple(ResultEntry(tuple(rng.sample([config.players[s] for s in config.sides[r.side]],
                                                         len(config.sides[r.side]))), r.score) for r in standings)
            assert result_value(config, standings) == format_result(entries, config.players)
