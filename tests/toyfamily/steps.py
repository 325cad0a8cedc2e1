"""The toy replay stops (the table folded from the events, cut by the generic `cut_steps`), the picture of a
table at a stop (from diamonds.svg.draw), and its view: events in words, a plain screen (rich text)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text

from diamonds.core import Card, Standing, format_cards, sort_cards
from diamonds.replay.steps import Step, cut_steps, marks_of
from diamonds.svg.draw import Canvas, Picture, Play, Sight, game_over, hand, marker, seat_boxes, text, trick
from diamonds.views import View
from diamonds.views.cards import cards_text

from .rules import CardPlayed, CardsDealt, GameEnded, RoundScored, RoundStarted, ToyConfig, TrickWon


@dataclass(frozen=True, slots=True)
class Table:
    config: ToyConfig
    round_no: int
    dealer: int
    trick_no: int
    trick: tuple[tuple[int, Card], ...]
    trick_winner: int | None
    hands: tuple[tuple[Card, ...], ...]
    won: tuple[int, ...]
    totals: tuple[int, ...]
    standings: tuple[Standing, ...] = ()


class _Fold:
    def __init__(self, config: ToyConfig) -> None:
        self.config = config
        self.round_no, self.dealer, self.trick_no = 1, config.first_dealer, 0
        self.trick: list[tuple[int, Card]] = []
        self.trick_winner: int | None = None
        self.hands: list[set[Card]] = [set(), set()]
        self.won, self.totals = [0, 0], [0, 0]
        self.standings: tuple[Standing, ...] = ()

    def apply(self, event: Any) -> None:
        if isinstance(event, RoundStarted):
            self.round_no, self.dealer, self.trick_no, self.trick, self.trick_winner = event.round_no, event.dealer, 0, [], None
            self.won = [0, 0]
        elif isinstance(event, CardsDealt):
            self.hands = [set(hand) for hand in event.hands]
        elif isinstance(event, CardPlayed):
            if event.leads:
                self.trick, self.trick_winner, self.trick_no = [], None, event.trick_no
            self.hands[event.seat].discard(event.card)
            self.trick.append((event.seat, event.card))
        elif isinstance(event, TrickWon):
            self.trick_winner = event.winner
            self.won[event.winner] += 1
        elif isinstance(event, RoundScored):
            self.totals = list(event.totals)
        elif isinstance(event, GameEnded):
            self.standings = event.standings

    def freeze(self) -> Table:
        return Table(self.config, self.round_no, self.dealer, self.trick_no, tuple(self.trick), self.trick_winner,
                     tuple(sort_cards(hand) for hand in self.hands), tuple(self.won), tuple(self.totals),
                     self.standings)


MARKS = marks_of(RoundStarted, CardPlayed, RoundScored)


def build_steps(replayed: Any) -> list[Step]:
    return cut_steps(replayed.game.events, _Fold(replayed.config), MARKS)


def _title(step: Any, table: Table) -> str:
    return f"{step.label} (round {table.round_no} of {table.config.rounds})"


def _draw(canvas: Canvas, step: Any, table: Table, sight: Sight) -> None:
    names = table.config.players
    canvas.header(f"Round {table.round_no}/{table.config.rounds} · {names[table.dealer]} deals", f"toy · {step.label}")
    for seat, box in enumerate(seat_boxes(2, sight.bottom, 184, 96)):
        plate = canvas.plate(box, seat, names[seat], highlight=seat == step.actor)
        if seat == table.dealer:
            marker(plate, box.x + box.width - 14, box.y + 13, "D", "dealer")
        y = box.y + 26 + hand(sight, plate, seat, table.hands[seat], box.x + 8, box.y + 26)
        text(plate, box.x + 8, y + 14, f"Tricks {table.won[seat]} · total {table.totals[seat]}", size=11,
             class_="total")
    if table.standings:
        best = [s for s in table.standings if s.winner]
        caption = game_over([names[s.side] for s in best], best[0].score)
    else:
        caption = f"Trick {table.trick_no}" if table.trick else "No cards on the table"
    result = [f"{names[table.trick_winner]} wins"] if table.trick_winner is not None and table.trick else []
    trick(canvas, [Play(seat, card) for seat, card in table.trick], table.trick_winner, names, sight, caption, result)


PICTURE = Picture(draw=_draw, over=lambda table: bool(table.standings), title=_title)


def describe(config: Any, event: Any) -> str:
    names = config.players
    if isinstance(event, RoundStarted):
        return f"Round {event.round_no}: {names[event.dealer]} deals"
    if isinstance(event, CardsDealt):
        return "; ".join(f"{names[s]} holds {format_cards(hand)}" for s, hand in enumerate(event.hands))
    if isinstance(event, CardPlayed):
        return f"{names[event.seat]} {'leads' if event.leads else 'plays'} {event.card}"
    if isinstance(event, TrickWon):
        return f"{names[event.winner]} wins trick {event.trick_no} with {event.card} (T5)"
    if isinstance(event, RoundScored):
        return "Round scored: " + ", ".join(f"{n} {p} (total {t})" for n, p, t in zip(names, event.points, event.totals))
    if isinstance(event, GameEnded):
        return "Game over: " + ", ".join(f"{names[s.side]} {s.score}{' wins' if s.winner else ''}"
                                         for s in event.standings)
    return str(event)


def _step_lines(step: Any, as_player: int | None) -> list[str]:
    config = step.table.config
    return [describe(config, event) for event in step.events
            if as_player is None or not isinstance(event, CardsDealt)]


def _screen(step: Any, index: int, total: int, as_player: int | None, footer: str) -> Text:
    table = step.table
    names = table.config.players
    out = Text(f"{step.label} ({index + 1}/{total}) · round {table.round_no}\n")
    for seat, name in enumerate(names):
        out.append(f"{name}: {table.won[seat]} tricks, total {table.totals[seat]} · ")
        out.append_text(cards_text(table.hands[seat]) if as_player in (None, seat) else Text("(hidden)"))
        out.append("\n")
    out.append("\n".join(_step_lines(step, as_player)) + ("\n" + footer if footer else ""))
    return out


VIEW = View(screen=_screen, step_lines=_step_lines, describe=describe)
