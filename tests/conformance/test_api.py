"""The conformance suite through the front door: every registered family, driven as a user drives it.

For every rule set and set-up a family allows (the same set-ups as
test_families.py), random games are played through `diamonds.Position` only,
and after every step:

- `to_move`, `is_chance` and `legal_moves` agree (a chance move exactly when
  nobody is to move and the game is not over; no legal move at a chance move);
- every legal move's text reads back to that move (`text` -> `parse`), in the
  forms a person types too (lower case);
- `pop` gives back the position before the move;
- `view(p)` shows every card of p's own hand, and of another hand only cards
  the viewer may know, checked against what the viewer did (the cards they
  passed) rather than against the family's own policy;
- the label only moves forward through the round's tricks;
and at the end `str(pos.game())` is DGN that validates and reads back to the
same moves and standings.
"""

from __future__ import annotations

import pickle
import random
import re
from typing import Any

import pytest
from test_families import SETUPS, Setup  # noqa: E402  (the same set-ups as the engine's conformance)

import diamonds
from diamonds.core import IllegalMove, NotationError, family_of

API_SEEDS = (3,)


def _position(setup: Setup, seed: int) -> diamonds.Position:
    config = setup.config(seed)
    return diamonds.Position(setup.rules.id, list(config.players), dealer=seed % setup.players,
                             variants=setup.variants, options=dict(setup.options))


def _passed_by(pos: diamonds.Position) -> dict[int, set[Any]]:
    """Per seat, the cards it gave away this round by a move of its own that names cards (a pass)."""
    round_start = 0
    for ply in reversed(range(len(pos.moves))):  # the round began at its last deal
        if pos.rule_set.is_chance(pos.engine.state_at(ply)):
            round_start = ply
            break
    given: dict[int, set[Any]] = {seat: set() for seat in range(len(pos.players))}
    for move in pos.moves[round_start:]:
        if getattr(move, "seat", None) in given and hasattr(move, "cards"):
            given[move.seat].update(move.cards)
    return given


def _check_step(pos: diamonds.Position) -> None:
    legal = pos.legal_moves
    if pos.is_over:
        assert pos.to_move is None and legal == [] and not pos.is_chance
        return
    if pos.is_chance:
        assert pos.to_move is None and legal == []
        return
    assert pos.to_move in pos.players
    assert legal, f"{pos!r}: a player to move with no legal move"
    for move in legal:
        text = pos.text(move)
        assert pos.parse(text) == move, (text, move)
        assert pos.parse(text.lower()) == move, (text.lower(), move)
    passed = _passed_by(pos)
    for seat, name in enumerate(pos.players):
        view = pos.view(name)
        assert view.hand(name) == pos.hand(name), "a player sees their whole hand"
        given = passed[seat]
        for other in pos.players:
            if other != name:
                shown = set(view.hand(other))
                assert shown <= given, f"{name} is shown {shown - given} of {other}'s hand"
                assert shown <= set(pos.hand(other))
        assert (view.legal_moves == legal) == (pos.to_move == name) or not legal


def _play(pos: diamonds.Position, rng: random.Random) -> None:
    steps = 0
    while not pos.is_over:
        _check_step(pos)
        if pos.is_chance:
            pos.deal(rng)
        else:
            before = (pos.moves, pos.label, pos.state)
            move = rng.choice(pos.legal_moves)
            pos.push(move)
            assert pos.pop() == move
            assert (pos.moves, pos.label, pos.state) == before
            pos.push(move)
        steps += 1
        assert steps < 5000, "a game that does not end"
    _check_step(pos)


@pytest.mark.parametrize("setup", SETUPS, ids=lambda setup: setup.id)
@pytest.mark.parametrize("seed", API_SEEDS)
def test_random_playthrough_through_the_front_door(setup: Setup, seed: int) -> None:
    pos = _position(setup, seed)
    _play(pos, random.Random(seed))
    game = pos.game()
    assert game.is_valid, [str(problem) for problem in game.problems]
    assert game.is_complete
    again = next(diamonds.read_games([line + "\n" for line in str(game).split("\n")]))
    assert again.moves == pos.moves
    assert [(s.side, s.score, s.winner) for s in again.end().standings] == \
        [(s.side, s.score, s.winner) for s in pos.standings]
    assert again.end() == pos
    _check_labels_agree_with_stops(again)


