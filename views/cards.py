"""What every family's view draws alike: cards in colour (one look for a suit wherever it is shown), the log."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from diamonds.core import AnyCard, Card, Suit

__all__ = ["SUIT_STYLE", "JOKER_STYLE", "card_text", "cards_text", "CardText", "log_text", "append_plays"]

SUIT_STYLE = {Suit.DIAMONDS: "bold cyan", Suit.HEARTS: "bold red", Suit.SPADES: "bold blue", Suit.CLUBS: "bold green"}
JOKER_STYLE = "bold magenta"


def card_text(card: AnyCard, suffix: str = "") -> Text:
    """A card in its suit's colour (the Joker in its own), with `suffix` (e.g. a sign) after it."""
    style = SUIT_STYLE[card.suit] if isinstance(card, Card) else JOKER_STYLE
    return Text(str(card) + suffix, style=style)


def cards_text(cards: Iterable[AnyCard]) -> Text:
    return Text(" ").join(card_text(c) for c in cards)


def append_plays(text: Text, plays: Iterable[tuple[str, Text, str]]) -> Text:
    """`text`, then `Ann 5H · Bob 7H …`: for each play its player's name, its card as drawn and a note after
    it, dim (none where empty)."""
    for index, (name, card, note) in enumerate(plays):
        if index:
            text.append(" · ")
        text.append(f"{name} ")
        text.append_text(card)
        if note:
            text.append(note, style="dim")
    return text


class CardText:
    """A card in its suit's colour."""

    def __init__(self, card: AnyCard) -> None:
        self.card = card

    def __rich__(self) -> Text:
        return card_text(self.card)


def log_text(lines: list[str], limit: int) -> Text:
    """A step's sentences, at most `limit` lines: the last ones, under a count of those left out."""
    lines = [line for line in lines if line]
    if len(lines) > limit:
        keep = max(1, limit - 1)
        lines = [f"… {len(lines) - keep} more above"] + lines[-keep:]
    return Text("\n".join(lines) if lines else "Before the first deal.")
