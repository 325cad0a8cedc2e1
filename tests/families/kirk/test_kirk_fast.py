"""Kirk's fast table (`kirk/fast.py`) against the pure `apply`, move by move, on random games.

The pure path is the definition: after every move the table's snapshot must
equal the pure state, its events the pure events, its standings the pure
standings; every illegal move must raise the same `IllegalMove` subclass
with the same message and data fields, and leave the table as it was. The
batched `play_run` must stop exactly where the pure path would refuse.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from diamonds.core.cards import JOKER, Card, Suit
from diamonds.core.errors import IllegalMove
from diamonds.families.kirk.rules import Deal, Kirk, Phase, PlayCard, State
from diamonds.families.kirk.rules.fast import KirkTable

PLAYERS = ("Ann", "Bob", "Cat", "Dan")
PACK = tuple(Card(rank, suit, rank > 10) for suit in Suit for rank in range(2, 15))
FOREIGN = (JOKER, Card(11, Suit.DIAMONDS), Card(1, Suit.HEARTS), Card(15, Suit.CLUBS))
OPTIONS = ({}, {"Hands": "2"}, {"Target": "300"}, {"Hands": "1"})


def refusal(error: IllegalMove) -> tuple[Any, ...]:
    return type(error), error.args, sorted(vars(error).items(), key=lambda kv: kv[0])


def pure_refusal(state: State, move: Any) -> tuple[Any, ...] | None:
    try:
        Kirk.apply(state, move)
    except IllegalMove as error:
        return refusal(error)
    return None


def illegal_moves(state: State, rng: random.Random) -> list[Any]:
    """A few moves the pure path refuses here (checked below), of every kind."""
    moves: list[Any] = [PlayCard(rng.choice(FOREIGN))]
    seat = state.to_move
    if seat is not None:
        others = [card for card in PACK if card not in state.hands[seat]]
        moves += [PlayCard(card) for card in rng.sample(others, 3)]
    pack = list(PACK)
    rng.shuffle(pack)
    deal = [tuple(pack[i * 13:(i + 1) * 13]) for i in range(4)]
    moves.append(Deal(tuple(deal[:3])))
    moves.append(Deal((deal[0][:12], *deal[1:])))
    moves.append(Deal((deal[0][:12] + (deal[1][0],), *deal[1:])))
    moves.append(Deal((deal[0][:12] + (rng.choice(FOREIGN),), *deal[1:])))
    if state.phase is not Phase.DEAL:
        moves.append(Deal(tuple(deal)))
    return moves


def check_game(seed: int) -> int:
    rng = random.Random(seed)
    config = Kirk.configure(PLAYERS, dealer=seed % 4, options=OPTIONS[seed % len(OPTIONS)])
    state = Kirk.initial_state(config)
    table = Kirk.table(state)
    quiet = Kirk.table(state, record=False)
    assert isinstance(table, KirkTable) and isinstance(quiet, KirkTable)
    moves = 0
    while True:
        for bad in illegal_moves(state, rng):
            expected = pure_refusal(state, bad)
            if expected is None:
                continue
            for each in (table, quiet):
                with pytest.raises(IllegalMove) as raised:
                    each.apply(bad)
                assert refusal(raised.value) == expected, (seed, moves, bad)
                assert each.freeze() == state
        if Kirk.is_over(state):
            assert table.is_over and quiet.is_over
            break
        move = Kirk.random_move(state, rng)
        state, events = Kirk.apply(state, move)
        assert table.apply(move) == events, (seed, moves, move)
        assert quiet.apply(move) == ()
        assert table.freeze() == state == quiet.freeze(), (seed, moves, move)
        assert table.standings() == Kirk.standings(state) == quiet.standings()
        assert table.is_over == Kirk.is_over(state)
        moves += 1
    return moves


def test_fast_table_makes_the_pure_moves() -> None:
    moves = sum(check_game(seed) for seed in range(24))
    assert moves > 3000


def test_random_illegal_plays_after_random_moves() -> None:
    """At many positions, every card of the pack (and foreign ones): the same answer, the same error."""
    rng = random.Random(7)
    for seed in range(6):
        config = Kirk.configure(PLAYERS, dealer=seed % 4)
        state = Kirk.initial_state(config)
        table = Kirk.table(state, record=False)
        while not Kirk.is_over(state):
            if state.phase is Phase.PLAY and rng.random() < 0.3:
                for card in (*PACK, *FOREIGN):
                    expected = pure_refusal(state, PlayCard(card))
                    if expected is None:
                        continue
                    with pytest.raises(IllegalMove) as raised:
                        table.apply(PlayCard(card))
                    assert refusal(raised.value) == expected
                    assert table.freeze() == state
            move = Kirk.random_move(state, rng)
            state, _ = Kirk.apply(state, move)
            table.apply(move)
            assert table.freeze() == state


@pytest.mark.parametrize("seed", range(8))
def test_play_run_stops_where_the_pure_path_refuses(seed: int) -> None:
    """A hand's cards in one run, with a wrong card slipped in somewhere: it stops before it."""
    rng = random.Random(seed)
    config = Kirk.configure(PLAYERS, dealer=seed % 4, options={"Hands": "3"})
    state = Kirk.initial_state(config)
    table = Kirk.table(state, record=False)
    loud = Kirk.table(state)
    assert isinstance(table, KirkTable) and isinstance(loud, KirkTable)
    while not Kirk.is_over(state):
        deal = Kirk.random_move(state, rng)
        state, _ = Kirk.apply(state, deal)
        table.apply(deal)
        loud.apply(deal)
        cards: list[Any] = []
        probe = state
        while probe.phase is Phase.PLAY and probe.hand_no == state.hand_no:
            move = Kirk.random_move(probe, rng)
            cards.append(move.card)
            probe, _ = Kirk.apply(probe, move)
        wrong = rng.randrange(len(cards) + 10)  # sometimes no wrong card at all
        if wrong < len(cards):
            cards.insert(wrong, rng.choice((*FOREIGN, *PACK)))
        cards += [rng.choice(PACK)] * 2  # cards past the end of the hand are not played
        stopped = table.play_run(cards, 0)
        assert loud.events is not None
        loud.events.clear()
        assert loud.play_run(cards, 0) == stopped
        index = 0
        events: list[Any] = []
        while index < len(cards) and state.phase is Phase.PLAY:  # the pure path, card by card
            if pure_refusal(state, PlayCard(cards[index])) is not None:
                break
            state, caused = Kirk.apply(state, PlayCard(cards[index]))
            events += caused
            index += 1
        assert stopped == index
        assert loud.events == events
        assert table.freeze() == state == loud.freeze()
        if state.phase is Phase.PLAY:  # stopped at a wrong card: finish the hand card by card
            while state.phase is Phase.PLAY:
                move = Kirk.random_move(state, rng)
                state, _ = Kirk.apply(state, move)
                table.apply(move)
                loud.apply(move)
            assert table.freeze() == state == loud.freeze()


