"""Fitzgerald's events in words: what a replay's log and a simulated game print.

Only presentation lives here: names, suits and areas come from the config;
the facts come from the engine's events.
"""

from __future__ import annotations

from collections.abc import Sequence

from diamonds.core import SUITS, Card, format_cards, sort_cards
from diamonds.views.ask import Ask, NotAnAnswer, answer_words, grouped, one_of, pick

from .rules import GameConfig, events
from .rules.moves import ChoosePassCount, ChooseVictim, Move, PassCards, PlayCard

__all__ = ["describe", "area_name", "ask"]


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


def ask(config: GameConfig, moves: Sequence[Move]) -> Ask:
    """One seat's legal moves as `diamonds play` asks for them: a Clubs victim by name (R14), the pass
    count (R6), the cards passed by their names (R6), or a card to play, listed by suit (R8)."""
    first = moves[0]
    if isinstance(first, ChooseVictim):
        return _ask_victim(config, moves)
    if isinstance(first, ChoosePassCount):
        counts = {str(move.count): move for move in moves if isinstance(move, ChoosePassCount)}
        return Ask(f"You deal: how many cards does everyone pass (R6)? {one_of(list(counts))}",
                   (one_of(list(counts)),), lambda text: pick(" ".join(answer_words(text, "pass")), counts))
    if isinstance(first, PassCards):
        return _ask_pass(config, moves)
    cards = {str(move.card): move for move in moves if isinstance(move, PlayCard)}
    # a legal play is of the deck, which holds no Joker (R5): the filter only narrows the type
    lines = grouped((card.suit.title, str(card)) for card in sort_cards(m.card for m in cards.values())
                    if isinstance(card, Card))
    return Ask("Your card?", lines, lambda text: pick(text, cards))


def _ask_victim(config: GameConfig, moves: Sequence[Move]) -> Ask:
    """R14: the side a Clubs action takes a Showroom point from, named by a player (any of a team's)."""
    named = {config.players[move.victim]: move for move in moves
             if isinstance(move, ChooseVictim) and move.victim is not None}
    options = dict(named)
    if ChooseVictim(None) in moves:
        options["nobody"] = options["-"] = ChooseVictim(None)
    words = list(named) + (["nobody"] if "nobody" in options else [])
    return Ask(f"Your Clubs action (R14): whose Showroom do you take a point from? Name them: {one_of(words)}",
               (one_of(words),), lambda text: pick(" ".join(answer_words(text)), options))


def _ask_pass(config: GameConfig, moves: Sequence[Move]) -> Ask:
    """R6: the cards passed, named in any order (`6D 8D 6H`)."""
    passes = [move for move in moves if isinstance(move, PassCards)]
    count, seat = len(passes[0].cards), passes[0].seat
    by_set = {frozenset(str(card).upper() for card in move.cards): move for move in passes}
    held = sort_cards({card for move in passes for card in move.cards})
    target = config.players[config.pass_target(seat)]

    def answer(text: str) -> Move:
        words = answer_words(text, "pass")
        found = by_set.get(frozenset(word.upper() for word in words)) if len(words) == count else None
        if found is None:
            raise NotAnAnswer(text, [f"{count} of your cards, such as {' '.join(str(c) for c in held[:count])}"])
        return found

    plural = "s" if count > 1 else ""
    return Ask(f"Pass {count} card{plural} to {target} (R6): name them", grouped(
        (card.suit.title, str(card)) for card in held if isinstance(card, Card)), answer)
