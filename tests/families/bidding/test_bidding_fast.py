"""The bidding game's fast table (`bidding/fast.py`) against the pure `apply`, move by move, on random games.

The pure path is the definition: after every move the table's snapshot must
equal the pure state, its events the pure events, its standings the pure
standings; every illegal move must raise the same `IllegalMove` subclass
with the same message and data fields (`others` included), and leave the
table as it was. The batched `play_run` must stop exactly where the pure
path would refuse.
"""

from __future__ import annotations

import random
from typing import Any

import fastcheck
import pytest

from diamonds.core.cards import Card, Joker, Suit
from diamonds.families.bidding.rules import (
    DECK,
    Bid,
    Bidding,
    BiddingState,
    Deal,
    FinalBid,
    Phase,
    PlayCard,
    Played,
    TakeFromKitty,
    WinReason,
    play_choices,
    takes_trick,
    trick_bar,
    trick_winner,
)
from diamonds.families.bidding.rules.deck import in_suit_strength
from diamonds.families.bidding.rules.fast import BiddingTable

PLAYERS = ("Ann", "Bob", "Cat")
FOREIGN = (Card(2, Suit.HEARTS), Card(11, Suit.DIAMONDS), Card(1, Suit.SPADES))


def wrong_plays(card: Any) -> list[PlayCard]:
    """Every way to play `card`, right and wrong: with and without high/low and a suit."""
    return [PlayCard(card, high, suit) for high in (None, True, False) for suit in (None, *Suit)]


def illegal_moves(state: BiddingState, rng: random.Random) -> list[Any]:
    """Moves of every kind, most of them refused here (the ones the pure path accepts are skipped)."""
    seat = state.to_move if state.to_move is not None else 0
    moves: list[Any] = [PlayCard(rng.choice(FOREIGN)), PlayCard(rng.choice(DECK))]
    moves += rng.sample(wrong_plays(rng.choice(DECK)), 4)
    if state.phase is Phase.PLAY:
        hand = sorted(state.hands[seat], key=str)
        moves += [rng.choice(wrong_plays(card)) for card in rng.sample(hand, min(3, len(hand)))]
    moves += [Bid(rng.randrange(3), rng.randrange(-1, 12)), FinalBid(rng.randrange(3), rng.randrange(-1, 12))]
    moves += [TakeFromKitty(seat, rng.choice(DECK), rng.choice(DECK)), TakeFromKitty((seat + 1) % 3, *DECK[:2])]
    if state.phase is not Phase.PLAY:
        moves += [Bid(seat, amount) for amount in rng.sample(range(11), 3)]
        moves += [FinalBid(seat, amount) for amount in rng.sample(range(11), 3)]
        moves += [Bid(seat, True), FinalBid(seat, False), Bid(seat, 11), FinalBid(seat, -1)]  # not 0..10
        other = state.hands[(seat + 1) % 3]
        for card in state.kitty:  # a kitty card, laid as point a card of another hand, or of none
            moves += [TakeFromKitty(seat, card, rng.choice(sorted(other, key=str)))] * bool(other)
            moves += [TakeFromKitty(seat, card, rng.choice(FOREIGN)), TakeFromKitty(seat, card, card)]
    pack = list(DECK)
    rng.shuffle(pack)
    hands = tuple(tuple(pack[i * 10:(i + 1) * 10]) for i in range(3))
    moves += [Deal(hands[:2], tuple(pack[30:])), Deal(hands, tuple(pack[29:32])),
              Deal((hands[0][:9] + (hands[1][0],), *hands[1:]), tuple(pack[30:])),
              Deal((hands[0][:9] + (rng.choice(FOREIGN),), *hands[1:]), tuple(pack[30:]))]
    if state.phase is not Phase.DEAL:
        moves.append(Deal(hands, tuple(pack[30:])))
    return moves


def check_game(seed: int) -> int:
    config = Bidding.configure(PLAYERS, dealer=seed % 3)
    return fastcheck.check_game(Bidding, config, BiddingTable, seed, illegal_moves)