@pytest.mark.parametrize("setup", SETUPS, ids=lambda setup: setup.id)
def test_a_game_cut_just_after_a_deal_is_written_with_it_and_reads_back_the_same(setup: Setup) -> None:
    """`pos.game()` at the moment after each of a game's first deals (before a Fitzgerald dealer's pass count,
    R6): the text is valid, holds the deal, and reads back to the position's moves (the deal was left out)."""
    pos, rng, cuts = _position(setup, 5), random.Random(5), 0
    while not pos.is_over and cuts < 3:
        if not pos.is_chance:
            pos.push(rng.choice(pos.legal_moves))
            continue
        pos.deal(rng)
        game = pos.game()
        assert game.is_valid, [str(problem) for problem in game.problems]
        assert diamonds.Game.from_text(str(game)).moves == pos.moves
        cuts += 1
    assert cuts == 3 or pos.is_over


CARD_LIKE_IDS = ("AH", "Jo", "KS", "QD", "JC", "AS")  # each a valid player id (R1) and a card word of some game


@pytest.mark.parametrize("rules", sorted({setup.rules.id for setup in SETUPS}))
def test_players_whose_ids_read_as_cards_play_a_whole_game(rules: str) -> None:
    """An id may be spelt like a card (`AH`, `Jo`). Every move that names its player (a pass line `pass AH 4D`, a
    bid, a take, a victim) reads back as that player's, through the front door and through the written game."""
    setup = next(setup for setup in SETUPS if setup.rules.id == rules and not setup.variants and not setup.options)
    pos = diamonds.Position(rules, list(CARD_LIKE_IDS[:setup.players]), dealer=1)
    _play(pos, random.Random(11))
    game = pos.game()
    assert game.is_valid, [str(problem) for problem in game.problems]
    assert next(diamonds.read_games([line + "\n" for line in str(game).split("\n")])).moves == pos.moves


def _check_labels_agree_with_stops(game: diamonds.Game) -> None:
    """A position's label and the replay's stop at the same ply name the same place (one walk names both).

    A stop cut inside a move (the round's last card, whose move also ends the round) has no position of
    its own: the position after that move is where the move's last stop is."""
    labels = [position.label for position in game.positions()]
    events = game.replayed.game.events
    for stop in game.steps()[1:]:
        if stop.events[-1] is not events[stop.ply - 1][-1]:
            continue  # cut inside a move
        assert labels[stop.ply] == stop.label, (labels[stop.ply], stop)  # R2.7.3 in both, trick complete or not


@pytest.mark.parametrize("rules", sorted({setup.rules.id for setup in SETUPS}))
def test_the_obvious_random_player_plays_a_whole_game(rules: str) -> None:
    rng = random.Random(7)
    pos = diamonds.Position(rules)
    while not pos.is_over:
        if pos.is_chance:
            pos.deal(rng)
        else:
            pos.push(rng.choice(pos.legal_moves))
    assert pos.winners and set(pos.winners) <= set(pos.players)


@pytest.mark.parametrize("rules", sorted({setup.rules.id for setup in SETUPS}))
def test_an_illegal_move_names_its_ruling_and_player_and_changes_nothing(rules: str) -> None:
    rng = random.Random(4)
    pos = diamonds.Position(rules)
    pos.deal(rng)
    while True:  # the first trick card: play one the mover does not hold
        legal = pos.legal_moves
        if legal and type(legal[0]).__name__ == "PlayCard":
            break
        pos.push(rng.choice(legal))
    mover = pos.to_move
    foreign = next(card for seat, name in enumerate(pos.players) if name != mover for card in pos.hand(name))
    move = pos.parse(str(foreign))
    before = (pos.moves, pos.state)
    with pytest.raises(IllegalMove) as caught:
        pos.push(move)
    assert caught.value.ruling and re.fullmatch(r"[A-Z]+[0-9]+(\.[0-9]+)*", caught.value.ruling), (
        f"a ruling id such as R8, K4, B6: {caught.value.ruling!r}")  # any family's letter, not a list of them
    assert caught.value.player == mover
    assert caught.value.card == foreign
    assert (pos.moves, pos.state) == before


def test_text_that_is_no_move_says_where_and_what_was_expected() -> None:
    pos = diamonds.Position("2e", ["Ann", "Bob", "Cat"])
    pos.deal(random.Random(2))
    with pytest.raises(NotationError) as caught:
        pos.parse("pass 16X")
    assert caught.value.column == 6 and "card" in caught.value.expected
    with pytest.raises(NotationError) as caught:
        pos.parse("  ")
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("rules, item", [("2e", "pass {}"), ("bidding", "bid Bob {}"), ("bidding", "bid {}")])
@pytest.mark.parametrize("word, why", [("-1", "is below 0"),
                                       ("\u00b2", "is not a whole number"),  # a superscript 2: isdigit, not int
                                       ("\u0663", "is not a whole number"),  # an Arabic-Indic 3: DGN's are 0-9
                                       ("07", "no leading 0"), ("+3", "no sign")])
