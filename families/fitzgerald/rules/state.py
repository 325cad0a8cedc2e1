"""The state of a Fitzgerald Diamonds game between two moves: one frozen value.

States are immutable so that stepping back is taking the previous one
(`Game.pop`), and any state can be kept, compared, shown or exported.

`State`, made after every move of a game that keeps its history, writes its `__init__` out: compiled, it is
native (docs/build.md, the written `__init__`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from diamonds.core.cards import Card, IdentityEnum, Suit, sort_cards

from .config import GameConfig
from .events import Reason

__all__ = ["Phase", "Continuation", "PendingVictim", "State", "side_score"]


class Phase(enum.Enum):
    DEAL = "deal"  # a chance move: the cards of the round
    PASS_COUNT = "pass count"  # the dealer chooses n (R6)
    PASSING = "passing"
    PLAY = "play"
    CHOOSE_VICTIM = "choose victim"  # a chosen Clubs action waits for its victim (R14)
    GAME_OVER = "game over"


class Continuation(IdentityEnum):  # a pending victim's key, per Clubs action
    """What the engine resumes with once a pending Clubs victim is chosen."""

    AFTER_OFF_SUIT = "after off-suit"  # the trick goes on (or is won)
    AFTER_TRICK = "after trick"  # the next trick, or the end of the round
    AFTER_MAJORITY = "after majority"  # the no-trick bonuses, then the next round


def side_score(vault: int, showroom: int) -> int:
    """R18: a side's score is 2 × its Vault + its Showroom."""
    return 2 * vault + showroom


@dataclass(frozen=True, slots=True)
class PendingVictim:
    actor: int | None  # seat; None for a team's end-of-round award
    side: int
    reason: Reason
    then: Continuation
    candidates: tuple[int, ...]  # the sides that may be named
    required: bool  # R14: two or more candidates and one has a point


@dataclass(frozen=True, init=False, slots=True)
class State:
    config: GameConfig
    phase: Phase
    round_no: int  # 1-based
    dealer: int
    hands: tuple[frozenset[Card], ...]  # per seat
    pass_count: int | None
    passed: tuple[tuple[Card, ...] | None, ...]  # per seat, this round
    trick_no: int  # 1-based, the trick in progress (or next)
    leader: int
    trick: tuple[tuple[int, Card], ...]  # plays so far: (seat, card)
    taken: tuple[tuple[int, int, int, int], ...]  # per side, per suit, this round
    tricks_won: tuple[int, ...]  # per seat, this round
    showroom: tuple[int, ...]  # per side
    vault: tuple[int, ...]  # per side
    supply: int
    thief: int | None  # seat holding the Thief (R13), None where unused
    pending: PendingVictim | None = None

    def __init__(
        self,
        config: GameConfig,
        phase: Phase,
        round_no: int,
        dealer: int,
        hands: tuple[frozenset[Card], ...],
        pass_count: int | None,
        passed: tuple[tuple[Card, ...] | None, ...],
        trick_no: int,
        leader: int,
        trick: tuple[tuple[int, Card], ...],
        taken: tuple[tuple[int, int, int, int], ...],
        tricks_won: tuple[int, ...],
        showroom: tuple[int, ...],
        vault: tuple[int, ...],
        supply: int,
        thief: int | None,
        pending: PendingVictim | None = None,
    ) -> None:
        object.__setattr__(self, "config", config)
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "round_no", round_no)
        object.__setattr__(self, "dealer", dealer)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "pass_count", pass_count)
        object.__setattr__(self, "passed", passed)
        object.__setattr__(self, "trick_no", trick_no)
        object.__setattr__(self, "leader", leader)
        object.__setattr__(self, "trick", trick)
        object.__setattr__(self, "taken", taken)
        object.__setattr__(self, "tricks_won", tricks_won)
        object.__setattr__(self, "showroom", showroom)
        object.__setattr__(self, "vault", vault)
        object.__setattr__(self, "supply", supply)
        object.__setattr__(self, "thief", thief)
        object.__setattr__(self, "pending", pending)

    def with_hands(self, hands: tuple[frozenset[Card], ...],
                   passed: tuple[tuple[Card, ...] | None, ...] | None = None) -> State:
        """This state with other hands (and, given, other passes), the rest kept: the bots' redrawn worlds. By
        the constructor, not `dataclasses.replace`, which reads every field by name and, compiled, is the one
        interpreted call of a redraw."""
        return State(self.config, self.phase, self.round_no, self.dealer, hands, self.pass_count,
                     self.passed if passed is None else passed, self.trick_no, self.leader, self.trick, self.taken,
                     self.tricks_won, self.showroom, self.vault, self.supply, self.thief, self.pending)

    @property
    def to_move(self) -> int | None:
        """The seat whose decision is due; None at a deal or when the game is over."""
        phase = self.phase
        if phase is Phase.PLAY:
            return (self.leader + len(self.trick)) % len(self.hands)  # a hand a seat; clockwise from the leader (R8)
        if phase is Phase.PASS_COUNT:
            return self.dealer
        if phase is Phase.PASSING:
            n = self.config.player_count
            for step in range(1, n + 1):
                seat = (self.dealer + step) % n
                if self.passed[seat] is None:
                    return seat
            return None
        if phase is Phase.CHOOSE_VICTIM:
            assert self.pending is not None
            if self.pending.actor is not None:
                return self.pending.actor
            return self.config.sides[self.pending.side][0]
        return None

    @property
    def led_suit(self) -> Suit | None:
        return self.trick[0][1].suit if self.trick else None

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    def hand(self, seat: int) -> tuple[Card, ...]:
        """A seat's hand in display order."""
        return sort_cards(self.hands[seat])

    def score(self, side: int) -> int:
        """R18: 2 × Vault + Showroom."""
        return side_score(self.vault[side], self.showroom[side])

    @property
    def points_in_play(self) -> int:
        """R3: always 235."""
        return self.supply + sum(self.showroom) + sum(self.vault)
