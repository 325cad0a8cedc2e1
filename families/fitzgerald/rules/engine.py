"""Mike Fitzgerald's Diamonds: the legal moves and the effect of each move (the family's fast core).

`apply(state, move)` is a pure function: it checks the move, then runs the
game forward on a mutable working copy until the next decision is due,
collecting the events on the way, and freezes the result into a new `State`.
Ruling ids (R1…) mark where a ruling decides what happens.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, ClassVar, Final, cast

if TYPE_CHECKING:
    from diamonds.core.game import Engine

from diamonds.core.cards import MAX_RANK, SUITS, AnyCard, Card, Suit, format_cards, numbered_cards, sort_cards, standard_cards

from .config import PASS_COUNTS, TOTAL_POINTS, GameConfig
from .errors import (
    CardNotHeld,
    GameOver,
    InvalidDeal,
    InvalidPass,
    MustFollowSuit,
    OutOfTurn,
    VictimNotAllowed,
    VictimRequired,
    WrongPassCount,
    WrongPhase,
)
from .events import (
    SUPPLY,
    Area,
    AreaKind,
    CardPlayed,
    CardsDealt,
    CardsPassed,
    Event,
    FitzgeraldResult,
    GameEnded,
    PassCountChosen,
    PassesDelivered,
    Reason,
    RoundEnded,
    RoundStarted,
    SuitAction,
    TrickWon,
)
from .moves import _PLAY_CARD, ChoosePassCount, ChooseVictim, Deal, Move, PassCards, PlayCard
from .state import Continuation, PendingVictim, Phase, State, side_score

__all__ = [
    "initial_state", "legal_moves", "apply", "victim_candidates", "results", "results_of", "standings", "first_leader",
    "trick_winner", "trick_seats", "playable_cards", "play_cards", "Table",
]

_DIAMONDS: Final = SUITS[0]
_HEARTS: Final = SUITS[1]
_SPADES: Final = SUITS[2]
_CLUBS: Final = SUITS[3]
# Enum members bound once: on Python 3.11 each `Phase.PLAY` is a lookup of about 0.1 µs,
# and the hot paths make millions of them.
_DEAL: Final[Phase] = Phase.DEAL
_PASS_COUNT: Final[Phase] = Phase.PASS_COUNT
_PASSING: Final[Phase] = Phase.PASSING
_PLAY: Final[Phase] = Phase.PLAY
_CHOOSE_VICTIM: Final[Phase] = Phase.CHOOSE_VICTIM
_GAME_OVER: Final[Phase] = Phase.GAME_OVER
_OFF_SUIT: Final[Reason] = Reason.OFF_SUIT
_TRICK_WON: Final[Reason] = Reason.TRICK_WON
_SUIT_MAJORITY: Final[Reason] = Reason.SUIT_MAJORITY
_NO_TRICKS: Final[Reason] = Reason.NO_TRICKS
_AFTER_OFF_SUIT: Final[Continuation] = Continuation.AFTER_OFF_SUIT
_AFTER_TRICK: Final[Continuation] = Continuation.AFTER_TRICK
_AFTER_MAJORITY: Final[Continuation] = Continuation.AFTER_MAJORITY
_SHOWROOM: Final[AreaKind] = AreaKind.SHOWROOM
_VAULT: Final[AreaKind] = AreaKind.VAULT
# Per suit (by `Suit.index`), every card of it: whether a hand holds the suit led is one set test (R8).
_OF_SUIT: Final = tuple(frozenset(card for card in (*numbered_cards(1, MAX_RANK), *standard_cards()) if card.suit is suit)
                 for suit in SUITS)


def initial_state(config: GameConfig) -> State:
    """Before round 1's deal: R2 Showrooms, R3 Supply, R15 Thief."""
    last = _INITIAL.get(id(config))
    if last is not None and last.config is config:  # the last configuration's, made again for each game
        return last
    _INITIAL.clear()
    state = _INITIAL[id(config)] = _initial_state(config)
    return state


_INITIAL: Final[dict[int, State]] = {}  # the last configuration's initial state, by the configuration's id


def _initial_state(config: GameConfig) -> State:
    n = config.player_count
    showroom = tuple(config.start_showroom(side) for side in range(config.side_count))
    dealer = config.first_dealer
    return State(
        config=config,
        phase=_DEAL,
        round_no=1,
        dealer=dealer,
        hands=tuple(frozenset() for _ in range(n)),
        pass_count=None,
        passed=(None,) * n,
        trick_no=1,
        leader=first_leader(config, dealer),
        trick=(),
        taken=((0, 0, 0, 0),) * config.side_count,
        tricks_won=(0,) * n,
        showroom=showroom,
        vault=(0,) * config.side_count,
        supply=TOTAL_POINTS - sum(showroom),
        thief=config.left_of(dealer) if config.uses_thief else None,  # R15
    )