def test_a_count_not_written_in_dgn_s_digits_says_why(rules: str, item: str, word: str, why: str) -> None:
    """A count (a pass count, a bid) is the digits 0-9: anything else is a `NotationError` at its column that
    says what is wrong with it, never another exception and never another number read from it."""
    pos = diamonds.Position(rules, ["Ann", "Bob", "Cat"], dealer="Ann")
    pos.deal(random.Random(1))
    text = item.format(word)
    with pytest.raises(NotationError) as caught:
        pos.parse(text)
    assert why in str(caught.value) and caught.value.column == text.index(word) + 1


def test_a_card_and_its_clubs_victim_push_as_dgn_writes_them() -> None:
    """R14 (1e): the actor names whose Showroom to take from; DGN writes it on the card."""
    rng = random.Random(0)
    for seed in range(200):
        rng = random.Random(seed)
        pos = diamonds.Position("1e", ["Ann", "Bob", "Cat"])
        while not pos.is_over:
            if pos.is_chance:
                pos.deal(rng)
                continue
            move = rng.choice(pos.legal_moves)
            text = pos.text(move)
            pos.push(move)
            if pos.legal_moves and pos.text(pos.legal_moves[-1]).startswith(">"):
                victim = pos.legal_moves[-1]
                victim_text = pos.text(victim)
                pos.pop()
                pos.push_text(text + victim_text)
                assert pos.moves[-2:] == (move, victim)
                return
    pytest.fail("no Clubs victim in 200 games")


def test_read_game_reads_the_next_game_then_none(tmp_path: Any) -> None:
    path = tmp_path / "two.dgn"
    games = []
    for rules in ("kirk", "bidding"):
        pos = diamonds.Position(rules)
        pos.deal(random.Random(1))
        games.append(pos.game())
    path.write_text("\n".join(str(game) for game in games), encoding="utf-8")
    with open(path, encoding="utf-8") as handle:
        first, second, third = (diamonds.read_game(handle) for _ in range(3))
    assert (first.rules, second.rules, third) == ("kirk", "bidding", None)


def test_rule_sets_lists_every_registered_family_and_its_rule_sets() -> None:
    listed = diamonds.rule_sets()
    for family_name, rule_ids in listed.items():
        for rule_id in rule_ids:
            assert family_of(rule_id).name == family_name
    assert {rule for rules in listed.values() for rule in rules} >= {setup.rules.id for setup in SETUPS}


def test_push_of_text_says_to_use_push_text_and_changes_nothing() -> None:
    pos = diamonds.Position("kirk", ["Ann", "Bob", "Cat", "Dan"], dealer="Ann")
    pos.deal(random.Random(2))
    card = pos.text(pos.legal_moves[0])
    with pytest.raises(TypeError, match=r"push_text\('" + card + r"'\)"):
        pos.push(card)  # type: ignore[arg-type]
    assert len(pos) == 1
    assert pos.push_text(card) == [pos.peek()]


def test_a_view_of_nobody_names_the_players() -> None:
    pos = diamonds.Position("2e", ["Ann", "Bob", "Cat"])
    with pytest.raises(KeyError) as info:
        pos.view("Nobody")
    assert str(info.value) == "Nobody is not a player of this game: the players are Ann, Bob, Cat"
    assert info.value.player == "Nobody" and info.value.players == ("Ann", "Bob", "Cat")


@pytest.mark.parametrize("seat", [3, 9, -1])
def test_a_seat_no_one_sits_at_names_the_seats(seat: int) -> None:
    """`pos.hand(9)` was a bare `KeyError('no seat 9')`, where a wrong name says who the players are."""
    pos = diamonds.Position("2e", ["Ann", "Bob", "Cat"])
    for ask in (pos.seat, pos.hand, pos.view):
        with pytest.raises(diamonds.NotAPlayer) as info:
            ask(seat)
        assert str(info.value) == f"there is no seat {seat}: the seats are 0 to 2 (Ann, Bob, Cat)"
        assert info.value.player == seat and info.value.players == ("Ann", "Bob", "Cat")
    assert pos.seat(2) == 2


