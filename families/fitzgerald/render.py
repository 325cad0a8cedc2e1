"""Rich renderables for a Fitzgerald replay: the table, the trick, the log; one class per concept.

Each fits an 80×24 terminal and uses more room when there is more: crystals
are drawn (5s as ◆, 1s as ♦) only when the width allows. With `--as PLAYER`
(`as_player`) the other players' hands, the other sides' Vaults and scores
(the rules keep a Vault secret; a partnership shares its Vault, R2) and the
Supply's count (with the public Showrooms it would give the Vaults away, R3)
are hidden until the game is over; the log does not spell out others' passes.
A watcher's view (`NOBODY`, `diamonds.core.viewer`) hides every hand and every Vault
and score, and spells out no pass, as the watcher's picture does.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table as RichTable
from rich.text import Text

from diamonds.core import format_cards
from diamonds.core.viewer import Viewer, sees
from diamonds.views.cards import SUIT_STYLE, append_plays, card_text
from diamonds.views.screen import EventLog, SeatsPanel, StepScreen, seat_cells

from .narrate import describe
from .rules import CardsDealt, CardsPassed, Event, PassesDelivered, first_leader, trick_seats
from .rules.visibility import hides_vault as rules_hides_vault
from .steps import Table

__all__ = ["PlayersPanel", "TrickLine", "StepLog", "Position", "hides_vault"]

WIDE = 100  # from this width on, crystals are drawn


HIDDEN = "?"  # what stands for a number the player whose view it is cannot know


#: What the crystals stand for, under the players when they are drawn (R3).
LEGEND = "◆ = 5 points, ♦ = 1 point"


def crystals(points: int) -> str:
    """R3: a renderer may draw points as 5s and 1s."""
    return "◆" * (points // 5) + "♦" * (points % 5)


def hides_vault(table: Table, as_player: Viewer, side: int) -> bool:
    """Is `side`'s Vault (and so its score) secret from `as_player`? The rules say which seats may see it
    (R2: its own side's), the viewer's sight whether `as_player` is one of them (a watcher is none), as the
    picture asks."""
    config = table.config
    members = [seat for seat in range(len(config.players)) if not rules_hides_vault(config.side_of[seat], side, False)]
    return not sees(as_player, members, bool(table.results))


@dataclass(frozen=True, slots=True)
class PlayersPanel(SeatsPanel):
    """Every player: Showroom, Vault and score (per side), tricks, cards taken, hand."""

    compact: bool = False  # narrower gaps between columns, when the hands would not fit otherwise

    def compact_grid(self, wide: bool) -> bool:
        return self.compact

    def caption(self, wide: bool) -> str | None:
        return LEGEND if wide else None  # crystals are drawn only when wide

    def fill(self, grid: RichTable, wide: bool) -> None:
        table: Table = self.table
        config = table.config
        if config.partnership:  # a team number, not the long side name: the hands keep their room at 80 columns
            grid.add_column("Team", justify="center", no_wrap=True)
        grid.add_column("Showroom" if wide else "Show", justify="right", no_wrap=True)
        grid.add_column("Vault", justify="right", no_wrap=True)
        grid.add_column("Score", justify="right", no_wrap=True)
        grid.add_column("Tr", justify="right", no_wrap=True)
        grid.add_column("Taken ♦♥♠♣", no_wrap=True)
        grid.add_column("Hand", overflow="fold")
        shown_sides: set[int] = set()
        # Each suit's count as wide as its widest (a 10 or more), so that the columns stay in line.
        digits = [max(len(str(counts[suit])) for counts in table.taken) for suit in range(4)]
        for seat, name in enumerate(config.players):
            side = config.side_of[seat]
            marks = ("D" if seat == table.dealer else "") + ("T" if seat == table.thief else "")
            mark_cell, who = seat_cells(marks, name, seat == self.highlight)
            if side in shown_sides:
                showroom = vault = score = Text("〃", style="dim")
                taken = Text("〃", style="dim")
            else:
                shown_sides.add(side)
                showroom = Text(f"{table.showroom[side]}")
                vault = Text(f"{table.vault[side]}")
                if wide:
                    showroom = Text(f"{crystals(table.showroom[side])} {table.showroom[side]}")
                    vault = Text(f"{crystals(table.vault[side])} {table.vault[side]}")
                score = Text(str(table.score(side)), style="bold")
                if hides_vault(table, self.as_player, side):
                    vault = score = Text(HIDDEN, style="dim")
                taken = Text(" ".join(f"{n:>{width}}" for n, width in zip(table.taken[side], digits, strict=True)))
            hand_cell = self.hand_cell(seat, table.hands[seat], shown=bool(table.results))
            team = [Text(str(side + 1), style="dim")] if config.partnership else []
            grid.add_row(mark_cell, who, *team, showroom, vault, score, str(table.tricks_won[seat]),
                         taken, hand_cell)


@dataclass(frozen=True, slots=True)
class TrickLine:
    """The trick on the table, its led suit marked, its winner once complete."""

    table: Table

    def __rich__(self) -> Text:
        table = self.table
        names = table.config.players
        if not table.trick:
            # After the deal and passes: who leads trick 1 (R7), as Kirk's and the bidding game's views say.
            dealt = any(table.hands) and not table.results
            lead = f" {names[first_leader(table.config, table.dealer)]} leads." if dealt else ""
            return Text("No cards on the table." + lead, style="dim")
        led = table.trick[0][1].suit
        text = Text(f"Trick {table.trick_no}, led ")
        text.append(f"{led.symbol} {led.title}", style=SUIT_STYLE[led])
        text.append(": ")
        append_plays(text, ((names[seat], card_text(card), "" if card.suit is led else " (off)") for seat, card in table.trick))
        if table.trick_winner is not None:
            text.append(f"  → {names[table.trick_winner]} wins", style="bold")  # and so leads next (R10)
        else:  # whose turn it is (R8): the next seat of the trick
            seat = trick_seats(table.config, table.trick[0][0], len(table.trick) + 1)[-1]
            text.append(f" · {names[seat]} to play", style="dim")
        return text


@dataclass(frozen=True, slots=True)
class StepLog(EventLog):
    """What the step did, in words; at most `limit` lines, the last ones."""

    def lines(self) -> list[str]:
        return self.__rich__().plain.split("\n")

    def _line(self, event: Event) -> str:
        config = self.step.table.config
        names = config.players
        seat = self.as_player
        if isinstance(event, PassesDelivered):
            # R6, passed at once: a receiver told a pass before the pick-up (a game told as it is played,
            # `diamonds play`) learns its cards here; everyone's view and a watcher's pick up nothing
            if not isinstance(seat, int) or any(isinstance(e, CardsPassed) and e.receiver == seat
                                                for e in self.step.events):
                return ""
            got = [(giver, cards) for giver, receiver, cards in self.step.table.passes if receiver == seat]
            return "; ".join(f"{names[seat]} picks up {format_cards(cards)} from {names[giver]}" for giver, cards in got)
        if isinstance(event, CardsDealt):
            return ""
        if isinstance(event, CardsPassed) and (not sees(seat, (event.giver, event.receiver)) or (
                seat == event.receiver and not any(isinstance(e, PassesDelivered) for e in self.step.events))):
            return f"{names[event.giver]} passes {len(event.cards)} card{'s' if len(event.cards) > 1 else ''} " \
                   f"to {names[event.receiver]}"
        return describe(config, event)


@dataclass(frozen=True, slots=True)
class Position(StepScreen):
    """The whole screen for one step: title, players, trick, log, and a status line."""

    def heading(self) -> tuple[str, int]:
        table = self.step.table
        return f"Round {table.round_no}/{table.config.rounds}", table.config.tricks_per_round

    def add_to_title(self, title: Text) -> None:
        table = self.step.table
        names = table.config.players
        if table.pass_count:
            title.append(f" · pass {table.pass_count}")
        if table.thief is not None:
            title.append(f" · Thief {names[table.thief]}", style="yellow")
        # The Supply is a heap on the table that anyone may count, as the picture shows it; that it
        # tells the Vaults' total (R3: 235 in all) is the physical game's leak too.
        title.append(f" · Supply {table.supply}", style="dim")

    def parts(self) -> tuple[PlayersPanel, TrickLine]:
        table = self.step.table
        return PlayersPanel(table, self.as_player, self.step.actor), TrickLine(table)

    def compact_parts(self) -> tuple[PlayersPanel, TrickLine]:
        """Six long hands: narrower gaps give them more room."""
        table = self.step.table
        return PlayersPanel(table, self.as_player, self.step.actor, compact=True), TrickLine(table)

    def log(self, limit: int) -> StepLog:
        return StepLog(self.step, limit, self.as_player)
