"""Fitzgerald's fast paths against the slow ones, on random games of every edition (1e with 3 players most).

* `play_cards` on a game without history (the batched `Table.play_run`) makes the
  same moves, stops at the same card and raises the same `IllegalMove` as one
  `push` per card on a game that keeps everything.
* Every Clubs victim, right or wrong, named at every `CHOOSE_VICTIM`: the same
  answer from both, and a refusal's message and fields as R14 words them.
* The replay's check path (`validate_record`: no history, events or origins)
  reports exactly the problems and notes of the full replay, on records with a
  card or a victim changed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastcheck import check_path_matches, refusal

from diamonds.core import Engine, IllegalMove, simulate
from diamonds.families.fitzgerald.rules import (
    ChooseVictim,
    Phase,
    PlayCard,
    Reason,
    VictimNotAllowed,
    play_cards,
    trick_winner,
)
from diamonds.notation import parse_game
from diamonds.notation.writer import write_game
from diamonds.replay import record_from_game, replay_record, validate_record

SETUPS = [("1e", 3, ()), ("1e", 3, ()), ("1e", 4, ("partnership",)), ("2e", 4, ()), ("bga", 5, ()),
          ("1e", 5, ()), ("2e", 3, ("perfect",))]


def game_of(seed: int) -> Engine:
    rules, players, variants = SETUPS[seed % len(SETUPS)]
    return simulate(players, rules=rules, variants=variants, seed=seed)


@pytest.mark.parametrize("seed", range(14))
def test_play_cards_makes_the_moves_of_push(seed: int) -> None:
    """Each run of cards of a played game, from the position before it, sometimes with one card changed:
    the batched run and the card-by-card pushes play as far, raise alike, and leave the same table."""
    played = game_of(seed)
    rules, config = played.rules, played.config
    rng = random.Random(seed)
    deck = sorted(config.deck, key=str)
    moves = played.moves
    ply = 0
    runs = 0
    while ply < len(moves):
        if type(moves[ply]) is not PlayCard:
            ply += 1
            continue
        end = ply
        while end < len(moves) and type(moves[end]) is PlayCard:
            end += 1
        for start in (ply, rng.randrange(ply, end), rng.randrange(ply, end)):
            cards = [move.card for move in moves[start:end]]
            wrong = rng.randrange(len(cards) + 3)
            if wrong < len(cards):
                cards[wrong] = rng.choice(deck)  # often refused: not held, or not following suit (R8)
            cards += [rng.choice(deck)]  # past a victim or the round's end: not played
            state = played.state_at(start)
            outcomes = []
            for events in (True, False):  # True: one push per card; False: Table.play_run
                game = Engine(config, history=False, events=events)
                game.table = rules.table(state, record=events)
                try:
                    outcome: Any = ("stopped at", play_cards(game, cards, 0))
                except IllegalMove as error:
                    outcome = refusal(error)
                outcomes.append((outcome, len(game), game.table.freeze()))  # type: ignore[attr-defined]
            assert outcomes[0] == outcomes[1], (seed, start, cards)
            if wrong >= len(cards) - 1:
                assert outcomes[0][1] == end - start and outcomes[0][2] == played.state_at(end)
            runs += 1
        ply = end
    assert runs >= 12


@pytest.mark.parametrize("seed", range(10))
def test_every_victim_named(seed: int) -> None:
    """At each victim decision, every seat (and one off the table) and None: the same as the played game's
    engine state says, with R14's words."""
    played = game_of(seed)
    config = played.config
    n = config.player_count
    fast = Engine(config, history=False, events=False)
    for ply, move in enumerate(played.moves):
        state = played.state_at(ply)
        if state.phase is Phase.CHOOSE_VICTIM:
            pending = state.pending
            assert pending is not None
            actor = config.players[pending.actor] if pending.actor is not None else config.side_name(pending.side)
            for victim in (None, *range(-1, n + 1)):
                game = Engine(config, history=False, events=False)
                game.table = played.rules.table(state, record=False)
                try:
                    game.push(ChooseVictim(victim))
                except IllegalMove as error:
                    if victim is not None and not 0 <= victim < n:
                        assert isinstance(error, VictimNotAllowed)
                        assert error.reason == f"{actor} cannot name seat {victim}: it is not at the table"
                        assert error.seat == pending.actor and error.rule == "R14"
                    elif victim is not None:
                        assert config.side_of[victim] == pending.side
                    else:
                        assert pending.required
        fast.push(move)
    assert fast.table.freeze() == played.state  # type: ignore[attr-defined]


