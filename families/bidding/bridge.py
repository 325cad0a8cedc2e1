"""The bidding game's bridge: the hands of a `bidding` record turned into the engine's moves.

A hand is `R<k> dealer <id>` (no pass count); optional deal lines (10 cards
each) and an optional `kitty` line (3 cards); a `bid` per player, a `take`
per player and a `final` per player, each in turn order from the dealer's
left (B3-B5); then tricks `1.` to `10.` of three cards each, from the
leader (B6). In a trick an ace is high when written bare (`AH`, or `AH+`)
and low as `AH-`; the Joker carries the suit its player gives it and its
sign (`JoS+`, B7). Nothing else of DGN belongs here (pass counts and pass
lines, `end`, `>id`; `+`/`-` or a suit anywhere but on an ace or the Joker
in a trick): each is an error at its token.

The deal (B2) is 33 cards in four places, the three hands and the kitty:

* The deal and kitty lines written are checked on their own first (the
  pack, no card twice, 10 or 3 cards), in the order written.
* With every place written, or all but one (that one is then the rest of
  the pack), the deal is known: the engine replays the hand move by move,
  and every refusal is shown at its token, located from the error's data
  fields (seat, card), never from its message.
* With two or more places left out, a complete hand (three takes, ten
  tricks of three cards) implies them (`infer_deal`): a hand is the cards
  its player played, plus the point card laid, less the card taken; the
  kitty is the three cards taken. Written lines are kept as written, so a
  hand may have deal lines for some players only. The engine then replays
  the hand as above.
* Otherwise (an unfinished hand, or one whose implied deal is not a deal),
  the hand is checked on a provisional deal: each unknown place holds only
  the cards the hand shows it holds (a point card laid, a card taken, the
  cards played), each card in the first place the record puts it. Bids,
  takes, final bids and plays go through the engine on that, so a card shown
  in two places, played twice, or of no pack is refused at its token, and a
  revoke is found wherever a later play shows the card that should have
  been played. An unfinished hand (the record's last) is then left with a
  note saying its hands are unknown, and the replay stops before it.

A trick missing in the middle of a hand is reported at the next trick's
number; a hand that ends short while another follows, at its header. In the
record's last hand, whatever is missing at its end means the game is
unfinished (its Result must be "*").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Final

from diamonds.core import AnyCard, Card, IllegalMove, Joker, Suit
from diamonds.core.cards import spellings
from diamonds.core.errors import CardNotHeld, CardNotInDeck, GameOver, MustFollowSuit, OutOfTurn, WrongPhase
from diamonds.core.sampling import shown_voids, void_refusals
from diamonds.core.seating import names_text
from diamonds.notation.records import Call, HandLine, Play, Plays, Pos, Round, Take
from diamonds.replay.bridge import Bridge
from diamonds.replay.validate import DealLines, Place, ReplayedGame, Replayer, meant_card

from .record import record_from_game
from .rules import (
    DECK,
    Bid,
    Bidding,
    BiddingConfig,
    BiddingState,
    CardPlayed,
    Deal,
    FinalBid,
    FinalBidMove,
    ForbiddenTotal,
    MissingChoice,
    NotInKitty,
    Phase,
    PlayCard,
    Played,
    TakeFromKitty,
    infer_deal,
    trick_winner,
)
from .rules.config import FORBIDDEN_TOTAL, GAME_END_HIGH, GAME_END_LOW, MAX_BID
from .rules.fast import BiddingTable

__all__ = ["BRIDGE", "BiddingReplayer", "PACK_TEXT"]

#: What the pack is, for messages about a card of no pack (B2).
PACK_TEXT: Final = "the bidding game's 33 cards are 7, 8, 9, 10, J, Q, K, A of each suit and the Joker"
_DECK: Final[frozenset[AnyCard]] = frozenset(DECK)
_DIGITS: Final = re.compile(r"[0-9]+")




def _lenient_move(play: Play) -> PlayCard:
    """A card of a trick as a move, without checking its marks, read by the game's own card words
    (`PlayCard.parse`, which `parse_move` reads a card with): a bare ace is high (DGN), a sign is high (`+`)
    or low (`-`), a Joker's written suit is the suit given. The rules refuse what is wrong."""
    return _word_move(play.card_word)


#: `PlayCard.parse` remembered by the word: a game writes the same few dozen words over and over.
_word_move = functools.lru_cache(maxsize=1024)(PlayCard.parse)


