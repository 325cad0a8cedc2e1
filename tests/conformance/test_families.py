"""The conformance suite: every rule set of every registered family, held to the one protocol.

Parametrized over `for family in FAMILIES for rules in family.rule_sets`, and
over the set-ups each rule set allows (player counts × variants that
`configure` accepts, plus the option set-ups its family's `invariants` part
lists), so a family gets all of it by being registered:

1. random playthroughs with checks after every step: `random_move` is legal,
   `apply` is pure, `Engine.push`/`pop` restore states exactly, the game ends
   within a bound, standings are well formed, and the family's invariants
   (its `invariants` part, a `FamilyInvariants`; a family without one fails);
2. at sampled states, every card not legal now (of the game's deck, and a few
   of no deck of this game), every move of a kind not due now, and at a deal
   a card dealt twice or from no deck of this game, are refused by `apply`
   and `Engine.push` with an `IllegalMove` carrying its data fields, and
   nothing changes;
3. record → DGN → record round trips (with and without deal lines, and for an
   unfinished game), and the records validate and replay to the same scores;
4. the JSON export reports the engine's standings (every set-up) and
   validates against its schema (a representative set-up per shape: the
   validation is the slowest check of the file);
5. registry hygiene: unique rule ids, every layer's part loads, the engine
   imports no lark, rich or json, and no engine module has an import cycle.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import importlib
import itertools
import json
import pickle
import pkgutil
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import pytest
from schemacheck import schema_errors

import diamonds
import diamonds.core
from diamonds.core import Engine
from diamonds.core.cards import JOKER, Card, numbered_cards, standard_cards
from diamonds.core.errors import GameOver, IllegalMove, WrongPhase
from diamonds.core.family import (
    REQUIRED_PARTS,
    STANDARD_PARTS,
    CardPlayedEvent,
    CardsDealtEvent,
    Family,
    FamilyInvariants,
    Rules,
    SideResult,
    TrickWonEvent,
)
from diamonds.core.registry import FAMILIES, RULE_SETS, family_of, rules_for
from diamonds.core.seating import ConfigError, Seating
from diamonds.core.simulate import default_names, play_random_game

# --------------------------------------------------------------------------- set-ups

PLAY_SEEDS = (1, 2)  # part 1: whole games checked step by step
ROUND_TRIP_SEEDS = (1,)  # part 3 (and an unfinished game of seed 5)
REFUSAL_SEED = 11  # part 2: one game per set-up, sampled
MAX_SAMPLED_STATES = 30  # part 2: states per game
SAMPLE_STRIDE = 23  # part 2: besides the first state of each kind, every 23rd ply


@dataclass(frozen=True)
class Setup:
    family: Family
    rules: type[Rules]
    players: int
    variants: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()

    @property
    def id(self) -> str:
        text = f"{self.rules.id}-{self.players}p"
        text += "".join(f"-{variant}" for variant in self.variants)
        text += "".join(f"-{name}={value}" for name, value in self.options)
        return text

    def config(self, seed: int = 0) -> Any:
        names = default_names(self.players)
        return self.rules.configure(names, variants=self.variants, dealer=seed % self.players,
                                    options=dict(self.options))


def _variant_sets(rules: type[Rules]) -> Iterator[tuple[str, ...]]:
    words = tuple(rules.variants)
    for size in range(len(words) + 1):
        yield from itertools.combinations(words, size)


def _accepted(setup: Setup) -> bool:
    try:
        setup.config()
    except ConfigError:
        return False
    return True


def setups_of(family: Family, rules: type[Rules]) -> list[Setup]:
    """Every player count × variant set the rule set accepts, and its family's option set-ups."""
    found = [
        setup
        for players in rules.player_counts
        for variants in _variant_sets(rules)
        if _accepted(setup := Setup(family, rules, players, variants))
    ]
    entry = family.part("invariants", None)
    for options in entry.extra_options if entry else ():
        found.append(Setup(family, rules, rules.default_players, (), tuple(sorted(options.items()))))
    return found


RULE_SET_PARAMS = [
    pytest.param(family, rules, id=f"{family.name}-{rules.id}") for family in FAMILIES for rules in family.rule_sets
]
SETUPS = [setup for family in FAMILIES for rules in family.rule_sets for setup in setups_of(family, rules)]
SETUP_PARAMS = [pytest.param(setup, id=setup.id) for setup in SETUPS]
FAMILY_PARAMS = [pytest.param(family, id=family.name) for family in FAMILIES]


def invariants_for(family: Family) -> FamilyInvariants:
    entry = family.part("invariants", None)
    if not isinstance(entry, FamilyInvariants):
        pytest.fail(
            f"family {family.name!r} is registered without an `invariants` part (a FamilyInvariants): add its "
            "conserved quantities, a bound on a game's moves and its winners rule (see "
            "diamonds/families/kirk/invariants.py)",
            pytrace=False,
        )
    return entry


