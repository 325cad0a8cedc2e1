"""The toy bridge: a `toy` record's rounds turned into the engine's moves, every refusal at its token (a game is
written back as a record by the generic `trick_game_record`: `R<k> dealer <id>`, deal lines, tricks).

A round is `R<k> dealer <id>`, a deal line per player (or none: a finished
round's hands are the cards each played, since who played each card follows
from the cards, T3 and T5), and tricks `1.` to `6.` of two cards from the
leader. Pass counts, pass and kitty lines, bids, `end` and card marks are
other games' words: errors here.
"""

from __future__ import annotations

from diamonds.core import IllegalMove
from diamonds.notation.records import HandLine, Round
from diamonds.notation.words import Item, Shape, Words
from diamonds.replay.bridge import Bridge
from diamonds.replay.validate import Replayer

from .rules import Deal, Phase, PlayCard, State, trick_winner


class ToyReplayer(Replayer):
    result_rule = "T6"
    length_rule = "T7"
    trick_rule = "T3"
    dealer_rule = "T2"

    @property
    def state(self) -> State:
        return self.game.state  # type: ignore[no-any-return]


    def play_round(self, number: int, rnd: Round, *, last: bool) -> bool:
        header = rnd.header
        self.refuse_foreign_items(rnd, pass_count=False, hand_kinds=frozenset(("deal",)), calls=False, end=False,
                                  rule="T3")
        for plays in [line.cards for line in rnd.hand_lines] + [trick.plays for trick in rnd.tricks]:
            if not plays.plain:
                for play in plays:
                    self.refuse_marks(play, choice=False, sign=False, rule="T4")
        if self.game.is_over:
            self.problem(header.pos, "the game is over after two rounds (T7)", "too-many-rounds", "T7",
                         len(f"R{header.number}"))
        if header.number != number:
            self.problem(header.pos, f"expected round R{number}, found R{header.number}", "round-number", None,
                         len(f"R{header.number}"))
        self.check_dealer(header, number, self.state.dealer)
        deals: dict[int, HandLine] = {}
        for line in rnd.deals:
            seat = self.seat(line.player, line.player_pos)
            if seat in deals:
                self.problem(line.pos, f"a second deal line for {line.player}", "duplicate-deal", "T2", 4)
            deals[seat] = line
        hands = self.inferred_hands(rnd, deals)
        if hands is None:
            if last:
                self.out.notes.append(f"round {number} is unfinished and lacks deal lines: its hands are unknown, "
                                      "so its cards are not checked")
                return False
            self.hand_too_short(number, len(rnd.tricks), rnd)
        assert hands is not None
        try:
            self.game.push(Deal(hands))
        except IllegalMove as error:  # at the card's last token, else at its player's deal line, else the header
            tokens = [play for line in deals.values() for play in line.cards] + \
                [play for trick in rnd.tricks for play in trick.plays]
            named = [play for play in tokens if error.card is not None and play.card is error.card]
            line = deals.get(error.seat) if error.seat is not None else None
            pos, length = (named[-1].pos, named[-1].length) if named else \
                (line.pos, 4) if line is not None else (header.pos, len(f"R{header.number}"))
            self.problem(pos, error.reason, error.code, error.rule, length)
        if self.history:
            self.out.origins.append(rnd)
        return self.play_tricks(number, rnd, last=last)

    def inferred_hands(self, rnd: Round, deals: dict[int, HandLine]) -> tuple[tuple[object, ...], ...] | None:
        """The deal lines' hands; a missing one is the cards its player played (None: the round is unfinished)."""
        if len(deals) == 2:
            return tuple(deals[seat].cards.cards for seat in range(2))
        config = self.config
        if len(rnd.tricks) != config.tricks_per_hand or any(len(t.plays) != 2 for t in rnd.tricks):
            return None
        played: list[list[object]] = [[], []]
        leader = config.left_of(self.state.dealer)  # T3
        for trick in rnd.tricks:
            cards = trick.plays.cards
            for position, card in enumerate(cards):
                played[(leader + position) % 2].append(card)
            leader = trick_winner(leader, cards)  # T5
        return tuple(tuple(deals[seat].cards.cards) if seat in deals else tuple(played[seat]) for seat in range(2))

    def play_tricks(self, number: int, rnd: Round, *, last: bool) -> bool:
        tricks = rnd.tricks
        for index, trick in enumerate(tricks, 1):
            state = self.state
            beyond = state.phase is not Phase.PLAY or state.round_no != number
            self.check_trick_number(number, index, trick.number, trick.pos, beyond=beyond)
            for position, play in enumerate(trick.plays):
                if position >= self.config.plays_per_trick:
                    self.trick_too_long(index, play.pos, play.length)
                self.push(PlayCard(play.card), play, play.pos, play.length)
            if len(trick.plays) < self.config.plays_per_trick:
                if index < len(tricks) or not last:
                    self.trick_too_short(index, len(trick.plays), trick.pos, len(f"{trick.number}."))
                return False
        state = self.state
        if state.phase is Phase.PLAY and state.round_no == number:
            if not last:
                self.hand_too_short(number, len(tricks), rnd)
            return False
        return True


#: The words its records write besides tricks and round headers: deal lines (T2).
WORDS = Words(items=(Item("deal", Shape.HAND),))

BRIDGE = Bridge(replayer=ToyReplayer)  # its records are written by the generic trick_game_record
