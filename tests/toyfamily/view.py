"""The toy view: events in words, and a plain screen at a stop (rich text)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from diamonds.core import format_cards
from diamonds.views import View
from diamonds.views.cards import cards_text

from .rules import CardPlayed, CardsDealt, GameEnded, RoundScored, RoundStarted, TrickWon


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