def load_part(family: Family, which: str) -> Any:
    """A family's layer part, or a failure that says which name does not load and why."""
    spec = f"{family.package}.{family.parts.get(which)}"
    failure: str | None
    try:
        part = family.part(which)
    except Exception as error:  # noqa: BLE001 - any failure to load is the finding
        failure = f"{type(error).__name__}: {error}"
    else:
        failure = None
    if failure is not None:
        pytest.fail(f"family {family.name!r}: its {which} {spec!r} does not load: {failure}", pytrace=False)
    if part is None:
        pytest.fail(f"family {family.name!r}: its {which} {spec!r} is None", pytrace=False)
    return part


@cache
def finished_game(setup: Setup, seed: int) -> Engine:
    """A whole random game of the set-up (shared by the tests that only read it)."""
    config = setup.config(seed)
    return play_random_game(config, random.Random(seed))


# --------------------------------------------------------------------------- shared checks


def check_standings(config: Any, standings: Any, *, final: bool) -> None:
    """One `SideResult` per side, in side order; at the end the winners hold the best score."""
    assert isinstance(standings, tuple), f"standings are a tuple, not {type(standings).__name__}"
    assert len(standings) == config.side_count, f"{len(standings)} standings for {config.side_count} sides"
    for side, standing in enumerate(standings):
        assert isinstance(standing, SideResult), f"{standing!r} is not a SideResult"
        assert standing.side == side, f"standings in side order: entry {side} is side {standing.side}"
        assert type(standing.score) is int, f"score {standing.score!r} is not an int"
        assert type(standing.winner) is bool, f"winner {standing.winner!r} is not a bool"
    if final:
        best = max(standing.score for standing in standings)
        winners = [standing for standing in standings if standing.winner]
        assert winners, "a finished game has a winner"
        assert all(standing.score == best for standing in winners), (
            f"winners {[w.side for w in winners]} do not all have the best score {best}: {standings}"
        )


def is_listed(rules: type[Rules], state: Any, move: Any, legal: tuple[Any, ...]) -> bool:
    """`move` is one of `legal`, or a listed move spelt with its cards in another order, and accepted.

    The second case admits Fitzgerald's random pass, which draws its cards in
    random order where `legal_moves` lists each pass once, in hand order.
    (The two are not interchangeable values: `State.passed` keeps the order.)
    """
    if move in legal:
        return True
    if not any(type(other) is type(move) and _same_but_order(move, other) for other in legal):
        return False
    rules.apply(state, move)  # an IllegalMove here fails the test with its reason
    return True


def _same_but_order(a: Any, b: Any) -> bool:
    """Two moves whose fields are equal, tuples taken as multisets."""
    kind: Any = type(a)
    if not dataclasses.is_dataclass(a):
        return bool(a == b)
    for name in _field_names(kind):
        x, y = getattr(a, name), getattr(b, name)
        if x == y:
            continue
        if not (isinstance(x, tuple) and isinstance(y, tuple) and len(x) == len(y) and Counter(x) == Counter(y)):
            return False
    return True


@cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind))


_ATOMS = {str, int, float, bool, type(None), Card, type(JOKER), frozenset}


