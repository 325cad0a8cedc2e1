"""Rich renderables for a replay of Kirk's Diamonds: the players, the trick and its tie-break, the log.

Each fits an 80×24 terminal and uses more room when there is more: from
`WIDE` columns on, the whole names, longer headings and the top cards of
every scoring pile (those a tie-break would reveal, K5) are shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table as RichTable
from rich.text import Text

from diamonds.core import Card
from diamonds.views.cards import append_plays, card_text, cards_text
from diamonds.views.screen import EventLog, SeatsPanel, StepScreen, seat_cells

from .narrate import describe, describe_tie, hand_title, names_text
from .rules import DecidedBy, Event, TieBroken, TieStep, card_value
from .steps import Table

__all__ = ["PlayersPanel", "TrickPanel", "StepLog", "Position", "WIDE"]

WIDE = 100  # from this width on: whole names, long headings, the top of every pile
PILE_SHOWN = 4  # from WIDE on, this many cards of each pile, top first
TIE_LINES = 5  # at most this many steps of a tie-break are drawn; the middle ones are summed up


def _valued(names: Sequence[str], plays: Iterable[tuple[int, Card]]) -> Iterator[tuple[str, Text, str]]:
    """Plays for `append_plays`, each card with its value (K3) after it."""
    return ((names[seat], card_text(card), f" ({card_value(card)})") for seat, card in plays)


def _dim(text: str) -> Text:
    return Text(text, style="dim")


@dataclass(frozen=True, slots=True)
class PlayersPanel(SeatsPanel):
    """Every player: tricks and cards won this hand, the top of their pile, points, total, hand."""

    def fill(self, grid: RichTable, wide: bool) -> None:
        table: Table = self.table
        config = table.config
        grid.add_column("Tricks" if wide else "Tr", justify="right", no_wrap=True)
        grid.add_column("Cards" if wide else "Won", justify="right", no_wrap=True)
        grid.add_column("Pile, top first" if wide else "Top", no_wrap=True)
        grid.add_column("Points" if wide else "Pts", justify="right", no_wrap=True)
        grid.add_column("Total", justify="right", no_wrap=True)
        grid.add_column("Hand", overflow="fold")
        points = table.hand_points
        marks = self.dealer_winner_marks()
        for seat, name in enumerate(config.players):
            mark_cell, who = seat_cells(marks[seat], name, seat == self.highlight)
            pile = table.piles[seat]
            if not pile:
                top = _dim("—")
            elif wide:
                shown = pile[::-1][:PILE_SHOWN]
                top = cards_text(shown)
                if len(pile) > PILE_SHOWN:
                    top.append(" …", style="dim")
            else:
                top = card_text(pile[-1])
            grid.add_row(mark_cell, who, str(table.tricks_won[seat]), str(len(pile)), top,
                         str(points[seat]), Text(str(table.totals[seat]), style="bold"),
                         self.hand_cell(seat, table.hands[seat]))


@dataclass(frozen=True, slots=True)
class TrickPanel:
    """The trick on the table with each card's value (K3), its winner once complete, and a tie-break (K5)."""

    table: Table
    show_tie: bool = True

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line, winner = self.trick_line(), self.winner_text()
        if line.cell_len + winner.cell_len <= options.max_width:
            yield line + winner
        else:  # the winner on a line of their own rather than cut in two
            yield line
            yield winner
        tie = self.table.tie
        if self.show_tie and tie is not None and self.table.trick_winner is not None:
            yield from self.tie_lines(tie)

    def trick_line(self) -> Text:
        table = self.table
        names = table.config.players
        if not table.trick:
            return _dim("No cards on the table.")
        return append_plays(Text(f"Trick {table.trick_no}: "), _valued(names, table.trick))

    def winner_text(self) -> Text:
        """`  → Ann wins` once the trick is complete."""
        winner = self.table.trick_winner
        if winner is None or not self.table.trick:
            return Text("")
        return Text(f"  → {self.table.config.players[winner]} wins", style="bold")

    def tie_lines(self, tie: TieBroken) -> list[Text]:
        config = self.table.config
        value = _trick_value(self.table)
        how = "first to play wins" if tie.decided_by is DecidedBy.FIRST_PLAYED and tie.depth == 1 \
            else "their piles decide, top card first"
        lines = [Text(f"Tie on {value} between {names_text(config, tie.tied)}: {how}", style="yellow")]
        steps = list(tie.steps)
        last = len(steps) - 1
        drawn = [self._step_line(step, tie, i == last) for i, step in enumerate(steps)]
        if len(drawn) > TIE_LINES:
            hidden = len(drawn) - (TIE_LINES - 1)
            drawn = drawn[:TIE_LINES - 2] + [_dim(f"  … {hidden} more depths")] + drawn[-1:]
        return lines + drawn

    def _step_line(self, step: TieStep, tie: TieBroken, last: bool) -> Text:
        names = self.table.config.players
        text = Text(f"  depth {step.depth}: ")
        if not step.revealed:
            text.append("no card left in any of their piles")
        append_plays(text, _valued(names, step.revealed))
        outs = [f"{names[seat]} out (no card)" for seat in step.no_card if step.revealed]
        outs += [f"{names[seat]} out (lower)" for seat in step.outvalued]
        if outs:
            text.append(" → " + ", ".join(outs))
        if last:
            winner = names[tie.winner]
            won = f"{winner} played first, wins" if tie.decided_by is DecidedBy.FIRST_PLAYED else f"{winner} wins"
            text.append((", " if outs else " → ") + won, style="bold")
        return text


def _trick_value(table: Table) -> int | None:
    """The highest value in the trick on the table: what a tie was on."""
    values = [card_value(card) for _, card in table.trick]
    return max(values) if values else None


@dataclass(frozen=True, slots=True)
class StepLog(EventLog):
    """What the step did, in words; at most `limit` lines, the last ones.

    Nothing in Kirk's log is secret (the deal is not spelt out), so
    `as_player` changes nothing; it is kept for the view's signature.
    """

    def _line(self, event: Event) -> str:
        table = self.step.table
        config = table.config
        if isinstance(event, TieBroken):
            return describe_tie(config, event, _trick_value(table))
        return describe(config, event)


@dataclass(frozen=True, slots=True)
class Position(StepScreen):
    """The whole screen for one step: title, players, trick (and tie-break), log, and a status line."""

    def heading(self) -> tuple[str, int]:
        table = self.step.table
        return hand_title(table.config, table.hand_no), table.config.tricks_per_hand

    def add_to_title(self, title: Text) -> None:
        step, table = self.step, self.step.table
        config = table.config
        if table.over:
            title.append(" · game over", style="yellow")
        elif step.kind == "card" and not step.trick_complete:
            to_move = (table.trick[-1][0] + 1) % config.player_count
            title.append(f" · {config.players[to_move]} to play", style="dim")

    def parts(self) -> tuple[PlayersPanel, TrickPanel]:
        step = self.step
        return PlayersPanel(step.table, self.as_player, step.actor), TrickPanel(step.table, step.kind == "card")

    def log(self, limit: int) -> StepLog:
        return StepLog(self.step, limit, self.as_player)

