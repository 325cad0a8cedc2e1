"""Fitzgerald's events in words: what a replay's log and a simulated game print.

Only presentation lives here: names, suits and areas come from the config;
the facts come from the engine's events.
"""

from __future__ import annotations

from diamonds.core import SUITS, format_cards

from .rules import GameConfig, events

__all__ = ["describe", "area_name"]


def area_name(config: GameConfig, area: events.Area) -> str:
    if area.kind is events.AreaKind.SUPPLY:
        return "Supply"
    assert area.side is not None
    return f"{config.side_name(area.side)}'s {area.kind.value.capitalize()}"


def describe(config: GameConfig, event: events.Event) -> str:
    """One event as a sentence a player would say at the table."""
    names = config.players
    match event:
        case events.RoundStarted(round_no, dealer, thief):
            thief_text = f"; the Thief is with {names[thief]}" if thief is not None else ""
            return f"Round {round_no}: {names[dealer]} deals{thief_text}"
        case events.CardsDealt():
            return "Cards are dealt"
        case events.PassCountChosen(dealer, count):
            return f"{names[dealer]} chooses to pass {count}"
        case events.CardsPassed(giver, receiver, cards):
            return f"{names[giver]} passes {format_cards(cards)} to {names[receiver]}"
        case events.PassesDelivered():
            return "The passed cards are picked up"
        case events.CardPlayed(seat, card, trick_no, led, leads, followed):
            if leads:
                return f"{names[seat]} leads {card}"
            if followed:
                return f"{names[seat]} plays {card}"
            return f"{names[seat]} cannot follow {led.title}, plays {card}"
        case events.SuitAction():
            return describe_action(config, event)
        case events.TrickWon(trick_no, winner, card, led, _):
            return f"{names[winner]} wins trick {trick_no} with {card}"
        case events.RoundEnded(round_no, _, _, majority):
            parts = []
            for suit, side in zip(SUITS, majority):
                holder = config.side_name(side) if side is not None else "tie"
                parts.append(f"{suit.title} {holder}")
            return f"Round {round_no} ends; most cards: " + ", ".join(parts)
        case events.GameEnded(results):
            standings = ", ".join(
                f"{config.side_name(r.side)} {r.score}{' (wins)' if r.winner else ''}" for r in results
            )
            return f"Game over: {standings}"
    raise TypeError(f"not an event: {event!r}")


def describe_action(config: GameConfig, action: events.SuitAction) -> str:
    who = config.players[action.actor] if action.actor is not None else config.side_name(action.side)
    why = {
        events.Reason.OFF_SUIT: "",
        events.Reason.TRICK_WON: " for the trick",
        events.Reason.SUIT_MAJORITY: " for the most " + action.suit.title,
        events.Reason.NO_TRICKS: " for taking no trick",
    }[action.reason]
    head = f"{who}: {action.suit.title} action{why}"
    if action.points:
        move = f"{action.points} point {area_name(config, action.source)} → {area_name(config, action.target)}"
    elif action.suit is SUITS[3] and action.source.side is None:
        move = "nobody to take from"
    elif action.thief_before is not None and action.thief_before == action.actor:
        move = f"{who} holds the Thief, so nothing is taken"
    else:
        move = f"nothing to take from {area_name(config, action.source)}"
    thief = ""
    if action.thief_before is not None and action.thief_after is not None:
        thief = f"; the Thief moves to {config.players[action.thief_after]}"
    return f"{head}, {move}{thief}"
