"""From an engine game to a DGN record, for every family: the tags here, the rounds by the family's bridge."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from diamonds.core import AnyCard, Engine, Seating, family_of, sort_cards
from diamonds.notation.records import (
    Call,
    GameRecord,
    HandLine,
    Play,
    Plays,
    Round,
    RoundHeader,
    Tag,
    Take,
    Trick,
)

__all__ = ["record_from_game", "trick_game_record", "game_tags", "result_value", "RoundsWriter"]


def game_tags(game: Engine, extra: Iterable[tuple[str, str]] = ()) -> tuple[Tag, ...]:
    """Rules, Variant, Players, Dealer, the rule set's own tags, and Result, after any `extra` ones."""
    config: Any = game.config
    tags = [Tag(name, value) for name, value in extra]
    tags.append(Tag("Rules", config.rules))
    variants = getattr(config, "variant_text", "")
    if variants:
        tags.append(Tag("Variant", variants))
    tags.append(Tag("Players", " ".join(config.players)))
    tags.append(Tag("Dealer", config.players[config.first_dealer]))
    for name, value in getattr(config, "option_values", lambda: ())():
        tags.append(Tag(name, value))
    tags.append(Tag("Result", result_value(config, game.standings()) if game.is_over else "*"))
    return tuple(tags)


def result_value(config: Any, standings: Sequence[Any]) -> str:
    """The Result tag's value for a finished game's `standings`, as the canonical writer writes it
    (`format_result`: sides by their first seat, members in seat order), from the seats themselves: every
    valid game's Result is compared with it."""
    players, sides = config.players, config.sides
    ordered = sorted((sorted(sides[r.side]), r.score) for r in standings)
    return ", ".join(f"{'+'.join(players[seat] for seat in seats)} {score}" for seats, score in ordered)


def record_from_game(game: Engine, *, tags: Iterable[tuple[str, str]] = (), deals: bool = True) -> GameRecord:
    """The record of every move of `game` (deal lines optional), whatever its family."""
    bridge = family_of(game.config.rules).part("bridge")
    write = bridge.record_from_game or trick_game_record
    record: GameRecord = write(game, tags=tags, deals=deals)
    return record


def trick_game_record(game: Engine, *, tags: Iterable[tuple[str, str]] = (), deals: bool = True) -> GameRecord:
    """The record of a plain trick game, whatever its family, from the protocol alone: a chance move (a deal)
    opens a round (`R<k> dealer <id>`, each seat's hand after it as its deal line), and a move whose events
    the family's marks say played a card is that card, read by the family's own card reader from its own
    move words (`Rules.parse_card` of `Rules.move_text`). A family with other items (passes, bids) writes
    its own `record_from_game`."""
    rules = game.rules
    config: Any = game.config  # a trick game's Seating, which says its plays_per_trick
    card_played = family_of(config.rules).part("marks").card_played
    writer = RoundsWriter(config.plays_per_trick)
    for ply, (move, events) in enumerate(zip(game.moves, game.events)):
        before = game.state_at(ply)
        if rules.is_chance(before):
            after = game.state_at(ply + 1)
            writer.deal_hands(config, [rules.hand(after, seat) for seat in range(len(config.players))], deals=deals)
        elif any(card_played(event) is not None for event in events):
            writer.play(Play(rules.parse_card(config, rules.move_text(before, move))))
    return writer.record(game, tags)


class RoundsWriter:
    """A record's rounds written move by move (a family's `record_from_game`): a deal opens a round
    (`deal`), each card goes into the trick being filled (`play`), and `record` closes the last round."""

    def __init__(self, plays_per_trick: int) -> None:
        self.plays_per_trick = plays_per_trick
        self.rounds: list[Round] = []
        self.header: RoundHeader | None = None
        self.hand_lines: tuple[HandLine, ...] = ()
        self.calls: list[Call | Take] = []
        self.tricks: list[list[Play]] = []

    @property
    def next_number(self) -> int:
        """The number of the round the next deal opens (1 for the first)."""
        return len(self.rounds) + (self.header is not None) + 1

    def deal(self, header: RoundHeader, hand_lines: tuple[HandLine, ...]) -> None:
        """Close the round being written and open the next one, with its header and hand lines."""
        self.close()
        self.header, self.hand_lines, self.calls, self.tricks = header, hand_lines, [], []

    def deal_hands(self, config: Seating, hands: Sequence[Iterable[AnyCard]], *, deals: bool,
                   more: tuple[HandLine, ...] = ()) -> None:
        """Open the next round as a game without a pass count writes it: `R<n> dealer <id>` (the dealer as
        the seating moves the deal), a deal line per seat with its cards sorted, then `more` (a kitty);
        with `deals=False` no hand lines at all (DGN infers them from a complete round)."""
        number = self.next_number
        names = config.players
        header = RoundHeader(number, names[config.dealer_of_round(number)], None)
        lines = tuple(HandLine("deal", names[seat], Plays(tuple(Play(card) for card in sort_cards(hand))))
                      for seat, hand in enumerate(hands)) + more
        self.deal(header, lines if deals else ())

    def play(self, play: Play) -> None:
        if not self.tricks or len(self.tricks[-1]) == self.plays_per_trick:
            self.tricks.append([])
        self.tricks[-1].append(play)

    def close(self) -> None:
        if self.header is not None:
            tricks = tuple(Trick(i, Plays(plays)) for i, plays in enumerate(self.tricks, 1))
            self.rounds.append(Round(self.header, self.hand_lines, tricks, None, tuple(self.calls)))
            self.header = None

    def record(self, game: Engine, tags: Iterable[tuple[str, str]]) -> GameRecord:
        """The whole record: the rounds (the last one closed) under the game's tags."""
        self.close()
        return GameRecord(game_tags(game, tags), tuple(self.rounds))