@pytest.mark.slow  # the batched table against the pure moves over many games
def test_fast_table_makes_the_pure_moves() -> None:
    moves = sum(check_game(seed) for seed in range(9))
    assert moves > 3000


def test_every_play_at_random_positions() -> None:
    """At many positions, every way to play every card (and foreign ones): the same answer, the same error."""
    configs = [Bidding.configure(PLAYERS, dealer=seed) for seed in range(2)]
    plays = [play for card in (*DECK, *FOREIGN) for play in wrong_plays(card)]
    fastcheck.check_refusals_along(Bidding, configs, plays, Phase.PLAY, 0.15, random.Random(5))


@pytest.mark.parametrize("seed", range(10))
def test_play_run_stops_where_the_pure_path_refuses(seed: int) -> None:
    """A hand's plays in one run, with a play of the mover's hand slipped in somewhere (often a revoke
    or a wrong choice): it stops before it if the pure path refuses it, with the pure path's events."""
    rng = random.Random(seed)
    state = Bidding.initial_state(Bidding.configure(PLAYERS, dealer=seed % 3))
    table = Bidding.table(state, record=False)
    loud = Bidding.table(state)
    assert isinstance(table, BiddingTable) and isinstance(loud, BiddingTable)
    while not Bidding.is_over(state):
        while state.phase is not Phase.PLAY:
            state = fastcheck.apply_all(Bidding, state, Bidding.random_move(state, rng), table, loud)
        plays: list[Any] = []
        probe = state
        positions = []
        while probe.phase is Phase.PLAY:
            positions.append(probe)
            move = Bidding.random_move(probe, rng)
            plays.append(move)
            probe, _ = Bidding.apply(probe, move)
        wrong = rng.randrange(len(plays) + 3)  # sometimes no wrong play at all
        if wrong < len(plays):
            at = positions[wrong]
            assert at.to_move is not None
            card = rng.choice(sorted(at.hands[at.to_move], key=str))
            plays.insert(wrong, rng.choice([*wrong_plays(card), *play_choices(card)]))
        plays += [PlayCard(rng.choice(DECK))] * 2  # plays past the end of the hand are not made
        state = fastcheck.check_play_run(Bidding, state, table, loud, plays, Phase.PLAY, rng)


# --------------------------------------------------------------------------- the replay's check path


TOKENS = (*map(str, DECK), *map(str, DECK), "AH-", "AS+", "JoS+", "JoD-", "Jo", "JoH", "9H+", "QC-", "7H>Bob", "2H",
          "11D", "KD!?")


def corrupted_token(rng: random.Random) -> str:
    """What a corrupted trick line's changed card becomes (`fastcheck.corrupted`)."""
    return rng.choice(TOKENS)


@pytest.mark.parametrize("seed", range(12))
def test_check_path_reports_what_the_full_replay_reports(seed: int) -> None:
    """`validate_record` (no history: `play_run` over a hand's unmarked tricks) and the full play-by-play
    replay report the same problems and notes, on simulated records with a card changed."""
    from diamonds.core import simulate

    fastcheck.check_path_matches(simulate(3, rules="bidding", seed=seed), seed, fastcheck.swap_drop_or_change(corrupted_token))


# --------------------------------------------------------------------------- the trick's winner in one pass


def two_step_winner(plays: list[Played]) -> tuple[int, WinReason]:
    """B8 as first written: a high Joker; else the strongest trump; else the strongest card of the led suit."""
    for index, play in enumerate(plays):
        if isinstance(play.card, Joker) and play.high:
            return index, WinReason.HIGH_JOKER
    trumps = [i for i, play in enumerate(plays) if play.suit is Suit.DIAMONDS]
    indices = trumps or [i for i, play in enumerate(plays) if play.suit is plays[0].suit]
    best = max(indices, key=lambda i: in_suit_strength(plays[i].card, plays[i].high))
    return best, WinReason.TRUMP if trumps else WinReason.LED_SUIT


