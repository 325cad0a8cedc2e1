"""diamonds_core.game: push / pop over immutable states."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest
from helpers import SETUPS, card, cards, dealt_hands, new_game, play, setup_id, start_round

from diamonds.core import Engine, IllegalMove, WrongPhase, simulate
from diamonds.families.fitzgerald.rules import (
    CardPlayed,
    ChoosePassCount,
    ChooseVictim,
    Deal,
    MustFollowSuit,
    OutOfTurn,
    PassCards,
    Phase,
    PlayCard,
    RoundStarted,
    WrongPassCount,
    configure,
    initial_state,
    play_cards,
)

HANDS = ["5H 1D 2D 4D 5D 6D 1S 2S 3S 4S",
         "9H 12H 3D 7D 8D 9D 5S 6S 7S 8S",
         "1C 2C 3C 4C 5C 6C 7C 8C 9C 10C"]


def fresh():
    return new_game(dealer="Cat")  # Ann leads (R7)


def test_a_new_game_waits_for_the_deal():
    game = fresh()
    assert len(game) == 0 and game.moves == () and game.events == ()
    assert game.state == initial_state(game.config)
    assert game.state.phase is Phase.DEAL and game.state.to_move is None
    assert game.legal_moves() == ()  # the deal is a chance move, not listed
    assert repr(game) == "<Engine 2e [Ann Bob Cat] 0 moves, deal>"


def test_game_from_a_config_equals_game_create():
    config = configure(["Ann", "Bob", "Cat"], rules="bga", dealer=1)
    assert Engine(config).state == Engine.create(["Ann", "Bob", "Cat"], rules="bga", dealer=1).state


def test_push_records_moves_events_and_states():
    game = fresh()
    deal = Deal(dealt_hands(game.config, HANDS))
    events = game.push(deal)
    assert isinstance(events, tuple) and isinstance(events[0], RoundStarted)
    assert game.moves == (deal,) and game.events == (events,) and len(game) == 1
    assert game.state.phase is Phase.PASS_COUNT
    assert game.state_at(0) == initial_state(game.config)
    assert game.state_at(1) is game.state
    assert game.apply(ChoosePassCount(1))  # `apply` is `push`
    assert len(game) == 2


def test_pop_restores_the_exact_previous_state_and_events_step_by_step():
    game = fresh()
    start_round(game, HANDS)
    play(game, "5H 9H 4C")  # a Clubs action: Thief, Showrooms change
    history = [game.state_at(ply) for ply in range(len(game) + 1)]
    events = game.events
    moves = game.moves
    while len(game):
        ply = len(game)
        assert game.pop() == moves[ply - 1]
        assert game.state is history[ply - 1]
        assert game.state == history[ply - 1]
        assert game.events == events[:ply - 1]
        assert game.moves == moves[:ply - 1]
    assert game.state == initial_state(game.config)


def test_pop_then_push_again_gives_the_same_state_and_events():
    game = fresh()
    start_round(game, HANDS)
    events = game.push(PlayCard(card("5H")))
    after = game.state
    assert game.pop() == PlayCard(card("5H"))
    assert game.state.trick == ()
    assert game.push(PlayCard(card("5H"))) == events
    assert game.state == after


def test_pop_on_an_empty_game_raises():
    game = fresh()
    with pytest.raises(IndexError):
        game.pop()
    game.push(Deal(dealt_hands(game.config, HANDS)))
    game.pop()
    with pytest.raises(IndexError):
        game.pop()


@pytest.mark.parametrize("moves, illegal, error", [
    ("", PlayCard(card("5H")), WrongPhase),                  # before the deal
    ("", ChoosePassCount(2), WrongPhase),
    ("deal", ChoosePassCount(4), WrongPassCount),
    ("deal pass", PlayCard(card("5H")), WrongPhase),         # passes still due
    ("round 5H", PlayCard(card("3D")), MustFollowSuit),      # Bob holds Hearts
    ("round", PassCards(0, cards("5H")), WrongPhase),
    ("deal count", PassCards(9, cards("5H")), OutOfTurn),     # R6: nobody sits at seat 9
    ("deal count", PassCards(-1, cards("5H")), OutOfTurn),    # nor at -1 (it was read as the last seat)
])
def test_an_illegal_move_leaves_the_game_unchanged(moves, illegal, error):
    game = fresh()
    if moves.startswith("deal"):
        game.push(Deal(dealt_hands(game.config, HANDS)))
        if moves in ("deal pass", "deal count"):
            game.push(ChoosePassCount(1))
    elif moves.startswith("round"):
        start_round(game, HANDS)
        play(game, moves.removeprefix("round"))
    before = (game.state, game.moves, game.events, len(game))
    with pytest.raises(error) as info:
        game.push(illegal)
    assert isinstance(info.value, IllegalMove)
    assert (game.state, game.moves, game.events, len(game)) == before
    assert game.state is before[0]


@pytest.mark.parametrize("every", [1, 3, 32])
def test_state_at_counts_from_the_end_as_a_list_does_whatever_snapshots_were_kept(every: int) -> None:
    """-1 is now, -2 before the last move: a game that kept no snapshot there (`snapshot_every`) replays from
    the right move (it replayed from the wrong one and raised the rules' refusal of a card not held)."""
    eager, lazy = fresh(), Engine(fresh().config, snapshot_every=every)
    for game in (eager, lazy):
        start_round(game, HANDS)
        play(game, "5H 12H")
    for ply in range(-1, -len(eager) - 2, -1):
        assert lazy.state_at(ply) == eager.state_at(ply) == eager.state_at(len(eager) + 1 + ply)
    for ply in (-len(eager) - 2, len(eager) + 1):
        with pytest.raises(IndexError, match=f"no ply {ply}"):
            lazy.state_at(ply)


def test_not_a_move_is_a_type_error():
    game = fresh()
    with pytest.raises(TypeError):
        game.push("5H")  # type: ignore[arg-type]
    assert len(game) == 0


def test_states_are_frozen_values():
    game = fresh()
    start_round(game, HANDS)
    with pytest.raises(FrozenInstanceError):
        game.state.supply = 0  # type: ignore[misc]
    kept = game.state
    play(game, "5H")
    assert kept.trick == () and game.state.trick == ((0, card("5H")),)  # the old state is untouched


def test_events_are_grouped_move_by_move():
    game = fresh()
    start_round(game, HANDS)
    play(game, "5H 9H")
    assert game.events[-2] == (CardPlayed(0, card("5H"), 1, card("5H").suit, True, True),)
    assert game.events[-1] == (CardPlayed(1, card("9H"), 1, card("5H").suit, False, True),)


# --------------------------------------------------------------------------- play_cards, the check path


def _replay_with_play_cards(moves, config, *, history: bool, events: bool):
    """Push every move, but hand each round's cards to `play_cards` as one run, as a replay does:
    the run must stop by itself wherever a Clubs victim is due (R14), and go on from there."""
    game = Engine(config, history=history, events=events)
    pending = list(moves)
    while pending:
        if type(pending[0]) is not PlayCard:
            game.push(pending.pop(0))
            continue
        run = []  # the round's cards, victims left out: play_cards must find where they are due
        victims = []
        for move in pending:
            if type(move) is PlayCard:
                run.append(move.card)
            elif type(move) is ChooseVictim:
                victims.append(move)
            else:
                break
        pending = pending[len(run) + len(victims):]
        start = 0
        while start < len(run):
            start = play_cards(game, run, start)
            if game.state.phase is Phase.CHOOSE_VICTIM:
                game.push(victims.pop(0))
        while victims:  # the end-of-round award follows the last card
            game.push(victims.pop(0))
    return game


@pytest.mark.parametrize("rules,players,variants", SETUPS, ids=[setup_id(*s) for s in SETUPS])
@pytest.mark.parametrize("seed", [3, 11])
def test_play_cards_reaches_every_state_push_reaches(rules, players, variants, seed):
    played = simulate(players, rules=rules, variants=variants, seed=seed)
    for history, events in ((False, False), (True, True)):
        fast = _replay_with_play_cards(played.moves, played.config, history=history, events=events)
        assert fast.moves == played.moves
        assert fast.state == played.state
        if events:
            assert fast.events == played.events
            assert [fast.state_at(i) for i in range(len(fast) + 1)] == [
                played.state_at(i) for i in range(len(played) + 1)]


def test_play_cards_stops_before_a_refused_card_and_len_says_how_far():
    game = fresh()
    start_round(game, HANDS)
    before = len(game)
    # Trick 1: Ann 5H, Bob 9H, Cat 1C (off suit: the Thief acts, R13); Bob wins (R10) and leads,
    # so 2D, Ann's card, is refused: the three cards before it stay played.
    with pytest.raises(IllegalMove) as refused:
        play_cards(game, cards("5H 9H 1C 2D"))
    assert len(game) - before == 3
    assert refused.value.reason == "Bob does not hold 2D (Ann holds it)"
    by_push = fresh()
    start_round(by_push, HANDS)
    play(by_push, "5H 9H 1C")
    assert game.state == by_push.state and game.moves == by_push.moves
    fresh_game = fresh()
    start_round(fresh_game, HANDS)
    with pytest.raises(MustFollowSuit):
        play_cards(fresh_game, cards("5H 3D"))  # Bob holds Hearts (R8)
    assert len(fresh_game) - before == 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_standings_are_the_results_of_the_state_without_a_snapshot(seed):
    from diamonds.families.fitzgerald.rules import results
    game = simulate(4, rules="1e", variants=("partnership",), seed=seed)
    assert game.standings() == results(game.state)
    half = Engine(game.config, history=False, events=False)
    for move in game.moves[: len(game.moves) // 2]:
        half.push(move)
    assert half.standings() == results(half.state)  # mid-game: the standings so far (R18)


def test_events_by_move_splits_a_run_at_each_opening_event() -> None:
    from diamonds.core.game import events_by_move

    class Played:
        pass

    class Won:
        pass

    first, won, second, third = Played(), Won(), Played(), Played()
    assert events_by_move([first, won, second, third], Played) == [(first, won), (second,), (third,)]
    assert events_by_move([], Played) == []
    with pytest.raises(ValueError, match="begin with Won"):
        events_by_move([won, first], Played)


def test_note_played_needs_a_game_without_history_and_each_moves_events() -> None:
    from diamonds.core import Engine

    with_history = Engine.create(["Ann", "Bob", "Cat"], rules="1e")
    with pytest.raises(ValueError, match="history"):
        with_history.note_played([])
    events_only = Engine.create(["Ann", "Bob", "Cat"], rules="1e")
    events_only = Engine(events_only.config, history=False, events=True)
    with pytest.raises(ValueError, match="2 moves need as many tuples of events, not 1"):
        events_only.note_played(["a", "b"], [()])
    with pytest.raises(ValueError, match="not none"):
        events_only.note_played(["a"])
    assert len(events_only) == 0  # a refused note changes nothing