@pytest.mark.parametrize("rules", sorted({setup.rules.id for setup in SETUPS}))
def test_a_label_read_after_pops_and_other_moves_names_the_new_line(rules: str) -> None:
    """The labels are walked when read, not at each push: a label read deep in one line of play, then moves
    taken back and others made, names the new line's place, as a position that only ever made those moves."""
    rng = random.Random(5)
    pos = diamonds.Position(rules)
    for _ in range(40):
        if pos.is_over:
            break
        pos.deal(rng) if pos.is_chance else pos.push(rng.choice(pos.legal_moves))
    assert pos.label != "start"  # the walk is made this deep
    for _ in range(7):
        pos.pop()
    for _ in range(7):
        if pos.is_over:
            break
        pos.deal(random.Random(9)) if pos.is_chance else pos.push(pos.legal_moves[-1])
    fresh = diamonds.Position(rules, pos.players, dealer=pos.config.first_dealer)
    for move in pos.moves:
        fresh.push(move)
    assert pos.label == fresh.label
    assert pos.copy().label == fresh.label


def test_the_front_door_s_errors_pickle_with_their_fields() -> None:
    """A worker process (a process pool, Dask) hands its error back pickled: NotationError, NotAPlayer,
    ConfigError and CardParseError could not be unpickled (their __init__ takes fields), and the caller got
    BrokenProcessPool instead of the error."""
    from diamonds.core import ConfigError
    from diamonds.core.cards import Card, CardParseError

    pos = diamonds.Position("kirk", dealer=0)
    pos.deal(random.Random(1))
    caught: list[BaseException] = []
    for attempt in (lambda: pos.parse("9X"), lambda: pos.view("Nobody"), lambda: diamonds.Position("kirk", ["A"]),
                    lambda: Card.parse("16H")):
        with pytest.raises((NotationError, KeyError, ConfigError, CardParseError)) as info:
            attempt()
        caught.append(info.value)
    assert {type(error).__name__ for error in caught} == {"NotationError", "NotAPlayer", "ConfigError",
                                                          "CardParseError"}
    for error in caught:
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error) and again.args == error.args
        assert {name: getattr(again, name) for name in vars(error)} == vars(error)


@pytest.mark.parametrize("rules", ["2e", "kirk", "bidding"])
def test_views_games_standings_and_diagnostics_pickle_and_copy(rules: str) -> None:
    """Compiled, each was pickled but could not be loaded back, nor deep-copied (a view or a game has no
    `__dict__`; a frozen dataclass's own pickling sets its fields one by one). Both builds run this."""
    import copy
    from pathlib import Path

    pos = diamonds.Position(rules, dealer=0)
    pos.deal(random.Random(3))
    pos.push(pos.legal_moves[0])
    view = pos.view(pos.players[1])
    invalid = next(diamonds.read_games(str(Path(__file__).parents[2] / "samples" / "invalid" / "revoke.dgn")))
    for load in (lambda value: pickle.loads(pickle.dumps(value)), copy.deepcopy):
        seen = load(view)
        assert (seen.viewer, seen.legal_moves, seen.sight) == (view.viewer, view.legal_moves, view.sight)
        assert [seen.hand(name) for name in pos.players] == [view.hand(name) for name in pos.players]
        game = load(pos.game())
        assert str(game) == str(pos.game()) and game.moves == pos.game().moves
        assert load(pos.standings) == pos.standings
        again = load(invalid)
        assert again.problems == invalid.problems and again.path == invalid.path and not again.is_valid


@pytest.mark.parametrize("rules", sorted({setup.rules.id for setup in SETUPS}))
def test_a_view_is_of_its_moment_and_the_positions_pops_and_pushes_do_not_change_it(rules: str) -> None:
    """A view followed its position while its sight stayed that of the moment it was taken: read after `pop()`,
    it showed cards of other hands that the player could not know then (the hunt's finding). Now a view is of its
    moment: after pops and other moves it answers as a view taken then, and as one taken now where taken now."""
    rng = random.Random(11)
    pos = diamonds.Position(rules)
    while not pos.is_over and len(pos) < 60:
        pos.deal(rng) if pos.is_chance else pos.push(rng.choice(pos.legal_moves))
    seat = 0
    view = pos.view(seat)

    def seen(v: diamonds.View) -> tuple[object, ...]:
        return (v.label, v.is_over, v.to_move, tuple(map(v.text, v.legal_moves)),
                tuple(v.hand(p) for p in range(len(v.players))), v.public_moves, v.standings)

    then = seen(view)
    for _ in range(25):
        pos.pop()
    assert seen(view) == then
    earlier = pos.view(seat)
    assert seen(earlier) != then  # (the position did move: the test could tell)
    for _ in range(10):
        pos.deal(rng) if pos.is_chance else pos.push(rng.choice(pos.legal_moves))
    assert seen(view) == then
    assert seen(pos.view(seat)) == seen(pos.copy().view(seat))