def random_trick(rng: random.Random) -> list[Played]:
    """1-4 plays of random cards, each with a random choice: aces and the Joker high, low or unsaid (B7),
    the Joker in any suit."""
    plays = []
    for seat, card in enumerate(rng.sample(DECK, rng.randint(1, 4))):
        high = rng.choice((None, True, False))
        suit = rng.choice(list(Suit)) if isinstance(card, Joker) else card.suit
        plays.append(Played(seat, card, high, suit))
    return plays


@pytest.mark.parametrize("seed", range(4))
def test_one_pass_trick_winner_is_the_two_step_definition(seed: int) -> None:
    """`trick_winner` (one pass) against B8 written in two steps, on random tricks of 1-4 plays, each card
    with every choice (aces and the Joker high, low or unsaid; the Joker in any suit)."""
    rng = random.Random(seed)
    for _ in range(5000):
        plays = random_trick(rng)
        assert trick_winner(plays) == two_step_winner(plays), plays


@pytest.mark.parametrize("seed", range(2))
def test_a_trick_is_won_by_its_last_play_that_took_it(seed: int) -> None:
    """`takes_trick` (what the greedy bot weighs each play by) against `trick_winner`: on random tricks of 1-4
    plays, every choice as above, the winner is the last play that took the trick over the plays before it."""
    rng = random.Random(seed)
    taken_over = 0
    for _ in range(5000):
        plays = random_trick(rng)
        took = [i for i in range(len(plays)) if takes_trick(trick_bar(plays[:i]), plays[i])]
        assert took[0] == 0 and took[-1] == trick_winner(plays)[0], plays
        taken_over += len(took) > 1
    assert taken_over > 1000  # tricks taken over by a later play are common, so the check has teeth


CALL_TOKENS = ("0", "1", "5", "9", "10", "11", "03", "Ann", "ann", "Bob", "Cat", "Dan", "AH-", "AH", "JoS+", "Jo",
               "9H>Bob", "9H", "2H", "11D", "KD!?", "QS", "7C")


def corrupted_calls(text: str, rng: random.Random) -> str:
    """The record with a bid, take, final, deal or kitty line swapped with another, dropped, with a word
    changed (an amount, a player, a card, with or without marks; a word of another line), or with a mark
    after a word."""
    lines = text.split("\n")
    calls = [i for i, line in enumerate(lines) if line.split(" ", 1)[0] in ("bid", "take", "final", "deal", "kitty")]
    index = rng.choice(calls)
    how = rng.randrange(6)
    if how == 5:  # a word of another line: a card dealt twice, taken twice, laid from another hand
        tokens = lines[index].split(" ")
        tokens[rng.randrange(1, len(tokens))] = rng.choice(lines[rng.choice(calls)].split(" ")[1:])
        lines[index] = " ".join(tokens)
    elif how == 0:
        other = rng.choice(calls)
        lines[index], lines[other] = lines[other], lines[index]
    elif how == 1:
        del lines[index]
    else:
        tokens = lines[index].split(" ")
        at = rng.randrange(1, len(tokens))
        tokens[at] = rng.choice(CALL_TOKENS) if how < 4 else tokens[at] + rng.choice(("-", "+", ">Bob", "S+", "!?"))
        lines[index] = " ".join(tokens)
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(8))
def test_check_path_calls_report_what_the_full_replay_reports(seed: int) -> None:
    """The check path's calls (`play_written_calls`: bids, takes and final bids straight to the table) and its
    deal lines report what the full replay reports, on records with a call or deal line changed."""
    from diamonds.core import simulate
    from diamonds.notation import parse_game
    from diamonds.notation.writer import write_game
    from diamonds.replay import record_from_game, replay_record, validate_record

    rng = random.Random(seed)
    game = simulate(3, rules="bidding", seed=100 + seed)
    for deals in (True, False):
        text = write_game(record_from_game(game, deals=deals))
        for _ in range(12):
            bad = corrupted_calls(text, rng)
            checked = validate_record(parse_game(bad))
            assert fastcheck.problems_of(checked) == fastcheck.problems_of(replay_record(parse_game(bad))), bad