def corrupt(tokens: list[str], rng: random.Random) -> None:
    """One card of a trick line changed, or two swapped, or a victim changed or dropped (`fastcheck.corrupted`)."""
    how = rng.randrange(4)
    if how == 0 and len(tokens) > 1:
        i, j = rng.sample(range(len(tokens)), 2)
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif how == 1:
        victims = [i for i, token in enumerate(tokens) if ">" in token]
        if victims:
            i = rng.choice(victims)
            tokens[i] = tokens[i].partition(">")[0] + rng.choice(("", ">Ann", ">Bob", ">Cat", ">Zed"))
        else:
            tokens[rng.randrange(len(tokens))] += ">Bob"
    else:
        i = rng.randrange(len(tokens))
        tail = tokens[i][2:] if tokens[i][:2].isdigit() else tokens[i][1:]
        tokens[i] = f"{rng.randrange(1, 16)}{rng.choice('DHSC')}" + ("" if rng.random() < 0.5 else tail[1:])


@pytest.mark.parametrize("seed", range(21))
def test_check_path_reports_what_the_full_replay_reports(seed: int) -> None:
    game = game_of(seed)
    check_path_matches(game, seed, corrupt)
    for deals in (True, False):
        assert validate_record(parse_game(write_game(record_from_game(game, deals=deals)))).valid


def test_choice_names_read_what_the_items_say() -> None:
    """`Plays.choice_names` (the check path's read of `>id`) against the `Play` items, on every trick of
    records with victims, annotations, signs and given suits."""
    from diamonds.notation.records import Plays

    def from_items(plays: Plays) -> Any:
        items = plays.items
        if any(p.sign is not None or p.suit is not None for p in items):
            return None
        return tuple(p.choice.player if p.choice is not None else None for p in items)

    rng = random.Random(3)
    tried = 0
    for seed in range(10):
        text = write_game(record_from_game(simulate(3, rules="1e", seed=seed)))
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if line[:1].isdigit() and rng.random() < 0.3:
                tokens = line.split(" ")
                j = rng.randrange(1, len(tokens))
                tokens[j] += rng.choice(("!?", ">Cat!", "+", "-", "?", ">Ann"))
                lines[i] = " ".join(tokens)
        for rnd in parse_game("\n".join(lines)).rounds:
            for trick in rnd.tricks:
                fresh = trick.plays.choice_names()  # before the items are made (the fast reader's lazy Plays)
                assert fresh == from_items(trick.plays) == trick.plays.choice_names()
                tried += 1
    assert tried > 80


# --------------------------------------------------------------------------- victims taken inside the run (R14)

VICTIM_SETUPS = [("1e", 3, ()), ("1e", 4, ("partnership",)), ("1e", 4, ()), ("1e", 5, ()), ("1e", 6, ("partnership",)),
                 ("2e", 4, ()), ("bga", 5, ()), ("1e", 2, ())]


def _round_runs(played: Engine) -> list[tuple[int, list[Any], list[Any]]]:
    """Per round: the ply of its first card, its cards, and per card the victim it names in the played game
    (None where it names none): an off-suit Clubs card's (R9), the winner's of a Clubs trick (R10)."""
    runs = []
    moves = played.moves
    per_trick = played.config.plays_per_trick
    ply = 0
    while ply < len(moves):
        if type(moves[ply]) is not PlayCard:
            ply += 1
            continue
        first = ply
        cards: list[Any] = []
        victims: list[Any] = []
        while ply < len(moves) and type(moves[ply]) in (PlayCard, ChooseVictim):
            move = moves[ply]
            if type(move) is PlayCard:
                cards.append(move.card)
                victims.append(None)
            else:
                pending = played.state_at(ply).pending
                if pending.reason is Reason.OFF_SUIT:
                    victims[-1] = move.victim
                elif pending.reason is Reason.TRICK_WON:
                    start = len(cards) - per_trick
                    victims[start + trick_winner(list(enumerate(cards[start:])))[0]] = move.victim
                else:
                    break  # the end-of-round award
            ply += 1
        runs.append((first, cards, victims))
    return runs