def first_leader(config: GameConfig, dealer: int) -> int:
    """R7: the dealer's left neighbour leads; with `bga` the dealer."""
    return dealer if config.dealer_leads else config.left_of(dealer)


def trick_winner(plays: Sequence[tuple[int, Card]]) -> tuple[int, Card]:
    """R10: the seat and card of the highest card of the led suit. The loop takes the first card again (it
    cannot beat itself) rather than a slice, a new list at every call: the greedy rollouts ask at every card."""
    winner, best = plays[0]
    led = best.suit
    for seat, card in plays:
        if card.suit is led and card.rank > best.rank:
            winner, best = seat, card
    return winner, best


def trick_seats(config: GameConfig, leader: int, count: int) -> tuple[int, ...]:
    """R8: who plays the 1st, 2nd, … card of a trick (leader, opponent, leader, opponent with 2)."""
    n = config.player_count
    return tuple((leader + i) % n for i in range(count))


# --------------------------------------------------------------------------- legal moves


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal decision now. The deal is a chance move and is not listed."""
    phase = state.phase
    if phase is _PLAY:
        return tuple(map(PlayCard.of, playable_cards(state)))  # each card's one move, made once (moves are values)
    if phase is _CHOOSE_VICTIM:
        pending = state.pending
        assert pending is not None
        return tuple(victim_moves(state.config, pending))
    if phase is _PASS_COUNT:
        return tuple([ChoosePassCount(n) for n in PASS_COUNTS])
    if phase is _PASSING:
        assert state.pass_count is not None
        seat = state.to_move  # R6: passes are made at once; the engine takes them in seat order (docs/engine.md)
        assert seat is not None
        return tuple([PassCards(seat, cards) for cards in combinations(state.hand(seat), state.pass_count)])
    return ()


def playable_cards(state: State) -> tuple[Card, ...]:
    """R8: the led suit if the player holds one, else anything."""
    seat = state.to_move
    assert seat is not None
    return playable_in(state.hands[seat], state.trick)


def playable_in(hand: Collection[Card], trick: Sequence[tuple[int, Card]]) -> tuple[Card, ...]:
    """R8: the cards of `hand` (in any order) that may be played to `trick`, in display order."""
    if trick:  # the suit led's cards, sorted: fewer to sort than the hand (follow_suit on the hand sorted first)
        led = trick[0][1].suit
        following = [card for card in hand if card.suit is led]
        if following:
            return sort_cards(following)
    return sort_cards(hand)


def follow_suit(hand: Sequence[Card], trick: Sequence[tuple[int, Card]]) -> tuple[Card, ...]:
    """R8: of `hand` (in its order), the cards of the suit led to `trick` if it holds any, else all."""
    hand = tuple(hand)
    if trick:
        led = trick[0][1].suit
        following = tuple([card for card in hand if card.suit is led])
        if following:
            return following
    return hand


def victim_moves(config: GameConfig, pending: PendingVictim) -> list[Move]:
    """R14: a victim of each candidate side's seats, and `None` (no victim) where naming one is optional."""
    named: list[Move] = [ChooseVictim(seat) for side in pending.candidates for seat in config.sides[side]]
    return named if pending.required else [ChooseVictim(None), *named]


def victim_candidates(config: GameConfig, side: int) -> tuple[int, ...]:
    """R14: every other side."""
    key = (len(config.sides), side)
    found = _CANDIDATES.get(key)
    if found is None:  # made once per table size and side: a 1e game asks at every Clubs action
        found = _CANDIDATES[key] = tuple(other for other in range(key[0]) if other != side)
    return found


_CANDIDATES: Final[dict[tuple[int, int], tuple[int, ...]]] = {}
_PENDINGS: Final[dict[tuple[int | None, int, Reason, Continuation, tuple[int, ...], bool], PendingVictim]] = {}


# --------------------------------------------------------------------------- apply


