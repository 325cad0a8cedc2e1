"""Rich renderables for a replay of the bidding game: the players, the kitty, the trick, the log.

Each fits an 80×24 terminal and uses more room when there is more: from
`WIDE` columns on, whole names and longer headings. With `--as PLAYER`
(`as_player`) the other players' hands, their point cards (until the hand
is scored, B9) and the kitty (dealt face down, B2) are hidden, on the screen
and in the log alike; a watcher's view (`NOBODY`, `diamonds.core.viewer`) hides them
all, every player's.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.table import Table as RichTable
from rich.text import Text

from diamonds.core.viewer import Viewer, sees
from diamonds.views.cards import append_plays, card_text, cards_text
from diamonds.views.screen import EventLog, SeatsPanel, StepScreen, seat_cells

from .narrate import choice_suffix, describe, describe_take, describe_won, signed, why_text
from .rules import CardPlayed, CardTaken, Event, TrickWon
from .rules.config import GAME_END_HIGH, GAME_END_LOW
from .steps import Table

__all__ = ["PlayersPanel", "KittyLine", "TrickPanel", "StepLog", "Position", "WIDE"]

WIDE = 100  # from this width on: whole names, long headings


def _dim(text: str) -> Text:
    return Text(text, style="dim")


def _hides(as_player: Viewer, seat: int) -> bool:
    """Is what only `seat` holds (its hand, its take, its point card) hidden from `as_player`?"""
    return not sees(as_player, (seat,))


@dataclass(frozen=True, slots=True)
class PlayersPanel(SeatsPanel):
    """Every player: bid and final bid, tricks against the final bid, point card, score, hand."""

    def fill(self, grid: RichTable, wide: bool) -> None:
        table: Table = self.table
        config = table.config
        grid.add_column("Bid→final" if wide else "Bid", justify="right", no_wrap=True)
        grid.add_column("Tricks", justify="right", no_wrap=True)
        grid.add_column("Point card" if wide else "Point", no_wrap=True)
        grid.add_column("Score", justify="right", no_wrap=True)
        grid.add_column("Hand", overflow="fold")
        marks = self.dealer_winner_marks()
        scored = {score.seat: score for score in table.scored}
        for seat, name in enumerate(config.players):
            mark_cell, who = seat_cells(marks[seat], name, seat == self.highlight)
            grid.add_row(mark_cell, who, self._bid(seat), self._tricks(seat),
                         self._point(seat, scored.get(seat) is not None),
                         Text(str(table.totals[seat]), style="bold"), self._hand(seat))

    def _bid(self, seat: int) -> Text:
        bid, final = self.table.bids[seat], self.table.final_bids[seat]
        if bid is None:
            return _dim("—")
        return Text(str(bid) if final is None else f"{bid}→{final}")

    def _tricks(self, seat: int) -> Text:
        """`2/3`: tricks won so far against the final bid; green when made, red once it cannot be."""
        table = self.table
        won, final = table.tricks_won[seat], table.final_bids[seat]
        if final is None:
            return Text(str(won)) if table.trick_no else _dim("—")
        text = Text(f"{won}/{final}")
        if won > final or table.scored and won != final:
            text.stylize("red")
        elif table.scored:
            text.stylize("green")
        return text

    def _point(self, seat: int, scored: bool) -> Text:
        table = self.table
        card = table.point_cards[seat]
        if card is None:
            return _dim("—")
        if not scored and _hides(self.as_player, seat):
            return _dim("laid")
        text = card_text(card)
        for score in table.scored:
            if score.seat == seat:
                text.append(f" {signed(score.points)}", style="green" if score.points > 0 else "red")
        return text

    def _hand(self, seat: int) -> Text:
        return self.hand_cell(seat, self.table.hands[seat] if self.table.hands else ())


@dataclass(frozen=True, slots=True)
class KittyLine:
    """B2/B4: the kitty as dealt and what each player took, on a hand's deal step."""

    table: Table
    as_player: Viewer = None

    def __rich__(self) -> Text:
        table = self.table
        config = table.config
        text = Text("Kitty: ")
        if sees(self.as_player, ()):  # dealt face down: no seat sees it (B2)
            text.append_text(cards_text(table.kitty))
        else:
            text.append(f"{len(table.kitty)} cards face down", style="dim")
        takes = []
        for seat in config.turn_order(table.dealer):
            card = table.taken[seat]
            if card is None:
                continue
            take = Text(f"{config.players[seat]} ")
            take.append_text(_dim("a card") if _hides(self.as_player, seat) else card_text(card))
            takes.append(take)
        if takes:
            text.append(" · taken: ")
            text.append_text(Text(", ").join(takes))
        return text


