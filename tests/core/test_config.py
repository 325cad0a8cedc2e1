"""diamonds_core.config: the derived set-up of every rule set × player count × variant, and refusals.

Expected values come from the rulings, written out by hand in the tables below
(R4 rounds, R5 hands and decks, R8 plays per trick, R11 tricks, R13–R15 Thief,
R7 leader).
"""

from __future__ import annotations

import itertools

import pytest

from diamonds.core import ConfigError
from diamonds.families.fitzgerald.rules import Variant, configure

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]

# (players, perfect) -> rounds (R4), hand size (R5), tricks (R11), plays per trick (R8), deck size, top rank
DERIVED = {
    (2, False): (4, 10, 5, 4, 60, 15),
    (3, False): (6, 10, 10, 3, 60, 15),
    (4, False): (4, 10, 10, 4, 60, 15),
    (5, False): (5, 10, 10, 5, 60, 15),
    (6, False): (6, 10, 10, 6, 60, 15),
    (2, True): (4, 16, 8, 4, 32, 8),
    (3, True): (6, 12, 12, 3, 36, 9),
    (4, True): (4, 13, 13, 4, 52, 13),
    (5, True): (5, 12, 12, 5, 60, 15),
}
# Partnership teams: partners sit opposite (R6: passes go to the partner).
TEAMS = {4: ((0, 2), (1, 3)), 6: ((0, 3), (1, 4), (2, 5))}


def _combinations():
    for rules, n, partnership, perfect in itertools.product(
            ["1e", "2e", "bga"], range(2, 7), [False, True], [False, True]):
        if partnership and n not in (4, 6):
            continue
        if perfect and n == 6:
            continue
        yield rules, n, partnership, perfect


@pytest.mark.parametrize("rules, n, partnership, perfect", list(_combinations()))
def test_derived_values(rules, n, partnership, perfect):
    variants = [v for v, on in (("partnership", partnership), ("perfect", perfect)) if on]
    config = configure(NAMES[:n], rules=rules, variants=variants)
    rounds, hand, tricks, plays, deck_size, top = DERIVED[n, perfect]
    assert config.rules == rules
    assert config.players == tuple(NAMES[:n]) and config.player_count == n
    assert (config.rounds, config.hand_size, config.tricks_per_round, config.plays_per_trick) == (
        rounds, hand, tricks, plays)
    assert len(config.deck) == deck_size and max(c.rank for c in config.deck) == top
    assert len(set(config.deck)) == deck_size
    assert config.partnership is partnership and config.perfect is perfect
    sides = TEAMS[n] if partnership else tuple((seat,) for seat in range(n))
    assert config.sides == sides
    assert config.side_count == len(sides)
    assert config.side_of == tuple(next(i for i, side in enumerate(sides) if seat in side) for seat in range(n))
    # R13/R14: the Thief with 2e and bga, 3 to 6 players, no partnership.
    assert config.uses_thief is (rules != "1e" and n >= 3 and not partnership)
    # R7 and R15: only bga lets the dealer lead and resets the Thief.
    assert config.dealer_leads is (rules == "bga")
    assert config.thief_resets_each_round is (rules == "bga")
    assert [config.start_showroom(side) for side in range(config.side_count)] == [
        6 if partnership else 3] * len(sides)  # R2
    assert config.first_dealer == 0


def test_variants_may_be_given_as_text_in_any_case_or_as_values():
    a = configure(NAMES[:4], variants=["Partnership", " PERFECT "])
    b = configure(NAMES[:4], variants=[Variant.PERFECT, Variant.PARTNERSHIP])
    assert a == b
    assert a.variants == frozenset({Variant.PARTNERSHIP, Variant.PERFECT})
    assert a.variant_text == "partnership,perfect"
    assert configure(NAMES[:3]).variant_text == ""


def test_default_rule_set_is_2e():
    assert configure(NAMES[:3]).rules == "2e"