# --------------------------------------------------------------------------- the replay's check path


def problems_of(replayed: Any) -> tuple[Any, ...]:
    return (tuple((p.pos, p.message, p.code, p.rule, p.length) for p in replayed.problems),
            tuple(replayed.notes), replayed.valid, replayed.complete)


def corrupted(text: str, rng: random.Random) -> str:
    """The record with two cards of a trick line swapped, one changed (foreign ones too), or one dropped."""
    lines = text.split("\n")
    tricks = [i for i, line in enumerate(lines) if line[:1].isdigit() and ". " in line]
    index = rng.choice(tricks)
    number, _, rest = lines[index].partition(" ")
    tokens = rest.split(" ")
    how = rng.randrange(5)
    if how == 0:
        i, j = rng.sample(range(len(tokens)), 2)
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif how == 1:
        del tokens[rng.randrange(len(tokens))]
    else:
        tokens[rng.randrange(len(tokens))] = str(rng.choice((*PACK, *PACK, *FOREIGN)))
    lines[index] = " ".join([number, *tokens])
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(12))
def test_check_path_reports_what_the_full_replay_reports(seed: int) -> None:
    """`validate_record` (no history: `play_run` over a hand's tricks) and the full card-by-card replay
    report the same problems and notes, on simulated records with a card changed."""
    from diamonds.core import simulate
    from diamonds.notation import parse_game
    from diamonds.notation.writer import write_game
    from diamonds.replay import record_from_game, replay_record, validate_record

    game = simulate(4, rules="kirk", seed=seed, options=OPTIONS[seed % len(OPTIONS)])
    rng = random.Random(seed)
    for deals in (True, False):
        text = write_game(record_from_game(game, deals=deals))
        assert problems_of(validate_record(parse_game(text))) == problems_of(replay_record(parse_game(text)))
        for _ in range(4):
            bad = corrupted(text, rng)
            assert problems_of(validate_record(parse_game(bad))) == problems_of(replay_record(parse_game(bad))), bad