#: What a play's + and - say (B7), under a trick that shows one.
LEGEND = "+ played high, - played low (an ace, or the Joker after the suit it is given)"


def hand_title(hand_no: int) -> str:
    """`Hand 2 (to ±100)`: the game ends after a hand that brings a total to 100 or -100 (B10)."""
    if GAME_END_LOW == -GAME_END_HIGH:
        return f"Hand {hand_no} (to ±{GAME_END_HIGH})"
    return f"Hand {hand_no} (to {GAME_END_HIGH} or {GAME_END_LOW})"


@dataclass(frozen=True, slots=True)
class TrickPanel:
    """The trick on the table, each play with its choice (B7), and its winner with why once complete (B8)."""

    table: Table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line, winner = self.trick_line(), self.winner_text()
        if line.cell_len + winner.cell_len <= options.max_width:
            yield line + winner
        else:  # the winner on a line of their own rather than cut in two
            yield line
            yield winner
        if any(choice_suffix(play) for play in self.table.trick):  # `AH-`, `JoS+`: what the signs mean
            yield _dim(LEGEND)

    def trick_line(self) -> Text:
        table = self.table
        names = table.config.players
        if not table.trick:
            return _dim("No cards on the table.")
        plays = ((names[play.seat], card_text(play.card, choice_suffix(play)), "") for play in table.trick)
        return append_plays(Text(f"Trick {table.trick_no}: "), plays)

    def winner_text(self) -> Text:
        """`  → Cat wins (high Joker)` once the trick is complete."""
        table = self.table
        if table.trick_winner is None or table.why is None or not table.trick:
            return Text("")
        return Text(f"  → {table.config.players[table.trick_winner]} wins ({why_text(table.why)})", style="bold")


@dataclass(frozen=True, slots=True)
class StepLog(EventLog):
    """What the step did, in words; at most `limit` lines, the last ones.

    With `as_player`, another player's take says neither the card taken nor
    the point card laid.
    """

    def _line(self, event: Event) -> str:
        table = self.step.table
        config = table.config
        if isinstance(event, CardTaken):
            return describe_take(config, event, hidden=_hides(self.as_player, event.seat))
        if isinstance(event, TrickWon):
            play: CardPlayed | None = table.winning_play() if table.trick_no == event.trick_no else None
            return describe_won(config, event, play)
        return describe(config, event)


@dataclass(frozen=True, slots=True)
class Position(StepScreen):
    """The whole screen for one step: title, players, kitty or trick, log, and a status line."""

    def heading(self) -> tuple[str, int]:
        table = self.step.table
        return hand_title(table.hand_no), table.config.tricks_per_hand

    def add_to_title(self, title: Text) -> None:
        step, table = self.step, self.step.table
        config = table.config
        if table.over:
            title.append(" · game over", style="yellow")
        else:
            act = table.to_act()
            if act is not None and step.kind == "end":
                title.append(f" · {config.players[act[0]]} deals next", style="dim")
            elif act is not None and step.kind != "start":
                seat, doing = act
                title.append(f" · {config.players[seat]} to {doing}", style="dim")

    def middle(self) -> list[RenderableType]:
        """The kitty on a deal step (B4), else the trick on the table (nothing before the first deal)."""
        step, table = self.step, self.step.table
        if step.kind == "deal":
            return [KittyLine(table, self.as_player)]
        if step.kind == "start":
            return []
        return [TrickPanel(table)]

    def parts(self) -> list[RenderableType]:
        step = self.step
        return [PlayersPanel(step.table, self.as_player, step.actor), *self.middle()]

    def log(self, limit: int) -> StepLog:
        return StepLog(self.step, limit, self.as_player)