def _plain_move(card: AnyCard) -> PlayCard:
    """A card written with nothing on it (`_lenient_move` of its word: an ace is high; a Joker lacks its
    choices, refused by B7). Made once per card (moves are values)."""
    move = _PLAIN_MOVES.get(card)
    if move is None:
        move = _PLAIN_MOVES[card] = PlayCard.parse(str(card))
    return move


#: Every card's plain move, made once (cards are few and interned): a plain trick's moves are lookups.
_PLAIN_MOVES: Final[dict[AnyCard, PlayCard]] = {card: PlayCard.parse(str(card)) for card in set(spellings().values())}


@functools.lru_cache(maxsize=4096)  # a game writes the same few dozen spellings over and over
def _token_move(text: str) -> PlayCard | None:
    """The move of a trick's token (`_lenient_move`) when `move_of` takes it as it is (`_unmarked`);
    None when it reports something (read the `Play` item)."""
    play = Play.from_token(text)
    return _lenient_move(play) if _unmarked(play) else None


def _unmarked(play: Play) -> bool:
    """Whether `move_of` takes the card as it is, reporting nothing (no `>id`; a sign only on an ace or
    the Joker)."""
    return play.choice is None and (play.sign is None or not isinstance(play.card, Card) or play.card.is_ace)


def _lenient_moves(plays: Plays) -> list[PlayCard]:
    """A trick's cards as moves (`_lenient_move`), without making `Play` items for a plain trick."""
    if plays.plain:
        return [_plain_move(card) for card in plays.cards]
    return [_lenient_move(play) for play in plays]


def _bare(play: Play) -> bool:
    """A card of a take with nothing `refuse_line_marks` reports (no `>id`, sign or given suit)."""
    return play.choice is None and play.sign is None and play.suit is None


@functools.lru_cache(maxsize=4096)
def _call_move(kind: type[Bid | FinalBid | TakeFromKitty], *args: Any) -> Bid | FinalBid | TakeFromKitty:
    """The check path's calls as moves, each made once (moves are values): only moves the table made are
    asked for, so the seats are the players' and the amounts 0 to 10; the takes are of cards of the pack."""
    return kind(*args)