def fingerprint(value: Any) -> Any:
    """What a value holds, all the way down, to compare it with itself later (a fast deep copy).

    Atoms, frozensets (whose items are hashable: cards) and configurations
    (`Seating`: frozen, cached values shared by every state) are kept as they
    are. Anything else is taken apart, and anything mutable (a list, set or
    dict) copied, so that an `apply` that changes the state passed in shows.
    """
    kind: Any = type(value)
    if kind in _ATOMS or isinstance(value, (Seating, enum.Enum)):
        return value
    if kind is tuple:
        if all(type(item) in _ATOMS for item in value):
            return value
        return tuple(map(fingerprint, value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (kind, tuple(fingerprint(getattr(value, name)) for name in _field_names(kind)))
    if isinstance(value, (list, set, tuple)):
        return (kind, [fingerprint(item) for item in value])
    if isinstance(value, dict):
        return (dict, [(fingerprint(k), fingerprint(v)) for k, v in value.items()])
    return copy.deepcopy(value)


def describe(setup: Setup, seed: int, ply: int) -> str:
    return f"{setup.id} seed {seed} ply {ply}"


# --------------------------------------------------------------------------- 0. every family has invariants


@pytest.mark.parametrize("family", FAMILY_PARAMS)
def test_family_has_invariants(family: Family) -> None:
    invariants_for(family)


@pytest.mark.parametrize("family, rules", RULE_SET_PARAMS)
def test_rule_set_has_setups(family: Family, rules: type[Rules]) -> None:
    """The usual set-up (default players, no variant) configures, so the suite plays the rule set at all."""
    setups = setups_of(family, rules)
    assert any(s.players == rules.default_players and not s.variants and not s.options for s in setups), (
        f"{rules.id}: {rules.default_players} players without variants does not configure"
    )
    config = Setup(family, rules, rules.default_players).config()
    assert config.rules == rules.id
    assert config.player_count == rules.default_players
    assert config.side_count == len(config.sides) and len(config.side_of) == config.player_count


# --------------------------------------------------------------------------- 1. random playthroughs


@pytest.mark.parametrize("seed", PLAY_SEEDS)
@pytest.mark.parametrize("setup", SETUP_PARAMS)
def test_random_playthrough(setup: Setup, seed: int) -> None:
    invariants = invariants_for(setup.family)
    rules = setup.rules
    config = setup.config(seed)
    bound = invariants.max_moves(config)
    rng = random.Random(seed)
    game = Engine(config)
    # The same moves on an engine that keeps a snapshot only every few moves, as `Position` does: its answers
    # come from the table where the family's table gives them (`answers_turns`), and its steps back replay.
    lazy = Engine(config, snapshot_every=5)
    assert game.rules is rules
    state = game.state
    invariants.state(state)
    check_standings(config, rules.standings(state), final=False)
    while not rules.is_over(state):
        ply = len(game)
        where = describe(setup, seed, ply)
        assert not game.is_over, f"{where}: the table says over, the rules do not"
        assert ply < bound, f"{where}: no end after {bound} moves (the family's bound)"
        mover = rules.to_move(state)
        legal = rules.legal_moves(state)
        assert isinstance(legal, tuple), f"{where}: legal_moves returns a tuple"
        move = rules.random_move(state, rng)
        if mover is None:
            assert legal == (), f"{where}: a chance move (to_move None) lists no decisions, got {legal[:3]}"
        else:
            assert 0 <= mover < config.player_count, f"{where}: to_move {mover} is no seat"
            assert legal, f"{where}: {config.players[mover]} is to move but nothing is legal"
            assert is_listed(rules, state, move, legal), f"{where}: random_move drew {move!r}, not a legal move"

        # What a playout asks at every decision, from the table or the snapshot, is the rules' answer.
        for engine in (game, lazy):
            assert engine.seat_to_act() == mover, f"{where}: the engine's seat to act is not to_move"
            assert engine.moves_to_act() == ([] if mover is None else list(rules.moves_of(state, mover))), \
                f"{where}: the engine's moves to act are not moves_of the seat to move"
            assert engine.is_chance() == rules.is_chance(state), f"{where}: the engine's is_chance differs"

        # apply is pure: the state passed in is unchanged, and the same move gives the same result.
        held = fingerprint(state)
        after, events = rules.apply(state, move)
        assert fingerprint(state) == held, f"{where}: apply({move!r}) changed the state passed in"
        again, events_again = rules.apply(state, move)
        assert again == after and events_again == events, f"{where}: apply({move!r}) twice gave different results"

        # Game.push plays the same move as apply; pop restores the previous state exactly.
        pushed = game.push(move)
        assert game.state == after, f"{where}: Game.push({move!r}) and Rules.apply disagree"
        assert tuple(pushed) == tuple(events), f"{where}: Game.push({move!r}) and Rules.apply give other events"
        assert game.standings() == rules.standings(after), f"{where}: the table's standings differ from the rules'"
        assert game.pop() == move
        assert len(game) == ply and game.state == state, f"{where}: pop after {move!r} did not restore the state"
        assert game.table.freeze() == state, f"{where}: pop did not restore the table"
        game.push(move)
        assert game.state == after and game.state_at(ply) == state
        lazy.push(move)

        invariants.step(state, move, after, events)
        invariants.state(after)
        check_standings(config, rules.standings(after), final=False)
        state = after

    where = describe(setup, seed, len(game))
    assert game.is_over, f"{where}: the rules say over, the table does not"
    check_lazy_snapshots(game, lazy, rng, where)
    assert rules.to_move(state) is None, f"{where}: someone is to move in a finished game"
    assert rules.legal_moves(state) == (), f"{where}: moves are legal in a finished game"
    assert len(game) <= bound
    standings = rules.standings(state)
    check_standings(config, standings, final=True)
    invariants.final(state, standings)


def check_lazy_snapshots(game: Engine, lazy: Engine, rng: random.Random, where: str) -> None:
    """An engine that kept a snapshot only every few moves gives every state back as the one that kept each:
    read at random plies (each replayed from the last snapshot before it), copied there, and stepped back
    move by move from the end."""
    plies = len(game)
    assert lazy.moves == game.moves and lazy.state == game.state, f"{where}: the lazy engine's end differs"
    for ply in sorted(rng.sample(range(plies + 1), min(6, plies + 1)), reverse=True):
        assert lazy.state_at(ply) == game.state_at(ply), f"{where}: the lazy engine's state at ply {ply} differs"
    ply = rng.randrange(plies + 1)
    twin = lazy.copy(ply)
    assert twin.state == game.state_at(ply) and twin.moves == game.moves[:ply], f"{where}: copy({ply}) differs"
    fresh = Engine(game.config, snapshot_every=5)
    for move in game.moves[:plies // 2]:
        fresh.push(move)
    while len(fresh):
        move = fresh.pop()
        assert move == game.moves[len(fresh)], f"{where}: pop gave another move"
        assert fresh.table.freeze() == game.state_at(len(fresh)), f"{where}: pop at {len(fresh)} restored another"
    assert fresh.state == game.state_at(0)


@pytest.mark.parametrize("family, rules", RULE_SET_PARAMS)
def test_card_events_are_known_by_their_type(family: Family, rules: type[Rules]) -> None:
    """Generic layers (the bots' public record, the environment) know a deal, a card played and a trick won by
    type, never by class name: every family's events of those kinds are the core's kinds, with their fields."""
    config = rules.configure(default_names(rules.default_players))
    game = Engine(config)
    rng = random.Random(7)
    deals = dealt = 0
    trick: list[tuple[int, Any]] = []
    won = 0
    while not game.is_over:
        chance = game.rules.is_chance(game.state)
        mover = game.rules.to_move(game.state)
        events = game.push(game.rules.random_move(game.state, rng))
        deals += chance
        for event in events:
            if isinstance(event, CardsDealtEvent):
                dealt += 1
            elif isinstance(event, CardPlayedEvent):
                played: Any = event
                assert played.seat == mover and played.trick_no >= 1, played
                if played.leads:
                    trick = []
                trick.append((played.seat, played.card))
            elif isinstance(event, TrickWonEvent):
                taken: Any = event
                assert list(taken.cards) == [card for _, card in trick], (taken, trick)
                assert taken.winner in {seat for seat, _ in trick} and taken.card in taken.cards, taken
                won += 1
    assert dealt == deals > 0 and won > 0  # a CardsDealtEvent per deal; tricks were won


# --------------------------------------------------------------------------- 2. illegal moves refused


def _card_fields(move: Any) -> tuple[str, ...]:
    """The fields of a move that name the card(s) a player plays, passes or takes."""
    if not dataclasses.is_dataclass(move):
        return ()
    names = {f.name for f in dataclasses.fields(move)}
    return tuple(name for name in ("card", "cards") if name in names)


def _departures(move: Any, skip: str) -> int:
    """How many of a move's other fields differ from their defaults (choices such as high/low, a suit)."""
    count = 0
    for f in dataclasses.fields(move):
        if f.name in (skip, "seat"):
            continue
        if f.default is dataclasses.MISSING or getattr(move, f.name) != f.default:
            count += 1
    return count


def _others(move: Any, skip: str) -> tuple[Any, ...]:
    return tuple(getattr(move, f.name) for f in dataclasses.fields(move) if f.name != skip)


def _uses(move: Any, field_name: str) -> tuple[Any, ...]:
    value = getattr(move, field_name)
    return tuple(value) if field_name == "cards" else (value,)


def wrong_card_moves(state: Any, legal: tuple[Any, ...], deck: tuple[Any, ...]) -> Iterator[tuple[Any, Any]]:
    """(move, card): for each card move kind legal now, the move with each card not legal now in it.

    The template is a legal move of the kind (the plainest one: no choices
    where the kind has defaults); a card is "legal now" if some legal move of
    the kind with the template's other fields (e.g. the same seat) uses it.
    The cards tried are the deck's other cards and a few of no deck of this game.
    """
    universe = (*numbered_cards(1, 15), *standard_cards(2), JOKER)
    in_deck = set(deck)
    foreign = [card for card in universe if card not in in_deck]
    extra = [card for card in foreign if getattr(card, "court", False)][:1]
    extra += [card for card in foreign if not getattr(card, "court", True)][:1]
    extra += [JOKER] if JOKER not in in_deck else []
    by_kind: dict[type, list[Any]] = {}
    for move in legal:
        if _card_fields(move):
            by_kind.setdefault(type(move), []).append(move)
    for moves in by_kind.values():
        field_name = _card_fields(moves[0])[0]
        template: Any = min(moves, key=lambda m: _departures(m, field_name))
        shape = _others(template, field_name)
        used = {card for m in moves if _others(m, field_name) == shape for card in _uses(m, field_name)}
        for card in [c for c in deck if c not in used] + extra:
            if field_name == "cards":
                wrong = dataclasses.replace(template, cards=(card, *template.cards[1:]))
            else:
                wrong = dataclasses.replace(template, card=card)
            yield wrong, card


def corrupt_deals(deal: Any, deck: tuple[Any, ...]) -> Iterator[tuple[Any, Any]]:
    """(deal, card): a chance deal with one card dealt twice, and with a card of no deck of this game."""
    if not dataclasses.is_dataclass(type(deal)):
        return
    for f in dataclasses.fields(deal):
        hands = getattr(deal, f.name)
        if (isinstance(hands, tuple) and len(hands) >= 2 and all(isinstance(h, tuple) and h for h in hands)
                and all(card in set(deck) for h in hands for card in h)):
            twice = hands[1][0]
            yield dataclasses.replace(deal, **{f.name: ((twice, *hands[0][1:]), *hands[1:])}), twice
            foreign = next(c for c in (*numbered_cards(1, 15), *standard_cards(2), JOKER) if c not in set(deck))
            yield dataclasses.replace(deal, **{f.name: ((foreign, *hands[0][1:]), *hands[1:])}), foreign
            return


def expect_refusal(rules: type[Rules], game: Engine, state: Any, held: Any, move: Any, where: str, *,
                   card: Any = None, wrong_phase: bool = False) -> None:
    """`apply` and `Game.push` both refuse `move` with a well-formed `IllegalMove`, and change nothing."""
    try:
        rules.apply(state, move)
    except IllegalMove as caught:
        error = caught
    except Exception as other:  # noqa: BLE001
        pytest.fail(f"{where}: apply({move!r}) raised {type(other).__name__}: {other}, not an IllegalMove")
    else:
        pytest.fail(f"{where}: apply accepted {move!r}, which legal_moves does not list")
    what = f"{where}: refusing {move!r} ({type(error).__name__})"
    assert isinstance(error.reason, str) and error.reason.strip(), f"{what}: no reason"
    assert isinstance(error.rule, str) and error.rule.strip(), f"{what}: no rule id"
    assert isinstance(error.code, str) and error.code.strip(), f"{what}: no code"
    if card is not None:
        assert error.card is card or error.card == card, f"{what}: its card field is {error.card!r}, not {card!r}"
    if wrong_phase:
        expected = GameOver if rules.is_over(state) else WrongPhase
        assert isinstance(error, expected), f"{what}: a move of a kind not due now is a {expected.__name__}"
    assert fingerprint(state) == held, f"{what}: apply changed the state passed in"
    # A refusal in a worker process reaches its caller as itself, fields and all (it could not be unpickled).
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error) and str(again) == str(error) and vars(again) == vars(error), what
    moves = len(game)
    try:
        game.push(move)
    except IllegalMove as pushed:
        assert type(pushed) is type(error), f"{what}: Game.push refuses it as {type(pushed).__name__}"
    else:
        pytest.fail(f"{what}: Game.push accepted it")
    assert len(game) == moves and game.state == state, f"{what}: Game.push changed the game"
    assert game.table.freeze() == state, f"{what}: the refused move changed the table"


@pytest.mark.parametrize("setup", SETUP_PARAMS)
def test_illegal_moves_refused(setup: Setup) -> None:
    rules = setup.rules
    seed = REFUSAL_SEED
    played = finished_game(setup, seed)
    config = played.config
    deck = tuple(config.deck)  # every family's configuration names its deck
    examples: dict[type, Any] = {}
    for move in played.moves:
        examples.setdefault(type(move), move)
    rng = random.Random(seed + 1)

    game = Engine(config)
    seen: set[Any] = set()
    sampled = 0
    kinds_refused: set[type] = set()
    cards_tried = 0
    for ply in range(len(played) + 1):
        state = game.state
        over = rules.is_over(state)
        legal = rules.legal_moves(state)
        chance = not over and rules.to_move(state) is None
        due = {type(m) for m in legal}
        chance_move = rules.random_move(state, rng) if chance else None
        if chance_move is not None:
            due.add(type(chance_move))
        signature = (chance, frozenset(due), over)
        if over or (sampled < MAX_SAMPLED_STATES and (signature not in seen or ply % SAMPLE_STRIDE == 0)):
            seen.add(signature)
            sampled += 1
            where = describe(setup, seed, ply)
            held = fingerprint(state)
            for move, card in wrong_card_moves(state, legal, deck):
                assert move not in legal
                expect_refusal(rules, game, state, held, move, where, card=card)
                cards_tried += 1
            for kind, example in examples.items():
                if kind not in due:
                    expect_refusal(rules, game, state, held, example, where, wrong_phase=True)
                    kinds_refused.add(kind)
            if chance_move is not None:
                for move, card in corrupt_deals(chance_move, deck):
                    expect_refusal(rules, game, state, held, move, where, card=card)
        if ply < len(played):
            game.push(played.moves[ply])
    assert game.is_over and game.state == played.state
    assert cards_tried, "no legal move names a card in a field `card` or `cards`: no wrong card was tried"
    assert kinds_refused == set(examples), (
        f"never tried out of phase: {sorted(k.__name__ for k in set(examples) - kinds_refused)}"
    )


# --------------------------------------------------------------------------- 3. record → DGN → record


def _round_trip(game: Engine, *, deals: bool) -> tuple[Any, Any]:
    from diamonds.notation import parse_game
    from diamonds.notation.writer import write_game
    from diamonds.replay import record_from_game

    record = record_from_game(game, deals=deals)
    text = write_game(record)
    parsed = parse_game(text)
    assert not parsed.problems, f"the written record does not parse: {parsed.problems[:3]}\n{text}"
    assert parsed == record, "record → DGN → record changed the record"
    assert write_game(parsed) == text, "writing the parsed record gives another text"
    return record, parsed


def _check_replays(game: Engine, parsed: Any, *, complete: bool) -> None:
    from diamonds.replay import replay_record, validate_record

    checked = validate_record(parsed)
    assert checked.valid, f"the record does not validate: {[(p.code, p.rule, p.message) for p in checked.problems]}"
    assert checked.complete == complete, f"complete is {checked.complete}, the game is over: {complete}"
    replayed = replay_record(parsed)
    assert replayed.valid and replayed.game is not None
    assert replayed.game.is_over == game.is_over
    assert replayed.game.standings() == game.standings(), "the replay scores the record differently"
    # An export's replay (events, no history) plays the written tricks in runs: the same moves and, move
    # by move, the same events as the card-by-card replay with history.
    exported = replay_record(parsed, history=False)
    assert exported.valid and exported.game is not None
    assert exported.game.moves == replayed.game.moves
    assert exported.game.events == replayed.game.events, "the run's events differ from the moves' own"


@pytest.mark.parametrize("seed", ROUND_TRIP_SEEDS)
@pytest.mark.parametrize("setup", SETUP_PARAMS)
def test_dgn_round_trip(setup: Setup, seed: int) -> None:
    load_part(setup.family, "bridge")
    game = finished_game(setup, seed)
    for deals in (True, False):  # without deal lines the replay infers the deals
        _, parsed = _round_trip(game, deals=deals)
        _check_replays(game, parsed, complete=True)


@pytest.mark.parametrize("setup", SETUP_PARAMS)
def test_dgn_round_trip_unfinished(setup: Setup) -> None:
    """A game stopped part-way (with its deal lines) round trips and validates, not complete."""
    load_part(setup.family, "bridge")
    whole = finished_game(setup, 1)
    seed = 5
    game = play_random_game(setup.config(seed), random.Random(seed), stop_after=len(whole) * 3 // 5)
    assert not game.is_over
    _, parsed = _round_trip(game, deals=True)
    _check_replays(game, parsed, complete=False)


# --------------------------------------------------------------------------- 4. export


def _export_module() -> Any:
    """`diamonds.replay.export`, skipping only if that module itself does not exist yet."""
    try:
        return importlib.import_module("diamonds.replay.export")
    except ModuleNotFoundError as error:
        if error.name == "diamonds.replay.export":
            pytest.skip("diamonds.replay.export does not exist yet")
        raise


def _representative(setups: list[Setup]) -> list[Setup]:
    """The exports that differ in shape: per rule set its fewest players; per family each variant set
    and option set-up once, with the most players that allow it, the family's rule sets taken in turn."""
    chosen: dict[Any, Setup] = {}
    for setup in setups:
        key = (setup.rules, "fewest")
        if key not in chosen or setup.players < chosen[key].players:
            chosen[key] = setup
    for family in FAMILIES:
        shapes = sorted({(s.variants, s.options) for s in setups if s.family is family})
        for turn, shape in enumerate(shapes):
            rules = family.rule_sets[turn % len(family.rule_sets)]
            fitting = [s for s in setups if s.rules is rules and (s.variants, s.options) == shape]
            if fitting:
                chosen[family.name, shape] = max(fitting, key=lambda s: s.players)
    kept = set(chosen.values())
    return [setup for setup in setups if setup in kept]


SCHEMA_PARAMS = [pytest.param(setup, id=setup.id) for setup in _representative(SETUPS)]


def _exported(setup: Setup) -> tuple[Engine, dict[str, Any]]:
    from diamonds.replay import record_from_game, replay_record

    export = _export_module()
    load_part(setup.family, "export")
    game = finished_game(setup, 1)
    replayed = replay_record(record_from_game(game))
    assert replayed.valid and replayed.complete
    doc = export.game_to_dict(replayed)
    json.dumps(doc)  # plain data
    return game, doc


@pytest.mark.parametrize("setup", SETUP_PARAMS)
def test_export_standings_are_the_engines(setup: Setup) -> None:
    game, doc = _exported(setup)
    config = game.config
    exported = [(entry["side"], entry["score"], entry["winner"]) for entry in doc["result"]["standings"]]
    engine = [(config.side_name(s.side), s.score, s.winner) for s in game.standings()]
    assert exported == engine, "the export's standings are not the engine's"


@pytest.mark.parametrize("setup", SCHEMA_PARAMS)
def test_export_valid_against_schema(setup: Setup) -> None:
    _, doc = _exported(setup)
    errors = schema_errors(doc)  # the project's checker (tests/schemacheck.py), kept per registry
    assert not errors, "the export does not validate:\n" + "\n".join(f"  {error[:200]}" for error in errors[:5])


# --------------------------------------------------------------------------- 5. registry hygiene


def test_rule_ids_unique() -> None:
    ids = Counter(rules.id for family in FAMILIES for rules in family.rule_sets)
    assert not [rule_id for rule_id, count in ids.items() if count > 1], f"rule ids registered twice: {ids}"
    classes = Counter(rules for family in FAMILIES for rules in family.rule_sets)
    assert all(count == 1 for count in classes.values()), "a Rules class is registered twice"
    names = Counter(family.name for family in FAMILIES)
    assert all(count == 1 for count in names.values()), f"family names registered twice: {names}"
    assert set(RULE_SETS) == set(ids) and len(RULE_SETS) == sum(ids.values())


PROTOCOL = ("configure", "initial_state", "legal_moves", "apply", "is_over", "to_move", "standings", "random_move")


def _unanswered(setup: Setup) -> list[str]:
    """The PROTOCOL methods that answer with `Rules`' default (NotImplementedError) on the rule set's own set-up.

    Each is called, not looked up: whether a class overrides a method is no behaviour (and a compiled class
    method has no `__func__` to compare)."""
    rules, missing = setup.rules, []

    def ask(name: str, *args: Any) -> Any:
        try:
            return getattr(rules, name)(*args)
        except NotImplementedError:
            missing.append(name)
            return None

    config = ask("configure", default_names(setup.players))
    state = ask("initial_state", config) if config is not None else None
    if state is None:
        return missing  # nothing further can be asked without a state
    for name in ("is_over", "to_move", "legal_moves", "standings"):
        ask(name, state)
    move = ask("random_move", state, random.Random(0))
    if move is not None:  # (else it is already reported)
        ask("apply", state, move)
    return missing


@pytest.mark.parametrize("family, rules", RULE_SET_PARAMS)
def test_rule_set_declares_the_protocol(family: Family, rules: type[Rules]) -> None:
    assert issubclass(rules, Rules)
    assert isinstance(rules.id, str) and rules.id.strip() == rules.id and rules.id, f"rule id {rules.id!r}"
    assert rules.family == family.name, f"{rules.id}: family {rules.family!r}, registered under {family.name!r}"
    assert isinstance(rules.title, str) and rules.title
    assert rules.player_counts and all(type(n) is int and n >= 1 for n in rules.player_counts)
    assert rules.default_players in rules.player_counts
    assert all(isinstance(v, str) and v for v in rules.variants)
    assert all(isinstance(t, str) and t for t in rules.option_tags)
    assert isinstance(rules.rounds_word, str) and rules.rounds_word
    missing = _unanswered(setups_of(family, rules)[0])
    assert not missing, f"{rules.id} does not implement {missing}"
    assert rules_for(rules.id) is rules and family_of(rules.id) is family


#: Every part of the parts contract (diamonds.core.family.STANDARD_PARTS). A family must have the required ones
#: (REQUIRED_PARTS); an optional one it has must load (one it lacks is a command's one-line refusal, exit 2,
#: which tests/conformance/test_every_command.py checks).
LOADED_PARTS = sorted(STANDARD_PARTS)


@pytest.mark.parametrize("which", LOADED_PARTS)
@pytest.mark.parametrize("family", FAMILY_PARAMS)
def test_family_parts_load(family: Family, which: str) -> None:
    if which not in REQUIRED_PARTS:
        try:
            part = family.part(which, None)
        except Exception as error:  # noqa: BLE001 - a part that is there but does not load is the finding
            pytest.fail(f"family {family.name!r}: its {which} part does not load: {type(error).__name__}: {error}",
                        pytrace=False)
        if part is None:
            return  # optional, and this family has none
    part = load_part(family, which)
    if which == "bridge":
        assert hasattr(part, "replayer") and hasattr(part, "record_from_game"), (
            f"family {family.name!r}: its bridge {family.parts['bridge']!r} is not a Bridge (replayer, record_from_game)"
        )


def _engine_modules() -> list[str]:
    found = ["diamonds.core"]
    for info in pkgutil.walk_packages(diamonds.core.__path__, "diamonds.core."):
        found.append(info.name)
    return sorted(found)


ENGINE_MODULES = _engine_modules()
FORBIDDEN = ("lark", "rich", "json")  # the engine knows no text formats, terminals or JSON
OTHER_LAYERS = ("diamonds.notation", "diamonds.replay", "diamonds.cli")


@lru_cache(maxsize=1)
def _engine_import_report() -> tuple[list[str], list[str]]:
    """In a fresh interpreter: every module importing the whole engine loads, and then, for each engine
    module, what goes wrong importing it first into an interpreter holding no diamonds module."""
    code = (
        "import importlib, sys\n"
        f"names = {ENGINE_MODULES!r}\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "print('\\n'.join('module ' + m for m in sorted(sys.modules)))\n"
        "for name in names:\n"
        "    for loaded in [m for m in sys.modules if m == 'diamonds' or m.startswith('diamonds.')]:\n"
        "        del sys.modules[loaded]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as error:\n"
        "        print(f'failure {name}: {type(error).__name__}: {error}')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"importing the engine fails:\n{done.stderr}"
    lines = done.stdout.splitlines()
    modules = [line.split(" ", 1)[1] for line in lines if line.startswith("module ")]
    failures = [line.split(" ", 1)[1] for line in lines if line.startswith("failure ")]
    return modules, failures


def test_engine_imports_no_lark_rich_or_json() -> None:
    modules, _ = _engine_import_report()
    assert "diamonds.core" in modules
    bad = sorted(m for m in modules if m.split(".")[0] in FORBIDDEN)
    assert not bad, f"importing every engine module also imports {bad}"
    layers = sorted(m for m in modules if m.startswith(OTHER_LAYERS))
    assert not layers, f"the engine imports other layers: {layers}"


def test_engine_modules_import_first() -> None:
    """Each engine module imports first, into an interpreter holding no diamonds module: no import cycle.

    One interpreter forgets every `diamonds` module before importing the next
    one first, which is what a fresh interpreter per module would check.
    """
    _, failures = _engine_import_report()
    assert not failures, "engine modules that do not import first:\n" + "\n".join(failures)


@pytest.mark.parametrize("family, rules", RULE_SET_PARAMS)
def test_every_value_pickles_and_copies_to_an_equal_one(family: Family, rules: type[Rules]) -> None:
    """Every state, move and event of a random game (and every dataclass in their fields) comes back equal, of
    the same class, through `pickle` and `copy.deepcopy`: in either build (compiled, a frozen dataclass's
    default pickling refused its values; diamonds/core/values.py), so a process pool can carry them."""
    setup = setups_of(family, rules)[0]
    rng = random.Random(11)
    game = Engine(setup.config(11))
    values: list[Any] = [game.state]
    while not rules.is_over(game.state) and len(values) < 4000:
        move = rules.random_move(game.state, rng)
        values += [move, *game.push(move), game.state]
    inner = [getattr(value, field.name) for value in values if dataclasses.is_dataclass(value)
             for field in dataclasses.fields(value)]
    values += [value for value in inner if dataclasses.is_dataclass(value)]
    kinds = {type(value) for value in values}
    assert len(kinds) >= 5, kinds
    for value in [*{type(value): value for value in values}.values(), *values[::50]]:
        for made in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
            assert type(made) is type(value) and made == value, type(value).__name__


@pytest.mark.parametrize("family, rules", RULE_SET_PARAMS)
def test_a_game_in_progress_pickles_and_copies_to_an_equal_one(family: Family, rules: type[Rules]) -> None:
    """An engine and a `Position` part-way through a game come back with the same moves, state, events and
    label, and play on alike (each was refused: compiled, an engine has no `__dict__`; a position holds the
    family's parts)."""
    setup = setups_of(family, rules)[0]
    rng = random.Random(12)
    for every in (1, 5):
        game = Engine(setup.config(12), snapshot_every=every)
        for _ in range(rng.randrange(10, 60)):
            if rules.is_over(game.state):
                break
            game.push(rules.random_move(game.state, rng))
        for made in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
            assert made.moves == game.moves and made.state == game.state and made.events == game.events
            assert made.snapshot_every == every and made.history == game.history
            if not made.is_over:
                move = rules.random_move(game.state, random.Random(1))
                assert made.push(move) == game.copy().push(move)
        position = diamonds.Position.from_engine(game)
        for again in (pickle.loads(pickle.dumps(position)), copy.deepcopy(position)):
            assert again == position and again.label == position.label and again.state == position.state