@pytest.mark.parametrize("players, variants, rules, message", [
    (NAMES[:6], ["perfect"], "2e", "the perfect variant is for 2 to 5 players, not 6"),
    (NAMES[:5], ["partnership"], "2e", "the partnership variant needs 4 or 6 players, not 5"),
    (NAMES[:3], ["partnership"], "1e", "the partnership variant needs 4 or 6 players, not 3"),
    (NAMES[:2], ["partnership"], "bga", "the partnership variant needs 4 or 6 players, not 2"),
    (NAMES[:1], [], "2e", "Diamonds is for 2 to 6 players, not 1"),
    (NAMES + ["Gus"], [], "2e", "Diamonds is for 2 to 6 players, not 7"),
    ([], [], "2e", "Diamonds is for 2 to 6 players, not 0"),
    (NAMES[:3], ["teams"], "2e", "unknown variant 'teams' (known: partnership, perfect)"),
    (NAMES[:3], [], "3e", "unknown Fitzgerald edition '3e' (known: 1e, 2e, bga)"),
    (NAMES[:3], [], "2E", "unknown Fitzgerald edition '2E' (known: 1e, 2e, bga)"),
])
def test_refused_combinations(players, variants, rules, message):
    with pytest.raises(ConfigError) as info:
        configure(players, rules=rules, variants=variants)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("players, twice", [
    (["Ann", "Bob", "ann"], "Ann"),
    (["Ann", "BOB", "Cat", "bob"], "BOB"),
    (["Ann", "Ann"], "Ann"),
])
def test_duplicate_ids_are_refused_ignoring_case(players, twice):
    with pytest.raises(ConfigError) as info:
        configure(players)
    assert str(info.value) == f"player {twice!r} is seated twice (ids must differ ignoring case)"


@pytest.mark.parametrize("bad", ["", "1Ann", "_Ann", "-x", "Ann Lee", "Ann!", "Ann+Cat", "Ánn", "A" * 17,
                                 "Ann\n", "Ann.B"])
def test_bad_player_ids_are_refused(bad):
    with pytest.raises(ConfigError) as info:
        configure(["Bob", bad, "Cat"])
    assert str(info.value) == (f"{bad!r} is not a player id "
                               "(a letter, then up to 15 letters, digits, _ or -)")


@pytest.mark.parametrize("good", ["A", "a", "Ann_2", "x-y", "A" * 16, "ZoE9"])
def test_good_player_ids(good):
    assert configure(["Bob", good]).players == ("Bob", good)


@pytest.mark.parametrize("dealer, seat", [(None, 0), (2, 2), ("Cat", 2), ("cat", 2), ("BOB", 1), (0, 0)])
def test_first_dealer_by_seat_or_by_name_ignoring_case(dealer, seat):
    assert configure(NAMES[:3], dealer=dealer).first_dealer == seat


@pytest.mark.parametrize("dealer, message", [
    (3, "dealer seat 3 does not exist"),
    (-1, "dealer seat -1 does not exist"),
    ("Zed", "dealer 'Zed' is not one of the players"),
])
def test_unknown_dealer_is_refused(dealer, message):
    with pytest.raises(ConfigError) as info:
        configure(NAMES[:3], dealer=dealer)
    assert str(info.value) == message


def test_seats_left_pass_targets_and_dealers():
    config = configure(NAMES[:4], dealer="Cat")
    assert [config.left_of(s) for s in range(4)] == [1, 2, 3, 0]           # R1
    assert [config.pass_target(s) for s in range(4)] == [1, 2, 3, 0]       # R6: to the left
    assert [config.dealer_of_round(r) for r in range(1, 5)] == [2, 3, 0, 1]  # R4
    teams = configure(NAMES[:4], variants=["partnership"])
    assert [teams.pass_target(s) for s in range(4)] == [2, 3, 0, 1]        # R6: to the partner
    assert [teams.left_of(s) for s in range(4)] == [1, 2, 3, 0]            # play still goes left
    two = configure(NAMES[:2])
    assert [two.pass_target(s) for s in range(2)] == [1, 0]                # R6: to the opponent


def test_seat_of_prefers_the_exact_id_then_ignores_case():
    config = configure(["Ann", "Bob", "Cat"])
    assert config.seat_of("Bob") == 1
    assert config.seat_of("bOB") == 1
    assert config.seat_of("Dan") is None


def test_side_names():
    teams = configure(NAMES[:6], variants=["partnership"])
    assert [teams.side_name(side) for side in range(3)] == ["Ann+Dan", "Bob+Eve", "Cat+Fay"]
    solo = configure(NAMES[:3])
    assert [solo.side_name(side) for side in range(3)] == ["Ann", "Bob", "Cat"]


def test_config_is_frozen():
    config = configure(NAMES[:3])
    with pytest.raises(AttributeError):
        config.rounds = 1  # type: ignore[misc]