class BiddingReplayer(Replayer):
    """Replays the hands of a bidding record (B1-B10); see the module's docstring for what is inferred."""

    result_rule = "B9"
    length_rule = "B10"
    round_word = "hand"
    trick_rule = "B6"
    dealer_rule = "B2"
    config: BiddingConfig

    def __init__(self, replayed: ReplayedGame, *, history: bool = True, events: bool = True,
                 stand_in: bool = False) -> None:
        super().__init__(replayed, history=history, events=events, stand_in=stand_in)
        #: The provisional state a hand is checked on when its deal is unknown (None: the game itself).
        self.scratch: BiddingState | None = None
        # The hand being replayed, for hints in messages.
        self.calls: tuple[Call | Take, ...] = ()
        self.deals: dict[int, HandLine] = {}
        self.kitty_line: HandLine | None = None
        self.dealer = 0

    @property
    def state(self) -> BiddingState:
        if self.scratch is not None:
            return self.scratch
        state = self.game.state
        assert isinstance(state, BiddingState)
        return state


    def where_it_stops(self) -> str:
        state = self.state
        done = state.hand_no - 1
        if done == 0:
            return "the game is not over: no hand of it is complete"
        totals = ", ".join(f"{name} {total}" for name, total in zip(self.config.players, state.scores))
        return (f"the game is not over: after {done} hand{'s' if done != 1 else ''} the totals are {totals}, "
                f"none of them {GAME_END_HIGH} or more or {GAME_END_LOW} or less")

    # ---------------------------------------------------------------- a hand

    def play_round(self, number: int, rnd: Round, *, last: bool) -> bool:
        """Replay one hand; False when the replay stops here (an unfinished last hand)."""
        config = self.config
        self.check_notation(rnd)
        self.open_round(number, rnd, self.state.dealer)
        dealer = self.state.dealer
        self.calls, self.dealer, self.scratch = rnd.calls, dealer, None
        self.deals, self.kitty_line = self.hand_lines(rnd)
        deal = self.written_deal() or self.inferred_deal(rnd)
        refused: IllegalMove | None = None
        if deal is not None:
            try:
                self.game.push(deal)
            except IllegalMove as error:  # an inferred deal that is not a deal: found below, at its token
                refused = error
            else:
                if self.history:
                    self.out.origins.append(rnd)
                return self.play_moves(number, rnd, last=last)
        self.scratch = shown = self.provisional_state(rnd)
        complete = self.play_moves(number, rnd, last=last)
        if complete or refused is not None:
            self.no_deal_fits(number, rnd, refused)
        if self.stand_in and last:
            drawn = self.stand_in_deal(number, rnd, shown)
            if drawn is not None:  # every move checked once more, on the engine: the table is live
                self.scratch = None
                try:
                    self.game.push(drawn)
                except IllegalMove:  # pragma: no cover - the draw keeps to the pack and the places' sizes
                    self.out.drawn_round = None
                else:
                    if self.history:
                        self.out.origins.append(rnd)
                    return self.play_moves(number, rnd, last=last)
        unknown = [config.players[seat] for seat in range(config.player_count) if seat not in self.deals]
        if not self.deals and self.kitty_line is None:
            what = "no deal or kitty lines"
        else:
            what = " and ".join([f"no deal line for {names_text(unknown)}"] * bool(unknown)
                                + ["no kitty line"] * (self.kitty_line is None))
        self.out.notes.append(f"hand {number} is unfinished and has {what}: the cards left out are known only "
                              "from the takes and plays written, so the hand is checked against those alone")
        return False

    def over_text(self) -> str:
        """Why no hand follows (B10)."""
        state = self.state
        reached = [f"{self.config.players[seat]}'s total is {total}" for seat, total in enumerate(state.scores)
                   if total >= GAME_END_HIGH or total <= GAME_END_LOW]
        return (f"the game is over: after hand {state.hand_no} {names_text(reached)} (a total of {GAME_END_HIGH} or "
                f"more, or {GAME_END_LOW} or less, ends the game), so no hand follows")

    def check_notation(self, rnd: Round) -> None:
        """Items of the other games' notation are errors here (DGN), at their tokens: B2 says what a hand
        is (a deal and a kitty; nothing passed, no end-of-round choices). Marks on cards are checked where
        each card is read."""
        self.refuse_foreign_items(rnd, "B2")

    def refuse_line_marks(self, play: Play, kind: str) -> None:
        """B7: a card is played high or low, and the Joker given a suit, when it is played: no mark on a card
        of a deal, kitty or take line (an annotation may stand anywhere)."""
        self.refuse_marks(play, choice=False, sign=True, rule="B7")
        if play.sign is None and play.suit is None:
            return
        mark = (play.suit.value if play.suit is not None else "") + (play.sign or "")
        self.problem(self.mark_pos(play, len(mark)), f"`{mark}` after {play.card} in a {kind} line: high or low, "
                     "and the Joker's suit, are chosen when the card is played, and written only in a trick",
                     "choice-not-allowed", "B7", len(mark))

    @staticmethod
    def mark_pos(play: Play, length: int) -> Pos:
        """Where the last `length` characters of a card's marks start (before any annotation)."""
        end = play.pos.column + play.length - len(play.annotation or "")
        if play.choice is not None:
            end -= len(play.choice.player) + 1
        return Pos(play.pos.line, end - length)

    # ---------------------------------------------------------------- the deal

    def hand_lines(self, rnd: Round) -> tuple[dict[int, HandLine], HandLine | None]:
        """The deal and kitty lines written, checked on their own (B2, `check_deal_lines`): cards of the pack,
        none twice, 10 to a player and 3 to the kitty; the other places may still have to be inferred."""
        config = self.config
        kitty = Place("kitty", "the kitty", "is in the kitty", config.kitty_size)
        deals, places = self.check_deal_lines(rnd, DealLines(_DECK, PACK_TEXT, config.hand_size, "B2", (kitty,)))
        return deals, places.get("kitty")

    def written_deal(self) -> Deal | None:
        """The deal when the lines written give it: all four places, or all but one (the rest of the pack)."""
        n = self.config.player_count
        deals, kitty = self.deals, self.kitty_line
        if len(deals) + (kitty is not None) < n:
            return None
        if kitty is not None and len(deals) == n:  # every place written
            return Deal(tuple([deals[seat].cards.cards for seat in range(n)]), kitty.cards.cards)
        used = {card for line in (*deals.values(), *([kitty] if kitty else [])) for card in line.cards.cards}
        rest = tuple(card for card in DECK if card not in used)
        return Deal(tuple(deals[seat].cards.cards if seat in deals else rest for seat in range(n)),
                    kitty.cards.cards if kitty is not None else rest)

    def inferred_deal(self, rnd: Round) -> Deal | None:
        """The deal a complete hand implies (`infer_deal`), the lines written kept as written; None when
        the hand does not imply one (unfinished, or a take or a Joker it cannot be read from)."""
        config = self.config
        takes = []
        for call in rnd.calls:
            if isinstance(call, Take):
                seat = config.seat_of(call.player)
                if seat is None:
                    return None
                takes.append(TakeFromKitty(seat, call.card.card, call.point.card))
        tricks = [_lenient_moves(trick.plays) for trick in rnd.tricks]
        try:
            inferred = infer_deal(config, self.dealer, takes, tricks)
        except IllegalMove:
            return None
        hands = tuple(self.deals[seat].cards.cards if seat in self.deals else inferred.hands[seat]
                      for seat in range(config.player_count))
        kitty = self.kitty_line.cards.cards if self.kitty_line is not None else inferred.kitty
        return Deal(hands, kitty)

    def provisional_state(self, rnd: Round) -> BiddingState:
        """The hand dealt as far as the record shows it: the lines written; for each unknown place, the
        cards the hand shows there (the kitty: the cards taken; a hand: its point card and the cards its
        player plays), each card in the first place the record puts it. Not a deal (the engine's `Deal`
        would refuse it): it only lets the engine check the hand's moves."""
        config = self.config
        deals = self.deals
        placed: set[AnyCard] = {card for line in deals.values() for card in line.cards.cards}
        hands = [set(deals[seat].cards.cards) if seat in deals else set() for seat in range(config.player_count)]
        kitty = list(self.kitty_line.cards.cards) if self.kitty_line is not None else []
        placed.update(kitty)
        takes = [(config.seat_of(call.player), call) for call in rnd.calls if isinstance(call, Take)]
        if self.kitty_line is None:
            for _, take in takes:
                card = take.card.card
                if card in _DECK and card not in placed and len(kitty) < config.kitty_size:
                    placed.add(card)
                    kitty.append(card)

        def show(seat: int | None, card: AnyCard) -> None:
            if seat is not None and seat not in deals and card in _DECK and card not in placed:
                placed.add(card)
                hands[seat].add(card)

        for seat, take in takes:
            show(seat, take.point.card)
        for seats, trick in zip(self.seats_by_trick(rnd), rnd.tricks):
            for seat, card in zip(seats, trick.plays.cards):
                show(seat, card)
        state = self.game.state
        assert isinstance(state, BiddingState) and state.phase is Phase.DEAL
        return replace(state, phase=Phase.BID, hands=tuple(frozenset(hand) for hand in hands), kitty=tuple(kitty))

    def stand_in_deal(self, number: int, rnd: Round, shown: BiddingState) -> Deal | None:
        """The hand's stand-in deal (`Replayer.stand_in_hands`), for a live table: each place holds what the
        record shows there (`provisional_state`) and is filled up from the rest of the pack, a hand never
        with a card of a suit its player did not follow with a card other than the Joker (B6)."""
        config = self.config
        n = config.player_count
        plays: list[tuple[int, AnyCard, Suit | None]] = []
        for seats, trick in zip(self.seats_by_trick(rnd), rnd.tricks):
            moves = [_lenient_move(play) for play in trick.plays]
            if not moves:
                continue
            lead = moves[0]
            led = lead.suit if isinstance(lead.card, Joker) else getattr(lead.card, "suit", None)
            plays += [(seat, move.card, led) for seat, move in zip(seats, moves)]
        known = [set(hand) for hand in shown.hands] + [set(shown.kitty)]
        refuses = void_refusals(shown_voids(plays, n)) + [None]  # B6; the kitty may hold any card
        drawn = self.stand_in_hands(number, known, [config.hand_size] * n + [config.kitty_size], refuses)
        return None if drawn is None else Deal(drawn[:n], drawn[n])

    def no_deal_fits(self, number: int, rnd: Round, refused: IllegalMove | None) -> None:
        """A complete hand whose moves all pass on the provisional deal, yet which implies no deal. The
        provisional check finds every way the record can contradict itself that we know of (a card shown
        in two places, played twice, laid and played, of no pack); this is the backstop, at the header."""
        header = rnd.header
        why = f": {refused.reason}" if refused is not None else ""
        self.problem(header.pos, f"the deal of hand {number} cannot be inferred from its takes and tricks{why}",
                     refused.code if refused is not None else "invalid-deal", "B2", len(f"R{header.number}"))

    # ---------------------------------------------------------------- the moves of a hand

    def apply(self, move: object, origin: object) -> None:
        """The move on the game (or on the provisional state); raises the engine's `IllegalMove`."""
        if self.scratch is not None:
            self.scratch, _ = Bidding.apply(self.scratch, move)  # type: ignore[arg-type]
            return
        self.game.push(move)
        if self.history:
            self.out.origins.append(origin)

    def play_moves(self, number: int, rnd: Round, *, last: bool) -> bool:
        """Bids, takes, final bids and tricks; False when the hand is unfinished (the record's last)."""
        calls = rnd.calls
        table = self.game.table
        fast = self.scratch is None and not self.game.recording and isinstance(table, BiddingTable)
        for call in calls[self.play_written_calls(calls) if fast else 0:]:
            if isinstance(call, Take):
                self.take(call)
            else:
                self.call(call)
        if fast and isinstance(table, BiddingTable) and table.phase is Phase.PLAY:
            return self.play_tricks(number, rnd, last=last)  # the table's own phase: no snapshot made to read it
        state = self.state
        if state.phase is not Phase.PLAY:
            if rnd.tricks:
                trick = rnd.tricks[0]
                self.problem(trick.pos, self.due_text(state, "before trick 1"), "missing-call",
                             _PHASE_RULE.get(state.phase), len(f"{trick.number}."))
            if not last:
                header = rnd.header
                self.problem(header.pos, self.due_text(state, f"and hand {number} has no tricks"),
                             "round-too-short", _PHASE_RULE.get(state.phase), len(f"R{header.number}"))
            return False
        return self.play_tricks(number, rnd, last=last)

    def play_written_calls(self, calls: Sequence[Call | Take]) -> int:
        """The check path: the bids, takes and final bids go straight to the table's own checks (B3-B5, the
        ones `made` calls) while it makes them, each then noted as the move `call` and `take` would push;
        how many it made. It stops at a call those would report anything about (a player id not written
        exactly as in Players, a mark on a take's card, a move the table refuses); the call-by-call loop
        goes on from there and reports it."""
        table = self.game.table
        assert isinstance(table, BiddingTable)
        seats = self.seats
        made: list[Bid | FinalBid | TakeFromKitty] = []
        for call in calls:
            seat = seats.get(call.player)
            if seat is None:
                break
            move: Bid | FinalBid | TakeFromKitty | None
            if isinstance(call, Take):
                card, point = call.card.card, call.point.card
                if not (_bare(call.card) and _bare(call.point) and table.phase is Phase.TAKE
                        and table.take(seat, card, point)):
                    break  # B7: `refuse_line_marks` reports a mark; the pure path, a refusal
                move = _call_move(TakeFromKitty, seat, card, point)
            elif call.kind == "bid":  # as `call` reads it: a bid, else a final bid
                if not (table.phase is Phase.BID and table.bid(seat, call.amount)):
                    break
                move = _call_move(Bid, seat, call.amount)
            else:
                if not (table.phase is Phase.FINAL and table.final_bid(seat, call.amount)):
                    break
                move = _call_move(FinalBid, seat, call.amount)
            made.append(move)
        self.game.note_played(made)
        return len(made)

    def due_text(self, state: BiddingState, where: str) -> str:
        """What is missing before play can start (B3-B5), and why it is written."""
        who = self.config.players[state.to_move] if state.to_move is not None else "a player"
        if state.phase is Phase.BID:
            return f"{who}'s bid is missing {where} (every player bids, in turn order from the dealer's left)"
        if state.phase is Phase.TAKE:
            return (f"{who}'s take is missing {where} (every player takes a card from the kitty and lays a "
                    "point card, in turn order)")
        return (f"{who}'s final bid is missing {where} (every player's final bid is written, in turn order, "
                "even when unchanged)")

    def call(self, call: Call) -> None:
        """A bid (B3) or final bid (B5); a refusal at the player (out of turn), the keyword (not due now)
        or the number (anything about the amount)."""
        seat = self.seat(call.player, call.player_pos)
        move = self.read_move(f"{call.kind} {self.config.players[seat]} {call.amount}", call.pos, len(call.kind))
        try:
            self.apply(move, call)
        except IllegalMove as error:
            name = self.turn_or_phase(error, call, seat)
            message = error.reason
            if isinstance(error, FinalBidMove) and error.expected is not None:
                bid = error.expected
                allowed = [str(a) for a in (bid - 1, bid, bid + 1) if 0 <= a <= MAX_BID]
                message = (f"{name} bid {bid}: the final bid may only be {names_text(allowed).replace(' and ', ' or ')}"
                           f", not {call.amount}")
            if isinstance(error, ForbiddenTotal):
                bids = "bids" if call.kind == "bid" else "final bids"
                verb = "bid" if call.kind == "bid" else "make a final bid of"
                message = (f"{name}, the dealer, may not {verb} {call.amount}: the others' {bids} come to "
                           f"{error.others}, and the dealer may not bring the total to exactly {FORBIDDEN_TOTAL}")
            self.problem(call.amount_pos, message, error.code, error.rule, self.number_length(call))

    def turn_or_phase(self, error: IllegalMove, call: Call | Take, seat: int) -> str:
        """A call refused for its turn (`out_of_turn`) or its phase (`not_due`) is reported so; the
        caller's name, for any other refusal."""
        if isinstance(error, OutOfTurn):
            self.out_of_turn(error, call, seat)
        if isinstance(error, (WrongPhase, GameOver)):
            self.not_due(error, call, seat)
        return self.config.players[seat]

    def not_due(self, error: IllegalMove, call: Call | Take, seat: int) -> None:
        """A call whose kind is not due: when an earlier kind's call is missing (a take while a bid is due),
        that one is named; otherwise (a second round of bids, say) the engine's words. At the keyword."""
        state = self.state
        order = (Phase.BID, Phase.TAKE, Phase.FINAL)
        kind = {"bid": Phase.BID, "take": Phase.TAKE, "final": Phase.FINAL}[call.kind]
        message = error.reason
        if state.phase in order and order.index(state.phase) < order.index(kind):
            what = {"bid": "bid", "take": "take", "final": "final bid"}[call.kind]
            message = self.due_text(state, f"before {self.config.players[seat]}'s {what}")
        self.problem(call.pos, message, error.code, error.rule, len(call.kind))

    def out_of_turn(self, error: IllegalMove, call: Call | Take, seat: int) -> None:
        """B3-B5: a call before its turn; when the player whose turn it is has none of that kind written in
        the hand, that one is missing (a final bid left out because it did not change, say)."""
        names = self.config.players
        order = ", ".join(names[s] for s in self.config.turn_order(self.dealer))
        what = {"bid": "bid", "take": "take", "final": "final bid"}[call.kind]
        also = ", each written even when unchanged" if call.kind == "final" else ""
        hint = f"{what}s go in turn from the dealer's left: {order}{also}"
        due = self.state.to_move
        written = any(c.kind == call.kind and self.config.seat_of(c.player) == due for c in self.calls)
        if due is not None and not written:
            message = f"{names[due]}'s {what} is missing before {names[seat]}'s ({hint})"
        else:
            message = f"{error.reason} ({hint})"
        self.problem(call.player_pos, message, error.code, error.rule, len(call.player))

    def number_length(self, call: Call) -> int:
        """The length of the amount as written (`03` is 2), from the source line."""
        line = self.record.source_line(call.amount_pos.line)
        match = _DIGITS.match(line, call.amount_pos.column - 1)
        return len(match.group()) if match else len(str(call.amount))

    def take(self, call: Take) -> None:
        """B4: the card taken from the kitty, then the point card laid; a refusal at the player (out of
        turn), the keyword (not due now), or the card concerned."""
        seat = self.seat(call.player, call.player_pos)
        for play in (call.card, call.point):
            self.refuse_line_marks(play, "take")
        move = self.read_move(f"take {self.config.players[seat]} {call.card.card} point {call.point.card}", call.pos,
                              len(call.kind))
        try:
            self.apply(move, call)
        except IllegalMove as error:
            name = self.turn_or_phase(error, call, seat)
            card = call.card.card
            if isinstance(error, CardNotInDeck):
                play = call.card if error.card is card else call.point
                self.problem(play.pos, f"{name} cannot {'take' if play is call.card else 'lay'} {play.card}: it "
                             f"is not in the pack ({PACK_TEXT}){meant_card(play.card)}", error.code, "B2", play.length)
            if isinstance(error, NotInKitty):
                where = self.whereabouts(card, seat, call)
                if where is not None and self.kitty_line is None and self.scratch is not None:
                    message = f"{name} cannot take {card} from the kitty: {where}"  # the kitty is not known
                else:
                    message = error.reason + (f" ({where})" if where else "")
                self.problem(call.card.pos, message, error.code, error.rule, call.card.length)
            if isinstance(error, CardNotHeld):
                where = self.whereabouts(call.point.card, seat, call)
                self.problem(call.point.pos, error.reason + (f" ({where})" if where else ""), error.code,
                             error.rule, call.point.length)
            self.problem(call.pos, error.reason, error.code, error.rule, len(call.kind))

    def whereabouts(self, card: AnyCard, seat: int, before: object = None) -> str | None:
        """Where the record puts `card` other than with `seat`, this hand: a deal line, the kitty, a card
        taken or laid by another player (the takes written before `before`, or all of them)."""
        names = self.config.players
        for other, line in self.deals.items():
            if card in line.cards.cards:
                return f"it is dealt to {names[other]}" if other != seat else f"it is in {names[seat]}'s own hand"
        for call in self.calls:
            if call is before:
                break
            if isinstance(call, Take):
                taker = self.config.seat_of(call.player)
                if taker is None or taker == seat:
                    continue
                if call.point.card is card:
                    return f"it is {names[taker]}'s point card"
                if call.card.card is card:
                    return f"{names[taker]} has taken it from the kitty"
        if self.kitty_line is not None and card in self.kitty_line.cards.cards:
            return "it is in the kitty"
        return None

    # ---------------------------------------------------------------- tricks

    def play_tricks(self, number: int, rnd: Round, *, last: bool) -> bool:
        """The hand's tricks, card by card; False when the hand is unfinished."""
        fast = self.scratch is None and not self.game.history and isinstance(self.game.table, BiddingTable)
        start = self.play_written_tricks(rnd) if fast else (0, 0)

        def push(move: PlayCard, plays: Plays, position: int) -> None:
            self.apply(move, plays[position] if self.history else None)

        return self.play_by_card(number, rnd, last=last, start=start, move_of=self.move_of, push=push)

    def playing(self, number: int) -> bool:
        state = self.state
        return state.phase is Phase.PLAY and state.hand_no == number

    def play_written_tricks(self, rnd: Round) -> tuple[int, int]:
        """The check path: the tricks written as expected (numbered 1, 2, … each with its three cards,
        none with a mark `move_of` would report) go to the table in one run (`BiddingTable.play_run`),
        which stops before a play it would refuse. Returns how many tricks are done and, if it stopped
        inside the next, at which card; the card-by-card loop goes on from there and reports it."""
        table = self.game.table
        assert isinstance(table, BiddingTable)
        per_trick = self.config.plays_per_trick
        moves: list[PlayCard] = []
        for count, trick in enumerate(rnd.tricks[: self.config.tricks_per_hand], 1):
            plays = trick.plays
            if trick.number != count or len(plays.cards) != per_trick:
                break
            if plays.plain:
                moves += map(_PLAIN_MOVES.__getitem__, plays.cards)  # `_plain_move`, of every card
                continue
            texts = plays.texts()
            if texts is not None and len(texts) == per_trick:  # read from a line: each token's move by its spelling
                made = [_token_move(text) for text in texts]
                if not all(made):  # a token `move_of` reports (a move is never false)
                    break
                moves += made  # type: ignore[arg-type]
            elif all(_unmarked(play) for play in plays):
                moves += map(_lenient_move, plays)
            else:
                break
        played = self.game.note_run(lambda: table.play_run(moves, 0), lambda end: moves[:end], CardPlayed)
        return divmod(played, per_trick)

    def move_of(self, plays: Plays, position: int) -> PlayCard:
        """A card of a trick as a move, read by the game's words (`card_move`), after the marks those words
        leave to the replay (B7): `>id` refused; `+`/`-` only on an ace or the Joker (a bare ace is high); the
        Joker's missing suit or sign is left for the engine to refuse at the card."""
        if not plays.plain:
            play = plays[position]
            self.refuse_marks(play, choice=False, sign=True, rule="B7")
            card = play.card
            if play.sign is not None and isinstance(card, Card) and not card.is_ace:
                self.problem(self.mark_pos(play, 1), f"`{play.sign}` after {card}: only an ace or the Joker is "
                             "played high or low (an ace: AH or AH+ high, AH- low; the Joker: JoS+ or JoS-)",
                             "choice-not-allowed", "B7", 1)
        move: PlayCard = self.card_move(plays, position)
        return move

    def words_state(self) -> BiddingState:
        """A hand whose deal is unknown is checked on a provisional state (`scratch`): its words are read there."""
        return self.state

    def refused_play(self, error: IllegalMove, rnd: Round, index: int, position: int) -> None:
        """A card the engine refuses, at its token; one played or laid before names where (B6)."""
        config = self.config
        play = rnd.tricks[index - 1].plays[position]
        card = play.card
        seat = error.seat if error.seat is not None else self.state.to_move
        name = config.players[seat] if seat is not None else "a player"
        if isinstance(error, CardNotInDeck):
            self.problem(play.pos, f"{name} cannot play {card}: it is not in the pack ({PACK_TEXT}){meant_card(card)}",
                         error.code, error.rule, play.length)
        if isinstance(error, CardNotHeld) and seat is not None:
            self.played_before(rnd, index, position, seat)
            for call in rnd.calls:
                if isinstance(call, Take) and call.point.card is card and config.seat_of(call.player) == seat:
                    self.problem(play.pos, f"{name} cannot play {card}: it is {name}'s point card, laid down at "
                                 "the take", error.code, "B6", play.length)
            where = self.whereabouts(card, seat)
            if where is None and seat in self.deals and card not in self.deals[seat].cards.cards:
                where = f"it is not in {name}'s deal line"
            self.problem(play.pos, error.reason + (f" ({where})" if where else ""), error.code, error.rule,
                         play.length)
        if isinstance(error, MustFollowSuit) and seat is not None and seat not in self.deals:
            shown = self.played_later(rnd, seat, error.cards, index)
            if shown:  # the hand is inferred: say where the record shows the card that should have been played
                self.problem(play.pos, f"{error.reason}: {name} plays {shown}", error.code, error.rule, play.length)
        if isinstance(error, MissingChoice) and isinstance(card, Joker):
            self.problem(play.pos, f"{error.reason}: the Joker is written Jo, then the suit given, then + for "
                         "high or - for low, as in JoS+ or JoD-", error.code, error.rule, play.length)
        self.problem(play.pos, error.reason, error.code, error.rule, play.length)

    def played_later(self, rnd: Round, seat: int, cards: Sequence[AnyCard], index: int) -> str:
        """Where, after trick `index`, `seat` plays the first of `cards`: `9H in trick 7`, or ""."""
        seats = self.seats_by_trick(rnd)
        for t in range(index, len(seats)):
            for who, card in zip(seats[t], rnd.tricks[t].plays.cards):
                if who == seat and card in cards:
                    return f"{card} in trick {t + 1}"
        return ""

    def trick_seats(self, rnd: Round, count: int) -> list[tuple[int, ...]]:
        return self.seats_by_trick(rnd)[:count]

    def seats_by_trick(self, rnd: Round) -> list[tuple[int, ...]]:
        """Who played each card of the hand's tricks, as written: the dealer's left leads trick 1, each
        winner (B8, from the cards alone) the next (B6). Stops after a short trick, before a trick not
        numbered in order, and at a trick whose winner the record does not give (a Joker without its suit)."""
        return self.seats_and_next(rnd, self.dealer)[0]

    def seats_and_leader(self, rnd: Round, dealer: int, count: int) -> tuple[list[tuple[int, ...]], int] | None:
        """`seats_by_trick` of the first `count` tricks, and who leads after the last whole one (B6, B8), for the
        recorder's status without hands; None where the record does not say (a Joker without its suit)."""
        seats, leader = self.seats_and_next(rnd, dealer, count)
        return None if leader is None or len(seats) < min(count, len(rnd.tricks)) else (seats, leader)

    def seats_and_next(self, rnd: Round, dealer: int, limit: int | None = None,
                       ) -> tuple[list[tuple[int, ...]], int | None]:
        """`seats_by_trick` (its first `limit` tricks), and the leader of the trick after the last whole one:
        None once a trick's winner is not given."""
        config = self.config
        n = config.player_count
        per_trick = config.plays_per_trick
        leader = config.left_of(dealer)
        out: list[tuple[int, ...]] = []
        for index, trick in enumerate(rnd.tricks[:limit], 1):
            if trick.number != index:
                break  # a trick missing or out of order: who played what after it is not known
            plays = trick.plays
            count = min(len(plays), per_trick)
            seats = tuple((leader + i) % n for i in range(count))
            out.append(seats)
            if count < per_trick:
                break
            moves = _lenient_moves(plays)[:per_trick]
            played = []
            for seat, move in zip(seats, moves):
                suit = move.card.suit if isinstance(move.card, Card) else move.suit
                if suit is None:
                    return out, None
                played.append(Played(seat, move.card, move.high, suit))
            leader = seats[trick_winner(played)[0]]
        return out, leader



#: The ruling that says what is due in each phase before play (for a call that is missing).
_PHASE_RULE: Final = {Phase.BID: "B3", Phase.TAKE: "B4", Phase.FINAL: "B5"}

BRIDGE = Bridge(replayer=BiddingReplayer, record_from_game=record_from_game)