def apply(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """Check `move` against `state` and return the next state and the events it caused."""
    work = Table(state)
    events = work.apply(move)
    return work.freeze(), events


class Table:
    """The game as a mutable object: what `Game` pushes moves into, and what `apply` uses once.

    Every move is checked completely before anything changes, so a refused
    move leaves the table as it was. With `record=False` no events are built:
    the fast path for checking a record, where only a refusal matters.
    """

    __slots__ = (
        "config", "names", "plays_per_trick", "tricks_per_round", "phase", "round_no", "dealer", "hands", "pass_count", "passed",
        "trick_no", "leader", "trick", "taken", "tricks_won", "showroom", "vault", "supply",
        "thief", "pending", "events",
    )

    def __init__(self, state: State, *, record: bool = True) -> None:
        self.config = state.config
        self.names = state.config.players
        self.plays_per_trick = state.config.plays_per_trick
        self.tricks_per_round = state.config.tricks_per_round
        self.phase = state.phase
        self.round_no = state.round_no
        self.dealer = state.dealer
        self.hands = [set(hand) for hand in state.hands]
        self.pass_count = state.pass_count
        self.passed = list(state.passed)
        self.trick_no = state.trick_no
        self.leader = state.leader
        self.trick = list(state.trick)
        self.taken = [list(row) for row in state.taken]
        self.tricks_won = list(state.tricks_won)
        self.showroom = list(state.showroom)
        self.vault = list(state.vault)
        self.supply = state.supply
        self.thief = state.thief
        self.pending = state.pending
        self.events: list[Event] | None = [] if record else None

    #: It answers a playout's questions (`seat_to_act`, `moves_to_act`; diamonds.core.family.Table).
    answers_turns: ClassVar[bool] = True

    def seat_to_act(self) -> int | None:
        """`State.to_move` of the state the table is at: without a snapshot while cards are played (R8: clockwise
        from the leader), else on one (a pass count, the passes and the victims are a few moves a round)."""
        if self.phase is _PLAY:
            return (self.leader + len(self.trick)) % len(self.names)
        return self.freeze().to_move

    def moves_to_act(self) -> list[Move]:
        """The legal moves of the seat to act (`Rules.moves_of`), in `legal_moves`' order: every decision
        listed is that seat's, since the engine takes the passes one seat at a time (R6)."""
        if self.phase is _PLAY:
            hand = self.hands[(self.leader + len(self.trick)) % len(self.names)]
            return [PlayCard.of(card) for card in playable_in(hand, self.trick)]
        return list(legal_moves(self.freeze()))

    def apply(self, move: Move) -> tuple[Event, ...]:
        """Check and make one move; the events it caused (none when not recording)."""
        if self.events:
            self.events = []
        kind = type(move)
        if kind is PlayCard:
            self.play(move.card)  # type: ignore[union-attr]
        elif kind is ChooseVictim:
            self.choose_victim(move.victim)  # type: ignore[union-attr]
        elif kind is PassCards:
            self.pass_cards(move.seat, move.cards)  # type: ignore[union-attr]
        elif kind is ChoosePassCount:
            self.choose_pass_count(move.count)  # type: ignore[union-attr]
        elif kind is Deal:
            self.deal(move.hands)  # type: ignore[union-attr]
        else:
            raise TypeError(f"not a Diamonds move: {move!r}")
        return tuple(self.events) if self.events else ()

    @property
    def is_over(self) -> bool:
        return self.phase is _GAME_OVER

    def standings(self) -> tuple[FitzgeraldResult, ...]:
        """R18, without making a snapshot."""
        return results_of(self.config, self.showroom, self.vault)

    def freeze(self) -> State:
        return State(
            config=self.config,
            phase=self.phase,
            round_no=self.round_no,
            dealer=self.dealer,
            hands=tuple(map(frozenset, self.hands)),
            pass_count=self.pass_count,
            passed=tuple(self.passed),
            trick_no=self.trick_no,
            leader=self.leader,
            trick=tuple(self.trick),
            taken=tuple(map(tuple, self.taken)),  # type: ignore[arg-type]
            tricks_won=tuple(self.tricks_won),
            showroom=tuple(self.showroom),
            vault=tuple(self.vault),
            supply=self.supply,
            thief=self.thief,
            pending=self.pending,
        )

    # ---------------------------------------------------------------- checks

    def expect(self, phase: Phase, doing: str) -> None:
        if self.phase is phase:
            return
        if self.phase is _GAME_OVER:
            raise GameOver(f"the game is over after round {self.config.rounds}: {doing} is not possible")
        raise WrongPhase(f"{doing} is not due now: {self.describe_phase()}", rule=_PHASE_RULE[self.phase])

    def describe_phase(self) -> str:
        phase = self.phase
        if phase is _DEAL:
            return f"round {self.round_no} has not been dealt"
        if phase is _PASS_COUNT:
            return f"{self.names[self.dealer]} (dealer) must choose the pass count"
        if phase is _PASSING:
            missing = [self.names[s] for s in range(len(self.names)) if self.passed[s] is None]
            return f"still to pass: {', '.join(missing)}"
        if phase is _PLAY:
            seat = (self.leader + len(self.trick)) % len(self.names)
            return f"{self.names[seat]} must play a card (trick {self.trick_no})"
        if phase is _CHOOSE_VICTIM:
            assert self.pending is not None
            return f"{self.actor_name(self.pending.actor, self.pending.side)} must name the Clubs victim"
        return "the game is over"

    def passing_seat(self) -> int:
        """The seat whose pass is taken next: the first after the dealer yet to pass (as `State.to_move`)."""
        passed, n = self.passed, len(self.passed)
        seat = self.dealer
        for _ in range(n):
            seat = seat + 1 if seat + 1 < n else 0
            if passed[seat] is None:
                return seat
        return seat  # every seat has passed: not reached while passing

    def actor_name(self, actor: int | None, side: int) -> str:
        return self.names[actor] if actor is not None else self.config.side_name(side)

    # ---------------------------------------------------------------- deal and pass

    def deal(self, hands: tuple[tuple[AnyCard, ...], ...]) -> None:
        if self.phase is not _DEAL:
            self.expect(_DEAL, "a deal")
        config = self.config
        if len(hands) != len(self.names):
            raise InvalidDeal(f"a deal gives hands to {config.player_count} players, not {len(hands)}",
                              expected=config.player_count, found=len(hands))
        held = [set(hand) for hand in hands]
        for seat, hand in enumerate(hands):
            if len(hand) != config.hand_size:
                raise InvalidDeal(
                    f"{self.names[seat]} is dealt {len(hand)} cards, not {config.hand_size}",
                    seat=seat, expected=config.hand_size, found=len(hand),
                )
        every = set().union(*held)
        if len(every) != config.hand_size * len(hands) or not every <= _deck_set(config):
            # Something is wrong: find the first card, in dealt order, that shows it.
            allowed = set(config.deck)
            seen: dict[AnyCard, int] = {}
            for seat, hand in enumerate(hands):
                for card in hand:
                    if card not in allowed:
                        raise InvalidDeal(f"{card} is not in this game's deck ({_deck_text(config)})", seat=seat,
                                          card=card)
                    if card in seen:
                        raise InvalidDeal(f"{card} is dealt twice ({self.names[seen[card]]} and {self.names[seat]})",
                                          seat=seat, card=card, cards=(card, card))
                    seen[card] = seat
        # Every card is of the deck, so a Card (the moves' AnyCard admits the Joker, refused above: R5).
        self.hands = cast("list[set[Card]]", held)
        if self.events is not None:
            dealt = cast("tuple[tuple[Card, ...], ...]", hands)
            self.events.append(RoundStarted(self.round_no, self.dealer, self.thief))
            self.events.append(CardsDealt(self.round_no, tuple(sort_cards(h) for h in dealt)))
        self.phase = _PASS_COUNT

    def choose_pass_count(self, count: int) -> None:
        if self.phase is not _PASS_COUNT:
            self.expect(_PASS_COUNT, "choosing the pass count")
        if count not in PASS_COUNTS:
            # The message names the dealer, whose decision it is (errors name the player).
            raise WrongPassCount(
                f"{self.names[self.dealer]} (dealer) must choose 1, 2 or 3 cards to pass, not {count}",
                seat=self.dealer, found=count,
            )
        self.pass_count = count
        if self.events is not None:
            self.events.append(PassCountChosen(self.dealer, count))
        self.phase = _PASSING

    def pass_cards(self, seat: int, cards: tuple[AnyCard, ...]) -> None:
        if self.phase is not _PASSING:
            self.expect(_PASSING, "passing")
        if not 0 <= seat < len(self.names):  # (not a list index from the end: -1 is nobody's seat)
            raise OutOfTurn(f"seat {seat} cannot pass: nobody sits there (the seats are 0 to {len(self.names) - 1})",
                            rule="R6")
        name = self.names[seat]
        if self.passed[seat] is not None:
            raise OutOfTurn(f"{name} has already passed this round", rule="R6", seat=seat)
        if len(cards) != self.pass_count:
            raise WrongPassCount(
                f"{name} passes {len(cards)} card{'s' if len(cards) != 1 else ''}, "
                f"but the dealer chose {self.pass_count}", seat=seat, expected=self.pass_count, found=len(cards),
            )
        given = set(cards)
        if len(given) != len(cards):
            twice = next(c for c in cards if cards.count(c) > 1)
            raise InvalidPass(f"{name} passes {twice} twice", seat=seat, card=twice)
        hand = self.hands[seat]
        if not given <= hand:
            for card in cards:
                if card not in hand:
                    raise CardNotHeld(f"{name} cannot pass {card}: {self.holder_text(card)}", rule="R6",
                                      seat=seat, card=card)
        due = self.passing_seat()
        if seat != due:
            # R6: the passes are handed over at once, so their order is the engine's to choose: it takes
            # them in seat order from the dealer's left, so that a game's moves are one legal walk.
            raise OutOfTurn(f"{name} passes after {self.names[due]}: the passes are taken in seat order from "
                            "the dealer's left", rule="R6", seat=seat)
        hand -= given
        passed = cast("tuple[Card, ...]", sort_cards(cards))  # in display order, as written in any (R6); all Cards
        self.passed[seat] = passed
        if self.events is not None:
            self.events.append(CardsPassed(seat, self.config.pass_target(seat), passed))
        if None not in self.passed:
            # R6: passes are handed over at once, so a received card cannot be passed on.
            for giver, handed in enumerate(self.passed):
                target = self.config.pass_target(giver)
                self.hands[target].update(handed)  # type: ignore[arg-type]
            if self.events is not None:
                self.events.append(PassesDelivered(self.round_no))
            self.phase = _PLAY

    def holder_text(self, card: AnyCard) -> str:
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return f"{self.names[seat]} holds it"
        return "nobody holds it"

    # ---------------------------------------------------------------- play

    def play(self, card: AnyCard) -> None:
        # A card of no suit (the Joker, of no deck of this game: R5) goes straight to `refuse_play`, as `play_run`
        # would stop before it: play_run's cards are typed Card, which compiled (mypyc) is a TypeError.
        if type(card) is not Card or not self.play_run((card,), 0):
            self.refuse_play(card)

    def play_run(self, cards: Sequence[Card], start: int, victims: Sequence[int | None] | None = None,
                 taken: list[tuple[int, int | None]] | None = None) -> int:
        """Play `cards[start:]` while each is legal and a card is due; the index it stopped at.

        The hot path of every replay, one call for a whole trick line or round.
        It never raises: it stops before a card it would refuse (`refuse_play`
        says why) and after a card that leaves a decision due (a victim, R14).

        With `victims` (per card of `cards`, the seat its `>id` names, None
        for none; `cards` from the first card of a trick), a victim due for a
        card's Clubs action (R14: an off-suit Clubs card's, R9, or the
        winner's of a Clubs trick, R10) is the one that card names, taken as
        `choose_victim` takes it, and the run goes on: each one is added to
        `taken` as (the index of the card it follows, the victim). The run
        stops as without `victims` where `choose_victim` would refuse it
        (`settle_victim`), and at the end-of-round award (R16).
        """
        index, end = start, len(cards)
        if self.phase is not _PLAY:
            return index
        n = len(self.names)
        per_trick = self.plays_per_trick
        events = self.events
        side_of = self.config.side_of
        hands = self.hands  # replaced only by a new round, where the run stops
        trick = self.trick  # changes only when a trick is won
        led = trick[0][1].suit if trick else None
        seat = (self.leader + len(trick)) % n  # R8: the leader, then each seat to the left
        while index < end:
            card = cards[index]
            hand = hands[seat]
            if card not in hand:
                break
            suit = card.suit
            if led is None:
                led = suit
                followed = True
            else:
                followed = suit is led
                if not followed and not hand.isdisjoint(_OF_SUIT[led.index]):
                    return index  # R8: it must follow suit
            hand.remove(card)
            trick.append((seat, card))
            index += 1
            if events is not None:
                events.append(CardPlayed(seat, card, self.trick_no, led, len(trick) == 1, followed))
            # R9: an off-suit play earns the action of the suit played, at once.
            if not followed and self.suit_action(seat, side_of[seat], suit, _OFF_SUIT, _AFTER_OFF_SUIT):
                # R14: the victim this card names; `after_play` below is choose_victim's continuation.
                if victims is None or not self.settle_victim(victims[index - 1]):
                    break
                if taken is not None:
                    taken.append((index - 1, victims[index - 1]))
            if len(trick) >= per_trick:
                self.win_trick()
                if self.phase is not _PLAY and (victims is None or not self.settle_won(trick, victims, index, taken)):
                    break
                trick, led, seat = self.trick, None, self.leader
            else:
                seat = seat + 1 if seat + 1 < n else 0
        return index

    def settle_won(self, trick: list[tuple[int, Card]], victims: Sequence[int | None], index: int,
                   taken: list[tuple[int, int | None]] | None) -> bool:
        """`play_run`, after `trick` (its last card `cards[index - 1]`) is won and a decision is due: the
        victim the winning card names for its Clubs action (R10, R14), taken as `choose_victim` takes it,
        then the game goes on; True when a card is due again in the same round."""
        pending = self.pending
        if self.phase is not _CHOOSE_VICTIM or pending is None or pending.reason is not _TRICK_WON:
            return False  # a new round, or the end-of-round award (R16), named on the `end` line
        source = index - len(trick) + trick.index(trick_winner(trick))
        if source < 0 or not self.settle_victim(victims[source]):
            return False
        if taken is not None:
            taken.append((index - 1, victims[source]))
        self.after_trick()
        return self.phase is _PLAY

    def refuse_play(self, card: AnyCard) -> None:
        """Raise the reason `play_run` stopped before `card`."""
        self.expect(_PLAY, "playing a card")
        seat = (self.leader + len(self.trick)) % len(self.names)
        hand = self.hands[seat]
        if card not in hand:
            raise CardNotHeld(f"{self.names[seat]} does not hold {card} ({self.holder_text(card)})", seat=seat,
                              card=card)
        led = self.trick[0][1].suit
        following = sort_cards(c for c in hand if c.suit is led)
        raise MustFollowSuit(f"{self.names[seat]} must follow {led.title} (holds {format_cards(following)})",
                             seat=seat, card=card, cards=following)

    def after_play(self) -> None:
        if len(self.trick) >= self.plays_per_trick:
            self.win_trick()

    def win_trick(self) -> None:
        """The trick is complete. R10: the highest card of the led suit wins; the winner takes the led
        suit's action, then leads the next trick (R7)."""
        trick = self.trick
        led = trick[0][1].suit
        winner, best = trick_winner(trick)
        side = self.config.side_of[winner]
        row = self.taken[side]
        for _, card in trick:
            row[card.suit.index] += 1
        self.tricks_won[winner] += 1
        if self.events is not None:
            self.events.append(TrickWon(self.trick_no, winner, best, led, tuple([c for _, c in trick])))
        self.leader = winner
        self.trick = []
        if self.suit_action(winner, side, led, _TRICK_WON, _AFTER_TRICK):
            return
        self.after_trick()

    def after_trick(self) -> None:
        if self.trick_no < self.tricks_per_round:
            self.trick_no += 1  # R7: the winner (already `leader`) leads the next trick
            return
        self.end_of_round()

    # ---------------------------------------------------------------- end of round

    def end_of_round(self) -> None:
        majority: list[int | None] = []
        taken = self.taken
        for column in range(len(SUITS)):  # per suit, in the order D, H, S, C: the side that took the most, alone
            most, holder = 0, None
            for taker, row in enumerate(taken):
                count = row[column]
                if count > most:
                    most, holder = count, taker
                elif count == most:
                    holder = None  # a tie (or none taken) gives nobody the action
            majority.append(holder)
        if self.events is not None:
            self.events.append(RoundEnded(
                self.round_no,
                tuple(tuple(row) for row in self.taken),  # type: ignore[misc]
                tuple(self.tricks_won),
                tuple(majority),  # type: ignore[arg-type]
            ))
        # R16: in the order D, H, S, C; a tie gives nobody the action.
        for suit, side in zip(SUITS, majority):
            if side is None:
                continue
            actor = self.config.sides[side][0] if len(self.config.sides[side]) == 1 else None
            if self.suit_action(actor, side, suit, _SUIT_MAJORITY, _AFTER_MAJORITY):
                return  # Clubs is last, so nothing is skipped
        self.after_majority()

    def after_majority(self) -> None:
        # R17: two Diamonds actions per trickless player, from the dealer's left, in seat order.
        n = len(self.names)
        for step in range(1, n + 1):
            seat = (self.dealer + step) % n
            if self.tricks_won[seat] == 0:
                for _ in range(2):
                    self.suit_action(seat, self.config.side_of[seat], _DIAMONDS, _NO_TRICKS,
                                     _AFTER_MAJORITY)
        self.next_round()

    def next_round(self) -> None:
        config = self.config
        if self.round_no >= config.rounds:
            self.phase = _GAME_OVER
            if self.events is not None:
                self.events.append(GameEnded(results_of(config, self.showroom, self.vault)))
            return
        self.round_no += 1
        self.dealer = config.dealer_of_round(self.round_no)  # R4
        if config.uses_thief and config.thief_resets_each_round:
            self.thief = config.left_of(self.dealer)  # R15 (bga)
        n = len(self.names)
        self.phase = _DEAL
        self.hands = [set() for _ in range(n)]
        self.pass_count = None
        self.passed = [None] * n
        self.trick_no = 1
        self.leader = first_leader(config, self.dealer)
        self.trick = []
        self.taken = [[0, 0, 0, 0] for _ in range(config.side_count)]
        self.tricks_won = [0] * n

    # ---------------------------------------------------------------- suit actions

    def suit_action(self, actor: int | None, side: int, suit: Suit, reason: Reason,
                    then: Continuation) -> bool:
        """Take one Suit Action (R12-R14). True when it waits for a victim to be chosen."""
        if suit is _DIAMONDS or suit is _HEARTS:
            # R3: an empty Supply gives nothing; Diamonds go to the Vault, Hearts to the Showroom.
            points = 1 if self.supply > 0 else 0
            self.supply -= points
            if suit is _DIAMONDS:
                self.vault[side] += points
            else:
                self.showroom[side] += points
            if self.events is not None:
                self.events.append(SuitAction(actor, side, suit, reason, SUPPLY,
                                              Area(_VAULT if suit is _DIAMONDS else _SHOWROOM, side), points))
        elif suit is _SPADES:
            points = 1 if self.showroom[side] > 0 else 0  # R12: nothing if the Showroom is empty
            self.showroom[side] -= points
            self.vault[side] += points
            if self.events is not None:
                self.events.append(SuitAction(actor, side, suit, reason, Area(_SHOWROOM, side),
                                              Area(_VAULT, side), points))
        elif self.config.uses_thief:
            self.thief_clubs(actor, side, reason)
        else:
            candidates = victim_candidates(self.config, side)
            required = False  # R14: two or more candidates, and one has a point to take
            if len(candidates) >= 2:
                showroom = self.showroom
                for candidate in candidates:
                    if showroom[candidate] > 0:
                        required = True
                        break
            key = (actor, side, reason, then, candidates, required)
            pending = _PENDINGS.get(key)
            if pending is None:  # each made once: a 1e game waits for a victim at every Clubs action
                pending = _PENDINGS[key] = PendingVictim(actor, side, reason, then, candidates, required)
            self.pending = pending
            self.phase = _CHOOSE_VICTIM
            return True
        return False

    def thief_clubs(self, actor: int | None, side: int, reason: Reason) -> None:
        """R13: rob the Thief's holder (unless it is the actor), then the Thief moves left."""
        holder = self.thief
        assert holder is not None
        victim = self.config.side_of[holder]
        points = 1 if victim != side and self.showroom[victim] > 0 else 0
        self.showroom[victim] -= points
        self.showroom[side] += points
        self.thief = (holder + 1) % len(self.names)  # R13: to the left (the configuration's `left_of`)
        if self.events is not None:
            self.events.append(SuitAction(
                actor, side, _CLUBS, reason, Area(_SHOWROOM, victim), Area(_SHOWROOM, side),
                points, victim=victim, thief_before=holder, thief_after=self.thief,
            ))

    def choose_victim(self, victim: int | None) -> None:
        if self.phase is not _CHOOSE_VICTIM:
            self.expect(_CHOOSE_VICTIM, "naming a Clubs victim")
        pending = self.pending
        assert pending is not None
        if not self.settle_victim(victim):
            self.refuse_victim(pending, victim)
        if pending.then is _AFTER_OFF_SUIT:
            self.after_play()
        elif pending.then is _AFTER_TRICK:
            self.after_trick()
        else:
            self.after_majority()

    def settle_victim(self, victim: int | None) -> bool:
        """R14: rob the side `victim` names (a seat; None: not named) for the Clubs action waiting for a
        victim, and the play phase is back (what follows is the caller's); False, changing nothing, where
        `choose_victim` refuses it (`refuse_victim` says why)."""
        pending = self.pending
        assert pending is not None
        if victim is None:
            if pending.required:
                return False
            # Unnamed: the only candidate, or nobody has a point to take.
            robbed = pending.candidates[0] if len(pending.candidates) == 1 else None
        else:
            if not 0 <= victim < len(self.names):
                return False
            robbed = self.config.side_of[victim]
            if robbed == pending.side:
                return False
        points = 1 if robbed is not None and self.showroom[robbed] > 0 else 0
        if points:
            self.showroom[robbed] -= 1  # type: ignore[index]
            self.showroom[pending.side] += 1
        if self.events is not None:
            self.events.append(SuitAction(pending.actor, pending.side, _CLUBS, pending.reason,
                                          Area(_SHOWROOM, robbed), Area(_SHOWROOM, pending.side), points,
                                          victim=robbed))
        self.pending = None
        self.phase = _PLAY
        return True

    def refuse_victim(self, pending: PendingVictim, victim: int | None) -> None:
        """Raise the reason `settle_victim` refused `victim` (R14)."""
        config = self.config
        actor_name = self.actor_name(pending.actor, pending.side)
        if victim is None:
            options = ", ".join(f"{config.side_name(s)} ({self.showroom[s]})" for s in pending.candidates)
            raise VictimRequired(f"{actor_name} must name whose Showroom the Clubs action takes from: {options}",
                                 seat=pending.actor)
        if not 0 <= victim < config.player_count:
            raise VictimNotAllowed(f"{actor_name} cannot name seat {victim}: it is not at the table",
                                   seat=pending.actor)
        robbed = config.side_of[victim]
        who = "themselves" if pending.actor == victim else f"their own side ({config.side_name(robbed)})"
        raise VictimNotAllowed(f"{actor_name} cannot take from {who} with Clubs", seat=pending.actor)


_PHASE_RULE: Final = {
    _DEAL: "R5",
    _PASS_COUNT: "R6",
    _PASSING: "R6",
    _PLAY: "R8",
    _CHOOSE_VICTIM: "R14",
    _GAME_OVER: "R4",
}


def _deck_set(config: GameConfig) -> frozenset[Card]:
    """The cards of `config`'s deck, as a set made once per deck."""
    found = _DECK_SETS.get(config.deck)
    if found is None:
        found = _DECK_SETS[config.deck] = frozenset(config.deck)
    return found


_DECK_SETS: Final[dict[tuple[Card, ...], frozenset[Card]]] = {}


def _deck_text(config: GameConfig) -> str:
    top = max(card.rank for card in config.deck)
    return f"ranks 1-{top}"


def results_of(config: GameConfig, showroom: list[int] | tuple[int, ...],
               vault: list[int] | tuple[int, ...]) -> tuple[FitzgeraldResult, ...]:
    """R18: highest score wins; ties go to the most in the Vault; a further tie shares the win."""
    scores = [side_score(v, s) for v, s in zip(vault, showroom)]
    best = max(scores)
    best_vault = max(v for v, s in zip(vault, scores) if s == best)
    return tuple([
        FitzgeraldResult(side, scores[side], scores[side] == best and vault[side] == best_vault,
                   vault=vault[side], showroom=showroom[side])
        for side in range(len(config.sides))
    ])


def results(state: State) -> tuple[FitzgeraldResult, ...]:
    """Standings now (final once the game is over)."""
    return results_of(state.config, state.showroom, state.vault)


standings = results  # the name the family protocol calls it by (`EngineRules`)


def play_cards(game: Engine, cards: Sequence[Card], start: int = 0,
               victims: Sequence[int | None] | None = None) -> int:
    """Play `cards[start:]` in order while a card is due; the index after the last one played.

    The fast path for checking or exporting a record: one call per trick line instead of
    one `push` per card (a game with history takes them card by card, for its snapshots). It
    stops early where a decision is due (a Clubs victim, R14) or where the game moves on (a new
    round). A refused card raises its `IllegalMove`; the cards before it stay played, so
    `len(game)` tells how far it got.

    With `victims` (`Table.play_run`'s: per card, the seat its `>id` names)
    a game that records nothing takes each victim due for a card's Clubs
    action as one `ChooseVictim` move after it, where the engine allows it,
    and plays on; a game that records events stops at each as without.
    """
    table: Table = game.table  # type: ignore[assignment]  # a Fitzgerald game's table (Fitzgerald.table)
    if game.history:
        index = start  # a snapshot is kept move by move
        while index < len(cards) and table.phase is _PLAY:
            game.push(PlayCard.of(cards[index]))
            index += 1
        return index
    if victims is None or table.events is not None:
        # A game that records events (an export's replay) stops at each victim, whose ChooseVictim is
        # pushed as its own move with its own events.
        index = game.note_run(lambda: table.play_run(cards, start),
                              lambda end: map(_PLAY_CARD.__getitem__, cards[start:end]), CardPlayed)
    else:
        taken: list[tuple[int, int | None]] = []
        index = table.play_run(cards, start, victims, taken)
        game.note_played(_with_victims(cards, start, index, taken))
    if index < len(cards) and table.phase is _PLAY:
        table.refuse_play(cards[index])
    return index


_CHOOSE: Final[dict[int | None, ChooseVictim]] = {}  # the ChooseVictim moves `_with_victims` notes, each made once


def _with_victims(cards: Sequence[Card], start: int, end: int, taken: list[tuple[int, int | None]]) -> list[Move]:
    """The moves of `cards[start:end]` played, each victim `taken` after the card it follows."""
    moves: list[Move] = []
    at = start
    for after, victim in taken:
        moves.extend(map(_PLAY_CARD.__getitem__, cards[at:after + 1]))
        move = _CHOOSE.get(victim)
        if move is None:
            move = _CHOOSE[victim] = ChooseVictim(victim)
        moves.append(move)
        at = after + 1
    moves.extend(map(_PLAY_CARD.__getitem__, cards[at:end]))
    return moves
