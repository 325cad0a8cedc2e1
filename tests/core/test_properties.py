"""Property-based tests: random games of every allowed set-up keep the rules' invariants.

Hypothesis draws a seed and a first dealer; `diamonds_core.simulate.random_move`
with `random.Random(seed)` plays a whole game through `Engine.push`, and after
every move `GameChecker` compares the engine with an independent model built
from the rulings (R1-R18) and from the events the engine reports:

* points (R3): Supply + Showrooms + Vaults == 235, no area negative, and the
  state moves exactly as the events' transfers say;
* cards (R5, R6, R8, R10): every dealt card is in exactly one place (a hand, a
  pass not yet delivered, the current trick, or a completed trick counted in
  `taken`), and the counts add up to hand size × players;
* legality: the move made is one of `legal_moves`, the playable cards are
  exactly those R8 allows, every other card is refused with the right error
  class and leaves the game as it was, Clubs victims are refused per R14;
* events: off-suit actions (R9), trick winners and their action (R10), suit
  actions and what they move (R12-R14), the Thief (R13, R15), end-of-round
  awards (R16, R17), and at the end the results (R18), rounds (R4) and tricks
  (R11);
* `Engine.pop` restores every earlier state, and pushing the same moves again
  reproduces the same states and events.

A run plays len(COMBOS) × (GAMES_PER_COMBO + EXHAUSTIVE_GAMES_PER_COMBO +
REPLAYED_GAMES_PER_COMBO) games: 36 × (25 + 3 + 10) = 1368.

The expected numbers below are copied from RULINGS (R3, R4, R5, R8, R11), not
from the engine, so that a wrong configuration shows up here as well.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from math import comb

import pytest
from helpers import SETUPS, allowed_variant_sets, setup_id  # noqa: F401  (shared list of set-ups)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diamonds.core import SUITS, ConfigError, Engine, IllegalMove, Suit, sort_cards
from diamonds.families.fitzgerald.rules import (
    Area,
    AreaKind,
    CardNotHeld,
    CardPlayed,
    CardsDealt,
    CardsPassed,
    ChoosePassCount,
    ChooseVictim,
    Continuation,
    Deal,
    GameConfig,
    GameEnded,
    GameOver,
    MustFollowSuit,
    PassCards,
    PassCountChosen,
    PassesDelivered,
    Phase,
    PlayCard,
    Reason,
    RoundEnded,
    RoundStarted,
    SuitAction,
    TrickWon,
    Variant,
    VictimNotAllowed,
    VictimRequired,
    apply,
    configure,
    deck,
    legal_moves,
    random_move,
    rule_set,
)

pytestmark = pytest.mark.slow  # long property runs: over a thousand random games of every set-up, checked

# --------------------------------------------------------------------------- the rulings' numbers

TOTAL_POINTS = 110 * 1 + 25 * 5  # R3: 235
ROUNDS = {2: 4, 3: 6, 4: 4, 5: 5, 6: 6}  # R4
STANDARD_HAND = 10  # R5
PERFECT_DEAL = {5: (12, 15), 4: (13, 13), 3: (12, 9), 2: (16, 8)}  # R5: hand size, highest rank
START_SHOWROOM = 3  # R2, per player
ALL_CARDS = deck(15)
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def expected_hand_size(players: int, variants: tuple[str, ...]) -> int:
    return PERFECT_DEAL[players][0] if "perfect" in variants else STANDARD_HAND  # R5


def expected_top_rank(players: int, variants: tuple[str, ...]) -> int:
    return PERFECT_DEAL[players][1] if "perfect" in variants else 15  # R5


def expected_tricks(players: int, variants: tuple[str, ...]) -> int:
    hand = expected_hand_size(players, variants)
    return hand // 2 if players == 2 else hand  # R11


def expected_plays_per_trick(players: int) -> int:
    return 4 if players == 2 else players  # R8


COMBOS = SETUPS


def combo_id(rules: str, players: int, variants: tuple[str, ...]) -> str:
    return f"{rules}-{players}p" + "".join(f"-{v}" for v in variants)


COMBO_PARAMS = [pytest.param(*combo, id=combo_id(*combo)) for combo in COMBOS]


def make_config(rules: str, players: int, variants: tuple[str, ...], dealer: int) -> GameConfig:
    return rule_set(rules).configure(NAMES[:players], variants=variants, dealer=dealer % players)


def test_combos_are_exactly_the_set_ups_the_engine_accepts():
    """Guards COMBOS: every set-up GameConfig accepts is tested, and nothing it refuses."""
    accepted = set()
    for rules in ("1e", "2e", "bga"):
        for players in range(1, 8):
            for k in range(3):
                for variants in itertools.combinations(("partnership", "perfect"), k):
                    try:
                        configure(NAMES[:players] + ("Gus",) * (players > 6), rules=rules,
                                          variants=variants)
                    except ConfigError:
                        continue
                    accepted.add((rules, players, variants))
    assert accepted == set(COMBOS)


# --------------------------------------------------------------------------- the checker


class GameChecker:
    """An independent model of one game, fed every (state, move, next state, events)."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.n = config.player_count
        self.rules = config.rules
        self.variants = tuple(v.value for v in Variant if v in config.variants)
        self.hand_size = expected_hand_size(self.n, self.variants)
        self.partnership = "partnership" in self.variants
        self.thief_rules = self.rules in ("2e", "bga") and self.n >= 3 and not self.partnership  # R13/R14
        assert config.uses_thief == self.thief_rules
        # sides as RULINGS describes them (R2, R14): a player, or a team of partners
        if self.partnership:
            half = self.n // 2
            self.partner = {seat: (seat + half) % self.n for seat in range(self.n)}
        else:
            self.partner = {seat: seat for seat in range(self.n)}
        self.expected_actions: deque[tuple[int | None, int, Suit, Reason]] = deque()
        self.round_starts: list[RoundStarted] = []
        self.round_ends: list[RoundEnded] = []
        self.tricks_per_round: list[int] = []
        self.game_ended: list[GameEnded] = []
        self.trick_lengths: list[int] = []
        self.reset_round()

    def reset_round(self) -> None:
        self.dealt: set = set()
        self.played_done: set = set()  # cards of completed tricks
        self.trick: list[tuple[int, object]] = []
        self.taken = [[0, 0, 0, 0] for _ in range(self.config.side_count)]
        self.tricks_won = [0] * self.n
        self.next_leader: int | None = None
        self.trick_count = 0

    # ------------------------------------------------------------ helpers

    def left(self, seat: int) -> int:
        return (seat + 1) % self.n  # R1

    def side(self, seat: int) -> int:
        side = self.config.side_of[seat]
        assert seat in self.config.sides[side]
        assert self.partner[seat] in self.config.sides[side]  # R2: partners share a side
        return side

    def own_seats(self, side: int) -> tuple[int, ...]:
        return self.config.sides[side]

    def first_leader(self, dealer: int) -> int:
        return dealer if self.rules == "bga" else self.left(dealer)  # R7

    # ------------------------------------------------------------ one step

    def step(self, game: Engine, move, thorough: bool) -> None:
        """Check `move` against the current state, push it, and check what follows."""
        prev = game.state
        self.check_legality(game, prev, move, thorough)  # also tries refused moves on `game`
        # the pure path from the snapshot: the game's table must not have been
        # disturbed by the refused moves, and push must agree with apply
        expected_state, expected_events = apply(prev, move)
        before = len(game)
        events = game.push(move)
        assert len(game) == before + 1
        new = game.state
        assert events == expected_events and new == expected_state
        self.check_events(prev, move, new, events)
        self.check_state(new)

    # ------------------------------------------------------------ legality

    def check_legality(self, game: Engine, prev, move, thorough: bool) -> None:
        phase = prev.phase
        config = self.config
        if phase is Phase.DEAL:
            assert isinstance(move, Deal)
            assert legal_moves(prev) == ()  # the deal is a chance move
            return
        if phase is Phase.PASS_COUNT:
            assert isinstance(move, ChoosePassCount)
            assert set(legal_moves(prev)) == {ChoosePassCount(k) for k in (1, 2, 3)}  # R6
            assert move in legal_moves(prev)
            return
        if phase is Phase.PASSING:
            assert isinstance(move, PassCards)
            assert prev.passed[move.seat] is None
            assert len(move.cards) == prev.pass_count == len(set(move.cards))
            assert set(move.cards) <= prev.hands[move.seat]
            if thorough:
                # legal_moves lists each pass once, in hand order; the simulator draws
                # the cards in random order, so compare the sets of cards.
                # R6: the passes are made at once, and taken in seat order from the dealer's left:
                # only the first seat after the dealer yet to pass has legal moves.
                legal = {(m.seat, frozenset(m.cards)) for m in legal_moves(prev)}
                assert (move.seat, frozenset(move.cards)) in legal
                waiting = [(prev.dealer + k) % self.n for k in range(1, self.n + 1)
                           if prev.passed[(prev.dealer + k) % self.n] is None]
                assert move.seat == waiting[0] == prev.to_move
                assert len(legal) == comb(len(prev.hands[move.seat]), prev.pass_count)
            return
        if phase is Phase.PLAY:
            assert isinstance(move, PlayCard)
            mover = prev.to_move
            assert mover is not None
            legal = legal_moves(prev)
            assert move in legal
            hand = prev.hands[mover]
            led = prev.trick[0][1].suit if prev.trick else None
            following = {c for c in hand if c.suit is led}
            allowed = following or set(hand)  # R8
            assert len(legal) == len(set(legal))
            assert {m.card for m in legal} == allowed
            self.check_refusals(game, prev, hand, allowed, thorough)
            return
        if phase is Phase.CHOOSE_VICTIM:
            assert isinstance(move, ChooseVictim)
            assert not self.thief_rules  # R13: the Thief leaves no choice
            pending = prev.pending
            assert pending is not None
            assert pending.candidates == tuple(s for s in range(config.side_count) if s != pending.side)  # R14
            required = len(pending.candidates) >= 2 and any(prev.showroom[s] > 0 for s in pending.candidates)
            assert pending.required == required  # R14
            others = {seat for s in pending.candidates for seat in self.own_seats(s)}
            legal = legal_moves(prev)
            assert move in legal
            assert set(legal) == {ChooseVictim(seat) for seat in others} | (
                set() if required else {ChooseVictim(None)}
            )
            self.check_victim_refusals(game, prev, pending, required)
            return
        raise AssertionError(f"a move in phase {phase}")

    def check_refusals(self, game: Engine, prev, hand, allowed, thorough: bool) -> None:
        """R8: every card that may not be played is refused; nothing changes."""
        length = len(game)
        if thorough:
            candidates = [c for c in ALL_CARDS if c not in allowed]
        else:
            # one held card that must not be played (if any), and one card not held
            unplayable = [c for c in hand if c not in allowed]
            candidates = [unplayable[length % len(unplayable)]] if unplayable else []
            for k in range(length, length + len(ALL_CARDS)):
                card = ALL_CARDS[(k * 7919) % len(ALL_CARDS)]
                if card not in hand:
                    candidates.append(card)
                    break
        for card in candidates:
            expected = MustFollowSuit if card in hand else CardNotHeld
            try:
                game.push(PlayCard(card))
            except IllegalMove as error:  # (not pytest.raises: this runs ~10^6 times)
                assert type(error) is expected, (card, error)
                assert error.rule == "R8"
            else:
                raise AssertionError(f"{card} was accepted; the legal cards are {sorted(map(str, allowed))}")
            assert game.state is prev and len(game) == length

    def check_victim_refusals(self, game: Engine, prev, pending, required: bool) -> None:
        """R14: naming one's own side is an error; leaving the victim out only where allowed."""
        length = len(game)
        for seat in self.own_seats(pending.side):
            with pytest.raises(VictimNotAllowed):
                game.push(ChooseVictim(seat))
            assert game.state is prev and len(game) == length
        for seat in (-1, self.n):
            with pytest.raises(VictimNotAllowed):
                game.push(ChooseVictim(seat))
            assert game.state is prev and len(game) == length
        if required:
            with pytest.raises(VictimRequired):
                game.push(ChooseVictim(None))
            assert game.state is prev and len(game) == length
        else:
            apply(prev, ChooseVictim(None))  # accepted (checked without pushing it)

    # ------------------------------------------------------------ events

    def check_events(self, prev, move, new, events) -> None:
        config = self.config
        supply = prev.supply
        showroom = list(prev.showroom)
        vault = list(prev.vault)
        thief = prev.thief

        def take(area: Area, points: int) -> None:
            nonlocal supply
            if points == 0:
                return  # e.g. an unnamed victim: Area(SHOWROOM, None)
            if area.kind is AreaKind.SUPPLY:
                supply -= points
            elif area.kind is AreaKind.SHOWROOM:
                showroom[area.side] -= points
            else:
                vault[area.side] -= points

        for i, event in enumerate(events):
            if not isinstance(event, SuitAction):
                assert not self.expected_actions, (event, self.expected_actions)

            if isinstance(event, RoundStarted):
                assert isinstance(move, Deal) and i == 0
                assert event.round_no == prev.round_no == len(self.round_starts) + 1
                assert event.dealer == (config.first_dealer + event.round_no - 1) % self.n  # R4
                assert prev.dealer == event.dealer
                assert prev.leader == self.first_leader(event.dealer)  # R7
                if self.thief_rules:
                    if event.round_no == 1 or self.rules == "bga":
                        assert event.thief == self.left(event.dealer)  # R15
                    assert event.thief == prev.thief
                else:
                    assert event.thief is None and prev.thief is None
                self.round_starts.append(event)
                self.reset_round()
                self.next_leader = self.first_leader(event.dealer)

            elif isinstance(event, CardsDealt):
                assert event.round_no == prev.round_no
                assert len(event.hands) == self.n
                dealt = [card for hand in event.hands for card in hand]
                assert all(len(hand) == self.hand_size for hand in event.hands)  # R5
                assert len(set(dealt)) == len(dealt)
                assert set(dealt) <= set(self.config.deck)
                top = expected_top_rank(self.n, self.variants)
                assert all(card.rank <= top for card in dealt)  # R5
                assert [set(h) for h in event.hands] == [set(h) for h in move.hands]
                self.dealt = set(dealt)

            elif isinstance(event, PassCountChosen):
                assert event.dealer == prev.dealer and event.count == move.count

            elif isinstance(event, CardsPassed):
                assert event.giver == move.seat and tuple(event.cards) == sort_cards(move.cards)  # display order
                if self.partnership:
                    assert event.receiver == (event.giver + self.n // 2) % self.n  # R6
                else:
                    assert event.receiver == self.left(event.giver)  # R6 (the opponent with 2)

            elif isinstance(event, PassesDelivered):
                assert isinstance(move, PassCards) and new.phase is Phase.PLAY
                # R6: each seat now holds what it kept plus what it received
                for seat in range(self.n):
                    giver = next(g for g in range(self.n) if config.pass_target(g) == seat)
                    kept = prev.hands[seat] - (set(move.cards) if seat == move.seat else set())
                    assert new.hands[seat] == kept | set(new.passed[giver])

            elif isinstance(event, CardPlayed):
                assert isinstance(move, PlayCard) and i == 0 and event.card is move.card
                lead = not self.trick
                if lead:
                    assert event.seat == self.next_leader  # R7, R10
                else:
                    assert event.seat == (self.trick[0][0] + len(self.trick)) % self.n  # R8
                assert event.seat == prev.to_move
                assert event.card in prev.hands[event.seat]
                assert event.trick_no == self.trick_count + 1
                led = event.card.suit if lead else self.trick[0][1].suit
                assert event.led_suit is led and event.leads == lead
                assert event.followed == (event.card.suit is led)
                self.trick.append((event.seat, event.card))
                if not event.followed:
                    # R9: the off-suit play's action, at once (leading never earns one)
                    self.expected_actions.append(
                        (event.seat, self.side(event.seat), event.card.suit, Reason.OFF_SUIT)
                    )

            elif isinstance(event, TrickWon):
                assert len(self.trick) == expected_plays_per_trick(self.n)  # R8
                led = self.trick[0][1].suit
                winner, best = max(((s, c) for s, c in self.trick if c.suit is led), key=lambda sc: sc[1].rank)
                assert (event.winner, event.card, event.led_suit) == (winner, best, led)  # R10
                assert event.cards == tuple(c for _, c in self.trick)
                self.trick_count += 1
                assert event.trick_no == self.trick_count
                side = self.side(winner)
                for _, card in self.trick:
                    self.taken[side][card.suit.index] += 1
                    self.played_done.add(card)
                self.trick_lengths.append(len(self.trick))
                self.trick = []
                self.tricks_won[winner] += 1
                self.next_leader = winner  # R7
                self.expected_actions.append((winner, side, led, Reason.TRICK_WON))  # R10

            elif isinstance(event, RoundEnded):
                assert event.round_no == prev.round_no
                assert self.trick_count == expected_tricks(self.n, self.variants)  # R11
                assert self.played_done == self.dealt and not self.trick
                assert [list(row) for row in event.taken] == self.taken
                assert list(event.tricks_won) == self.tricks_won
                self.round_ends.append(event)
                self.tricks_per_round.append(self.trick_count)
                # R16: majority per suit, in the order D, H, S, C
                for suit in SUITS:
                    counts = [row[suit.index] for row in self.taken]
                    most = max(counts)
                    winners = [s for s, c in enumerate(counts) if c == most]
                    majority = winners[0] if most >= 1 and len(winners) == 1 else None
                    assert event.majority[suit.index] == majority
                    if majority is not None:
                        members = self.own_seats(majority)
                        actor = members[0] if len(members) == 1 else None
                        self.expected_actions.append((actor, majority, suit, Reason.SUIT_MAJORITY))
                # R17: two Diamonds actions per trickless player, from the dealer's left
                for step in range(1, self.n + 1):
                    seat = (prev.dealer + step) % self.n
                    if self.tricks_won[seat] == 0:
                        for _ in range(2):
                            self.expected_actions.append(
                                (seat, self.side(seat), Suit.DIAMONDS, Reason.NO_TRICKS)
                            )

            elif isinstance(event, GameEnded):
                assert i == len(events) - 1 and new.phase is Phase.GAME_OVER
                self.game_ended.append(event)

            elif isinstance(event, SuitAction):
                assert self.expected_actions, f"unexpected {event}"
                actor, side, suit, reason = self.expected_actions.popleft()
                assert (event.actor, event.side, event.suit, event.reason) == (actor, side, suit, reason)
                assert event.points in (0, 1)
                if suit is Suit.DIAMONDS:  # R12
                    assert (event.source, event.target) == (Area(AreaKind.SUPPLY), Area(AreaKind.VAULT, side))
                    assert event.points == (1 if supply > 0 else 0)  # R3
                elif suit is Suit.HEARTS:  # R12
                    assert (event.source, event.target) == (Area(AreaKind.SUPPLY), Area(AreaKind.SHOWROOM, side))
                    assert event.points == (1 if supply > 0 else 0)  # R3
                elif suit is Suit.SPADES:  # R12
                    assert (event.source, event.target) == (
                        Area(AreaKind.SHOWROOM, side), Area(AreaKind.VAULT, side))
                    assert event.points == (1 if showroom[side] > 0 else 0)
                elif self.thief_rules:  # R13
                    assert event.thief_before == thief
                    victim = config.side_of[thief]
                    assert event.victim == victim
                    assert (event.source, event.target) == (
                        Area(AreaKind.SHOWROOM, victim), Area(AreaKind.SHOWROOM, side))
                    assert event.points == (1 if victim != side and showroom[victim] > 0 else 0)
                    assert event.thief_after == self.left(thief)
                    thief = event.thief_after
                else:  # R14
                    assert isinstance(move, ChooseVictim) and i == 0
                    assert prev.pending is not None and prev.pending.side == side
                    if move.victim is not None:
                        victim = config.side_of[move.victim]
                    elif len(prev.pending.candidates) == 1:
                        victim = prev.pending.candidates[0]
                    else:
                        victim = None
                        assert all(showroom[s] == 0 for s in prev.pending.candidates)
                    assert victim != side
                    assert event.victim == victim
                    assert (event.source, event.target) == (
                        Area(AreaKind.SHOWROOM, victim), Area(AreaKind.SHOWROOM, side))
                    assert event.points == (1 if victim is not None and showroom[victim] > 0 else 0)
                if suit is not Suit.CLUBS or not self.thief_rules:
                    assert event.thief_before is None and event.thief_after is None
                if suit is not Suit.CLUBS:
                    assert event.victim is None
                take(event.source, event.points)
                take(event.target, -event.points)
                assert supply >= 0 and min(showroom) >= 0 and min(vault) >= 0  # R3

            else:
                raise AssertionError(f"unknown event {event!r}")

        # a pending Clubs victim (R14) is the only thing left waiting
        if new.phase is Phase.CHOOSE_VICTIM:
            pending = new.pending
            assert pending is not None and self.expected_actions
            actor, side, suit, reason = self.expected_actions[0]
            assert suit is Suit.CLUBS and not self.thief_rules
            assert (pending.actor, pending.side, pending.reason) == (actor, side, reason)
            assert pending.then is {
                Reason.OFF_SUIT: Continuation.AFTER_OFF_SUIT,
                Reason.TRICK_WON: Continuation.AFTER_TRICK,
                Reason.SUIT_MAJORITY: Continuation.AFTER_MAJORITY,
            }[reason]
        else:
            assert new.pending is None and not self.expected_actions

        # the state moved exactly as the events say
        assert (new.supply, list(new.showroom), list(new.vault)) == (supply, showroom, vault)
        if not self.thief_rules:
            assert new.thief is None
        elif new.round_no != prev.round_no and self.rules == "bga":
            assert new.thief == self.left(new.dealer)  # R15
        else:
            assert new.thief == thief  # R13 / R15: 2e keeps the Thief where it is

    # ------------------------------------------------------------ state

    def check_initial(self, start) -> None:
        """R2: 3 Showroom points per player (6 per team), empty Vaults; R3: the rest in the Supply."""
        members = [len(side) for side in self.config.sides]
        assert members == [2 if self.partnership else 1] * (self.n // 2 if self.partnership else self.n)
        assert list(start.showroom) == [START_SHOWROOM * m for m in members]
        assert list(start.vault) == [0] * len(members)
        assert start.supply == TOTAL_POINTS - START_SHOWROOM * self.n
        assert start.phase is Phase.DEAL and start.round_no == 1


    def check_state(self, new) -> None:
        # R3: points are conserved, no area negative
        assert new.supply + sum(new.showroom) + sum(new.vault) == TOTAL_POINTS == new.points_in_play
        assert new.supply >= 0 and min(new.showroom) >= 0 and min(new.vault) >= 0
        assert (new.phase is Phase.CHOOSE_VICTIM) == (new.pending is not None)
        if new.phase is Phase.DEAL:
            assert all(not hand for hand in new.hands) and not new.trick
            assert all(row == (0, 0, 0, 0) for row in new.taken) and sum(new.tricks_won) == 0
            assert new.pass_count is None and all(p is None for p in new.passed)
            assert new.leader == self.first_leader(new.dealer)  # R7
            return
        # cards: every dealt card in exactly one place (set operations on the
        # frozensets reuse the cards' stored hashes, which keeps this cheap)
        in_flight: set = set()
        flight_count = 0
        if new.phase is Phase.PASSING:
            for passed in new.passed:
                if passed is not None:
                    in_flight.update(passed)
                    flight_count += len(passed)
        held = set().union(*new.hands)
        hand_count = sum(len(hand) for hand in new.hands)
        trick_cards = {card for _, card in new.trick}
        places = held | in_flight | trick_cards
        assert len(places) == hand_count + flight_count + len(new.trick)  # no card in two places
        assert places.isdisjoint(self.played_done)
        assert places | self.played_done == self.dealt
        counted = hand_count + len(new.trick) + sum(map(sum, new.taken)) + flight_count
        assert counted == self.hand_size * self.n
        assert [list(row) for row in new.taken] == self.taken
        assert list(new.tricks_won) == self.tricks_won
        assert list(new.trick) == self.trick

    # ------------------------------------------------------------ end of game

    def check_end(self, game: Engine) -> None:
        config = self.config
        final = game.state
        assert final.phase is Phase.GAME_OVER and final.is_over
        assert len(self.game_ended) == 1  # emitted once, by the last move
        assert any(isinstance(e, GameEnded) for e in game.events[-1])
        assert sum(isinstance(e, GameEnded) for step in game.events for e in step) == 1
        ended = self.game_ended[0]
        # R4: rounds; R11: tricks per round; R8: plays per trick
        rounds = ROUNDS[self.n]
        assert [r.round_no for r in self.round_starts] == list(range(1, rounds + 1))
        assert [r.round_no for r in self.round_ends] == list(range(1, rounds + 1))
        assert [r.dealer for r in self.round_starts] == [
            (config.first_dealer + k) % self.n for k in range(rounds)
        ]
        assert self.tricks_per_round == [expected_tricks(self.n, self.variants)] * rounds
        assert set(self.trick_lengths) == {expected_plays_per_trick(self.n)}
        # R18: score, then Vault, ties share
        assert [r.side for r in ended.results] == list(range(config.side_count))
        for r in ended.results:
            assert (r.vault, r.showroom) == (final.vault[r.side], final.showroom[r.side])
            assert r.score == 2 * r.vault + r.showroom == final.score(r.side)
        best = max(r.score for r in ended.results)
        best_vault = max(r.vault for r in ended.results if r.score == best)
        expected = {r.side for r in ended.results if r.score == best and r.vault == best_vault}
        assert set(ended.winners) == expected and expected
        assert all(r.winner == (r.side in expected) for r in ended.results)
        # nothing more is legal
        assert legal_moves(final) == ()
        for move in (PlayCard(config.deck[0]), ChooseVictim(None), ChoosePassCount(1),
                     Deal(((),) * self.n)):
            with pytest.raises(GameOver):
                game.push(move)
        assert game.state is final


def play_checked(config: GameConfig, seed: int, thorough_every: int) -> tuple[Engine, list]:
    """Play one random game, checking every step; return it with the states it went through.

    `thorough_every`: check every refusable card and list every pass on one step in
    that many (1: every step); other steps check the cheaper subset.
    """
    rng = random.Random(seed)
    game = Engine(config)
    checker = GameChecker(config)
    checker.check_initial(game.state)
    checker.check_state(game.state)
    states = [game.state]
    guard = 0
    while not game.state.is_over:
        move = random_move(game.state, rng)
        checker.step(game, move, thorough=(len(game) % thorough_every == 0))
        states.append(game.state)
        guard += 1
        assert guard < 5000, "the game does not end"
    checker.check_end(game)
    return game, states


def check_pop(game: Engine, states: list) -> None:
    """Game.pop back to the start restores every earlier state exactly."""
    moves = list(game.moves)
    assert len(states) == len(moves) + 1
    for ply in range(len(moves), 0, -1):
        assert game.state == states[ply] and len(game) == ply
        assert game.state_at(ply - 1) == states[ply - 1]
        assert game.pop() == moves[ply - 1]
        assert game.state == states[ply - 1]
        assert game.moves == tuple(moves[: ply - 1])
    assert len(game) == 0 and game.state == states[0]
    with pytest.raises(IndexError):
        game.pop()


# --------------------------------------------------------------------------- the tests

GAMES_PER_COMBO = 25
EXHAUSTIVE_GAMES_PER_COMBO = 3
REPLAYED_GAMES_PER_COMBO = 10
seeds = st.integers(min_value=0, max_value=2**64 - 1)
dealers = st.integers(min_value=0, max_value=5)


@pytest.mark.parametrize(("rules", "players", "variants"), COMBO_PARAMS)
@settings(max_examples=GAMES_PER_COMBO, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, dealer=dealers)
def test_random_games_keep_the_invariants(rules, players, variants, seed, dealer):
    config = make_config(rules, players, variants, dealer)
    game, states = play_checked(config, seed, thorough_every=64)
    check_pop(game, states)


@pytest.mark.parametrize(("rules", "players", "variants"), COMBO_PARAMS)
@settings(max_examples=EXHAUSTIVE_GAMES_PER_COMBO, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, dealer=dealers)
def test_every_refusable_move_is_refused_at_every_step(rules, players, variants, seed, dealer):
    """The expensive checks (every card of the deck, every pass listed) on every step."""
    config = make_config(rules, players, variants, dealer)
    play_checked(config, seed, thorough_every=1)


@pytest.mark.parametrize(("rules", "players", "variants"), COMBO_PARAMS)
@settings(max_examples=REPLAYED_GAMES_PER_COMBO, deadline=None)
@given(seed=seeds, dealer=dealers, data=st.data())
def test_pop_then_push_replays_the_same_states_and_events(rules, players, variants, seed, dealer, data):
    """After popping to any point, pushing the same moves gives the same states and events;
    a game without history (with or without events) ends in the same state."""
    config = make_config(rules, players, variants, dealer)
    rng = random.Random(seed)
    game = Engine(config)
    states = [game.state]
    while not game.state.is_over:
        game.push(random_move(game.state, rng))
        states.append(game.state)
    moves, events = game.moves, game.events
    back_to = data.draw(st.integers(min_value=0, max_value=len(moves)), label="back_to")
    while len(game) > back_to:
        game.pop()
    assert game.state == states[back_to]
    for ply in range(back_to, len(moves)):
        assert game.push(moves[ply]) == events[ply]
        assert game.state == states[ply + 1]
    assert game.moves == moves and game.events == events
    # without history (the fast path) the same moves give the same events and end
    fast = Engine(config, history=False)
    assert [fast.push(move) for move in moves] == list(events)
    assert fast.state == states[-1] and fast.is_over
    quiet = Engine(config, history=False, events=False)
    assert all(quiet.push(move) == () for move in moves)
    assert quiet.state == states[-1]
    with pytest.raises(ValueError):
        quiet.pop()
