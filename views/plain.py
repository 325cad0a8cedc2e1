"""The house's terminal view of a plain trick game (diamonds.core.trick), for a family that names it as its
`view` part (`diamonds.views.plain:VIEW`): its events in words, citing the family's rulings, and a plain screen."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from diamonds.core import format_cards, rules_for
from diamonds.core.trick import CardPlayed, CardsDealt, GameEnded, RoundScored, RoundStarted, TrickWon, rulings_of
from diamonds.core.viewer import Viewer, sees

from . import View
from .cards import cards_text

__all__ = ["VIEW", "describe"]


def describe(config: Any, event: Any) -> str:
    names = config.players
    if isinstance(event, RoundStarted):
        return f"Round {event.round_no}: {names[event.dealer]} deals"
    if isinstance(event, CardsDealt):
        return "; ".join(f"{names[s]} holds {format_cards(hand)}" for s, hand in enumerate(event.hands))
    if isinstance(event, CardPlayed):
        return f"{names[event.seat]} {'leads' if event.leads else 'plays'} {event.card}"
    if isinstance(event, TrickWon):
        rule = rulings_of(rules_for(config.rules)).winner
        return f"{names[event.winner]} wins trick {event.trick_no} with {event.card}" + (f" ({rule})" if rule else "")
    if isinstance(event, RoundScored):
        return "Round scored: " + ", ".join(f"{n} {p} (total {t})" for n, p, t in zip(names, event.points, event.totals))
    if isinstance(event, GameEnded):
        return "Game over: " + ", ".join(f"{names[s.side]} {s.score}{' wins' if s.winner else ''}"
                                         for s in event.standings)
    return str(event)


def _step_lines(step: Any, as_player: Viewer) -> list[str]:
    config = step.table.config
    return [describe(config, event) for event in step.events
            if as_player is None or not isinstance(event, CardsDealt)]


def _screen(step: Any, index: int, total: int, as_player: Viewer, footer: str) -> Text:
    table = step.table
    out = Text(f"{step.label} ({index + 1}/{total}) · round {table.round_no}\n")
    for seat, name in enumerate(table.config.players):
        out.append(f"{name}: {table.won[seat]} tricks, total {table.totals[seat]} · ")
        out.append_text(cards_text(table.hands[seat]) if sees(as_player, (seat,)) else Text("(hidden)"))
        out.append("\n")
    out.append("\n".join(_step_lines(step, as_player)) + ("\n" + footer if footer else ""))
    return out


VIEW = View(screen=_screen, step_lines=_step_lines, describe=describe)