def _one_by_one(game: Engine, cards: list[Any], victims: list[Any]) -> Any:
    """The reference: a push per card, and where a card's Clubs action waits for a victim, a push of the
    one it names; how far it got, or the refusal."""
    per_trick = game.config.plays_per_trick
    index = 0
    try:
        while index < len(cards) and game.table.phase is Phase.PLAY:  # type: ignore[attr-defined]
            game.push(PlayCard.of(cards[index]))
            index += 1
            while game.table.phase is Phase.CHOOSE_VICTIM:  # type: ignore[attr-defined]
                reason = game.table.pending.reason  # type: ignore[attr-defined]
                if reason is Reason.OFF_SUIT:
                    source = index - 1
                elif reason is Reason.TRICK_WON:
                    start = index - per_trick
                    source = start + trick_winner(list(enumerate(cards[start:index])))[0]
                else:
                    return ("stopped at", index)
                try:
                    game.push(ChooseVictim(victims[source]))
                except IllegalMove:
                    return ("stopped at", index)
    except IllegalMove as error:
        return refusal(error)
    return ("stopped at", index)


@pytest.mark.parametrize("seed", range(24))
def test_play_cards_takes_the_victims_named_as_pushes_do(seed: int) -> None:
    """Each round's cards with the victims they name, sometimes one victim (or card) changed: `play_cards`
    taking them inside the run (a quiet table), a recording table's `play_run` taking them, and a push per
    move (the victim pushed where the engine waits for it) play as far, refuse alike, make the same moves
    and events, and leave the same table."""
    rules_id, players, variants = VICTIM_SETUPS[seed % len(VICTIM_SETUPS)]
    played = simulate(players, rules=rules_id, variants=variants, seed=seed)
    rules, config = played.rules, played.config
    n = config.player_count
    rng = random.Random(seed)
    deck = sorted(config.deck, key=str)
    named = 0
    for first, cards, victims in _round_runs(played):
        for attempt in range(4):
            cards, victims = list(cards), list(victims)
            if attempt == 1:
                spots = [i for i, v in enumerate(victims) if v is not None] or [rng.randrange(len(cards))]
                victims[rng.choice(spots)] = rng.choice((None, -1, n, *range(n)))
            elif attempt == 2:
                victims = [rng.choice((None, -1, *range(n))) for _ in victims]
            elif attempt == 3:
                cards[rng.randrange(len(cards))] = rng.choice(deck)
            state = played.state_at(first)
            slow = Engine(config, history=False, events=True)
            slow.table = rules.table(state, record=True)
            expected = _one_by_one(slow, cards, victims)
            fast = Engine(config, history=False, events=False)
            fast.table = rules.table(state, record=False)
            try:
                outcome: Any = ("stopped at", play_cards(fast, cards, 0, victims))
            except IllegalMove as error:
                outcome = refusal(error)
            assert outcome == expected, (seed, first, attempt)
            assert fast.moves == slow.moves and fast.table.freeze() == slow.table.freeze()  # type: ignore[attr-defined]
            loud = rules.table(state, record=True)
            stop = loud.play_run(cards, 0, victims)
            if expected[0] == "stopped at":
                assert stop == expected[1]
            assert loud.freeze() == slow.table.freeze()  # type: ignore[attr-defined]
            assert tuple(loud.events) == tuple(e for events in slow.events for e in events)
            if attempt == 0:
                assert slow.moves == played.moves[first:first + len(slow.moves)]
                named += sum(v is not None for v in victims)
    assert named > 0 or config.uses_thief


def corrupt_victims(tokens: list[str], rng: random.Random) -> None:
    """Victims changed, dropped or added, on one card or several; sometimes a card changed too."""
    for _ in range(rng.randrange(1, 3)):
        i = rng.randrange(len(tokens))
        card = tokens[i].partition(">")[0]
        tokens[i] = card + rng.choice(("", "", ">Ann", ">Bob", ">Cat", ">Dan", ">Eve", ">Zed", ">Ann!"))
    if rng.random() < 0.2:
        corrupt(tokens, rng)


@pytest.mark.parametrize("seed", range(24))
def test_check_path_reports_victims_as_the_full_replay(seed: int) -> None:
    """Records whose victims are changed, dropped or added: the check path (victims taken inside the run)
    reports what the full replay reports, and where the record is valid makes the same moves."""
    rules_id, players, variants = VICTIM_SETUPS[seed % len(VICTIM_SETUPS)]
    game = simulate(players, rules=rules_id, variants=variants, seed=seed)
    check_path_matches(game, seed, corrupt_victims)
    text = write_game(record_from_game(game))
    quick, full = validate_record(parse_game(text)), replay_record(parse_game(text))
    assert quick.valid and quick.game is not None and full.game is not None
    assert quick.game.moves == full.game.moves  # the victims among them, where the record names them
