"""What every picture of a table shares: the canvas, seats around the table, cards, crystals, perspective.

Pictures are built as `xml.etree` elements (so every text and attribute is
escaped in one place) and written out once. What stays the same from stop to
stop (a hand, a text, a card on the table) is drawn and written once and shared
by every picture that shows it (`shared`): a page draws thousands of pictures. Coordinates are in a fixed
600-unit-wide `viewBox`; `size` only sets the width the picture asks for.
No fonts, images or scripts are referred to: a picture stands alone.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from diamonds.core import AnyCard, Card, Suit
from diamonds.core.viewer import Viewer, sees

__all__ = [
    "WIDTH", "HEIGHT", "Sight", "Canvas", "Box", "Picture", "seat_boxes", "add", "text", "card", "card_back",
    "card_row", "crystals", "marker", "number", "card_label", "suit_colour", "hand", "Play", "trick", "toward", "game_over",
    "stop_title", "shared", "text_width",
]

WIDTH = 600  # the viewBox's width: everything is laid out for it
HEIGHT = 640  # the viewBox's height
HEADER = 56  # the band at the top: what the stop is, and a second line of the family's
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"  # only names of fonts a system may have: nothing is loaded

FELT, FELT_EDGE, PLATE, PLATE_EDGE, INK, FAINT = "#2f6b3f", "#1d4a2a", "#fbf8ef", "#8c7b55", "#1b1b1b", "#6b6b6b"
GOLD, RED, BLACK, BACK = "#d4a017", "#c0262d", "#1b1b1b", "#7a1f2b"
CARD_W, CARD_H, CARD_PITCH = 19, 27, 16.5  # a card in a hand (they overlap)
TRICK_W, TRICK_H = 40, 56  # a card on the table


def number(value: float) -> str:
    """A coordinate as short text: at most one decimal, no trailing zeros."""
    if type(value) is int:
        return str(value)
    text = _NUMBERS.get(value)
    if text is None:
        text = f"{value:.1f}".rstrip("0").rstrip(".")
        text = _NUMBERS[value] = "0" if text == "-0" else text
        if len(_NUMBERS) > 50_000:  # (a picture's coordinates are a few hundred; keep it small all the same)
            _NUMBERS.clear()
    return text


_NUMBERS: dict[float, str] = {}  # each coordinate's text, once: pictures repeat the same few


_KEYS: dict[str, str] = {}  # an argument's name -> the attribute's (`class_` -> `class`, `font_size` -> `font-size`)


def add(parent: ET.Element, tag: str, /, **attributes: Any) -> ET.Element:
    """A child element; `class_` stands for `class`, `_` in names for `-`, numbers are written short."""
    clean: dict[str, str] = {}
    for name, value in attributes.items():
        if value is None:
            continue
        key = _KEYS.get(name)
        if key is None:
            key = _KEYS[name] = "class" if name == "class_" else name.replace("_", "-")
        kind = type(value)  # (the exact types first: a picture's million attributes are these three)
        if kind is str:
            clean[key] = value
        elif kind is int or kind is float:
            clean[key] = number(value)
        else:
            clean[key] = number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)
    return ET.SubElement(parent, tag, clean)


def text(parent: ET.Element, x: float, y: float, content: str, *, size: float = 12, anchor: str = "start",
         weight: str | None = None, fill: str = INK, class_: str | None = None) -> None:
    """A real `<text>` element: what a screen reader and a search find (a piece shared by every picture that
    has it: `shared`)."""
    shared(parent, _add_text, x, y, content, size, anchor, weight, fill, class_)


def _add_text(parent: ET.Element, x: float, y: float, content: str, size: float, anchor: str, weight: str | None,
              fill: str, class_: str | None) -> None:
    element = add(parent, "text", x=x, y=y, font_size=size, text_anchor=anchor if anchor != "start" else None,
                  font_weight=weight, fill=fill, class_=class_)
    element.text = content


def suit_colour(suit: Suit | None) -> str:
    return RED if suit in (Suit.DIAMONDS, Suit.HEARTS) else BLACK


def card_label(card: AnyCard) -> tuple[str, str]:
    """What a card's corner shows: its rank (a number or J Q K A) and its suit symbol; the Joker is "Jo", "★"."""
    if not isinstance(card, Card):
        return "Jo", "★"
    rank = str(card)[:-1]
    return rank, card.suit.symbol


def card(parent: ET.Element, x: float, y: float, shown: AnyCard, *, width: float = CARD_W, height: float = CARD_H,
         highlight: bool = False, note: str | None = None) -> ET.Element:
    """A card face up: its rank and suit as text, red or black; `data-card` holds its DGN name.

    Drawn at (0, 0) and moved into place (`transform`): a card looks the same wherever it lies, so a page's
    pictures share its pieces when a hand closes up after a card is played (page.py's `pack_pictures`)."""
    group = add(parent, "g", class_="card winner" if highlight else "card", data_card=str(shown),
                transform=f"translate({number(x)},{number(y)})" if x or y else None)
    colour = suit_colour(shown.suit) if isinstance(shown, Card) else "#6a3d9a"
    add(group, "rect", width=width, height=height, rx=3, fill="#ffffff",
        stroke=GOLD if highlight else "#555555", stroke_width=3 if highlight else 0.8)
    rank, symbol = card_label(shown)
    big = width >= TRICK_W
    text(group, 5 if big else 2.5, 16 if big else 10.5, rank, size=15 if big else 9.5, weight="bold", fill=colour)
    text(group, width / 2, height - (10 if big else 4), symbol, size=22 if big else 12, anchor="middle", fill=colour)
    if note:
        text(group, width / 2, height + 11, note, size=10, anchor="middle", fill="#ffffff", class_="player")
    return group


def card_back(parent: ET.Element, x: float, y: float, *, width: float = CARD_W, height: float = CARD_H) -> None:
    """A card face down: its back, with nothing of its face in the file (drawn at (0, 0) and moved, as `card`;
    a shared piece: `shared`)."""
    shared(parent, _add_card_back, x, y, width, height)


def _add_card_back(parent: ET.Element, x: float, y: float, width: float, height: float) -> None:
    group = add(parent, "g", class_="card back", transform=f"translate({number(x)},{number(y)})" if x or y else None)
    add(group, "rect", width=width, height=height, rx=3, fill=BACK, stroke="#ffffff", stroke_width=0.8)
    add(group, "rect", x=2.5, y=2.5, width=width - 5, height=height - 5, rx=2, fill="none",
        stroke="#e8c9a0", stroke_width=0.6)


def card_row(parent: ET.Element, x: float, y: float, cards: Sequence[AnyCard | None], *, per_row: int = 10,
             pitch: float = CARD_PITCH) -> float:
    """Cards overlapping left to right, wrapping after `per_row`; None is a card face down. Returns the height.

    Each card lies inside the one before it, moved one place on (a `g.next`): when a card leaves a hand, the
    cards after it close up by themselves, and a page's next picture differs from this one by that card alone
    (page.py's `pack_pictures`)."""
    holder = parent
    for index, shown in enumerate(cards):
        if index == 0:
            dx, dy = x, y
        elif index % per_row == 0:
            dx, dy = -(per_row - 1) * pitch, CARD_H + 3
        else:
            dx, dy = pitch, 0
        holder = add(holder, "g", class_="next", transform=f"translate({number(round(dx, 1))},{number(dy)})")
        if shown is None:
            card_back(holder, 0, 0)
        else:
            card(holder, 0, 0, shown)
    rows = max(1, math.ceil(len(cards) / per_row))
    return rows * (CARD_H + 3)


def crystals(parent: ET.Element, x: float, y: float, points: int, *, per_row: int = 12, scale: float = 1.0) -> float:
    """R3: points drawn as crystals, a big one per 5 and a small one per 1. Returns the width used."""
    shared(parent, _add_crystals, x, y, points, per_row, scale)
    fives, ones = divmod(max(points, 0), 5)
    return min(fives + ones, per_row) * 11 * scale


def _add_crystals(parent: ET.Element, x: float, y: float, points: int, per_row: int, scale: float) -> None:
    group = add(parent, "g", class_="crystals", data_points=points)
    fives, ones = divmod(max(points, 0), 5)
    step = 11 * scale
    cx = x
    for index in range(fives + ones):
        five = index < fives
        row, column = divmod(index, per_row)
        cx = x + column * step
        cy = y + row * 13 * scale
        half_w, half_h = (4.5 if five else 3) * scale, (6 if five else 4) * scale
        centre_y = cy - (0 if five else 1.5 * scale)
        points_text = " ".join(
            f"{number(px)},{number(py)}" for px, py in (
                (cx, centre_y - half_h), (cx + half_w, centre_y), (cx, centre_y + half_h), (cx - half_w, centre_y)))
        add(group, "polygon", points=points_text, class_="crystal five" if five else "crystal one",
            fill="#3a8fd6" if five else "#9fd3ff", stroke="#0d3c66", stroke_width=0.7)


def marker(parent: ET.Element, x: float, y: float, letter: str, what: str, *, fill: str = GOLD) -> None:
    """A round token with a letter (D for the dealer, T for the Thief) and its meaning as a tooltip (a shared
    piece: `shared`)."""
    shared(parent, _add_marker, x, y, letter, what, fill)


def _add_marker(parent: ET.Element, x: float, y: float, letter: str, what: str, fill: str) -> None:
    group = add(parent, "g", class_="marker", data_marker=what)
    title = add(group, "title")
    title.text = what
    add(group, "circle", cx=x, cy=y, r=8, fill=fill, stroke=INK, stroke_width=0.8)
    text(group, x, y + 4, letter, size=11, anchor="middle", weight="bold")


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle of the picture: a seat's plate."""

    x: float
    y: float
    width: float
    height: float

    @property
    def centre(self) -> tuple[float, float]:
        return self.x + self.width / 2, self.y + self.height / 2


TABLE_CX, TABLE_CY = WIDTH / 2, HEADER + (HEIGHT - HEADER) / 2


def seat_angle(seat: int, bottom: int, n: int) -> float:
    """R1: seats go clockwise round the table, the viewer at the bottom and their left neighbour next."""
    return math.radians(90 + ((seat - bottom) % n) * 360 / n)


def seat_boxes(n: int, bottom: int, width: float, height: float) -> tuple[Box, ...]:
    """Each seat's plate, on an ellipse round the table, kept inside the picture."""
    boxes = []
    rx, ry = (WIDTH - width) / 2 - 4, (HEIGHT - HEADER - height) / 2 - 4
    for seat in range(n):
        angle = seat_angle(seat, bottom, n)
        cx, cy = TABLE_CX + rx * math.cos(angle), TABLE_CY + ry * math.sin(angle)
        boxes.append(Box(round(cx - width / 2, 1), round(cy - height / 2, 1), width, height))
    return tuple(boxes)


def toward(seat: int, bottom: int, n: int, distance: float) -> tuple[float, float]:
    """A point `distance` from the table's centre toward a seat: where its card in the trick lies."""
    angle = seat_angle(seat, bottom, n)
    return TABLE_CX + distance * math.cos(angle), TABLE_CY + distance * 0.9 * math.sin(angle)


@dataclass(frozen=True, slots=True)
class Sight:
    """Who looks at the table: everyone (`as_player` None), one player, or the page (both versions, CSS picks).

    At the game's end nothing is private (`over`).
    """

    as_player: Viewer = None  # None: everyone; a seat; `NOBODY`: a watcher (diamonds.core.viewer)
    for_page: bool = False
    over: bool = False

    def sees(self, seats: Iterable[int]) -> bool:
        """Whether this viewer may see what only `seats` may see (the page's file holds both versions)."""
        return sees(self.as_player, seats, self.over)

    def private(self, parent: ET.Element, seats: Iterable[int], show: Callable[[ET.Element], None],
                conceal: Callable[[ET.Element], None]) -> None:
        """Draw what only `seats` may see: with `for_page` both versions, each in its group; else the one due.

        `data-seat` lists the seats that may see it (one seat, or a team's seats separated by spaces)."""
        seats = tuple(seats)
        if self.over:
            show(parent)
        elif self.for_page:
            who = " ".join(str(seat) for seat in seats)
            show(add(parent, "g", class_="private", data_seat=who))
            conceal(add(parent, "g", class_="concealed", data_seat=who))
        elif self.sees(seats):
            show(parent)
        else:
            conceal(parent)

    @property
    def bottom(self) -> int:
        """The seat drawn at the bottom: the viewer's, else the first."""
        return self.as_player if isinstance(self.as_player, int) and not self.for_page else 0


class Canvas:
    """One picture being drawn: the root `<svg>` with its title, the felt, and the header band."""

    def __init__(self, title: str, description: str, *, size: int = WIDTH, for_page: bool = False,
                 view: tuple[float, float] = (WIDTH, HEIGHT), felt: bool = True) -> None:
        """`view`: the viewBox's width and height (a family's picture: 600 by 640, with the round felt);
        another layout (the phone's picture, `diamonds.svg.phone`) names its own and draws its own felt."""
        self.for_page = for_page  # a page's picture: the page says where it is (its label), not the picture
        width, height = view
        self.root = ET.Element("svg", {
            "xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {number(width)} {number(height)}",
            "width": str(size), "height": number(size * height / width), "role": "img",
            "font-family": FONT, "class": "diamonds-table",
        })
        ET.SubElement(self.root, "title").text = title
        if description:  # (a page's picture has none: the page's narration says it, and it is smaller so)
            ET.SubElement(self.root, "desc").text = description
        add(self.root, "rect", x=0, y=0, width=width, height=height, fill="#f3efe3")
        if felt:
            add(self.root, "ellipse", cx=TABLE_CX, cy=TABLE_CY, rx=WIDTH / 2 - 70, ry=(HEIGHT - HEADER) / 2 - 60,
                fill=FELT, stroke=FELT_EDGE, stroke_width=6, class_="felt")

    def position_header(self, round_text: str, trick: tuple[int, int] | None, dealer: str, game: str, label: str,
                        *extra: str) -> ET.Element:
        """The header of a position, the same for every family: the round (`Hand 3/6`), the trick while
        cards are played (number and tricks per round), who deals, what the family adds; on the right
        the game and the position's label."""
        parts = [round_text]
        if trick is not None:
            parts.append(f"trick {trick[0]}/{trick[1]}")
        parts.append(f"{dealer} deals")
        return self.header(" · ".join([*parts, *extra]), game if self.for_page else f"{game} · {label}")

    def header(self, left: str, right: str = "") -> ET.Element:
        group = add(self.root, "g", class_="header")
        add(group, "rect", x=0, y=0, width=WIDTH, height=HEADER - 6, fill="#e6dfc8")
        text(group, 10, 20, left, size=15, weight="bold")
        if right:
            text(group, WIDTH - 10, 20, right, size=12, anchor="end", fill=FAINT)
        return group

    def plate(self, box: Box, seat: int, name: str, *, highlight: bool = False) -> ET.Element:
        """A seat's plate: a card-table name plate, its player's name in bold; the group holds the seat's things."""
        group = add(self.root, "g", class_="seat", data_seat=seat)
        add(group, "rect", x=box.x, y=box.y, width=box.width, height=box.height, rx=8, fill=PLATE,
            stroke=GOLD if highlight else PLATE_EDGE, stroke_width=3 if highlight else 1.2)
        text(group, box.x + 8, box.y + 18, name, size=14, weight="bold", class_="name")
        return group

    def layer(self, class_: str) -> ET.Element:
        return add(self.root, "g", class_=class_)

    def tostring(self) -> str:
        out: list[str] = []
        _write(self.root, out.append)
        return "".join(out)


_ATTRIBUTE_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;",
                                    "\n": "&#10;", "\t": "&#09;"})
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def _write(element: ET.Element, write: Callable[[str], object]) -> None:
    """`element` as `ET.tostring(element, encoding="unicode")` writes it, character for character.

    A page draws thousands of pictures, and ElementTree's writer (which handles namespaces, comments and
    processing instructions that pictures never hold) was a third of the drawing; tests compare the two.
    A shared piece (`shared`) is written as it was written once."""
    known = _WRITTEN.get(id(element))
    if known is not None and known[0] is element:
        write(known[1])
        return
    tag = element.tag
    items = element.items()
    attributes = "".join([f' {key}="{_escaped(value, _ATTRIBUTE_ESCAPES, _ATTRIBUTES)}"' for key, value in items]) \
        if items else ""
    if element.text or len(element):
        write(f"<{tag}{attributes}>")
        if element.text:
            write(_escaped(element.text, _TEXT_ESCAPES, _TEXTS))
        for child in element:
            _write(child, write)
        write(f"</{tag}>")
    else:
        write(f"<{tag}{attributes} />")
    if element.tail:
        write(_escaped(element.tail, _TEXT_ESCAPES, _TEXTS))


_ATTRIBUTES: dict[str, str] = {}  # each attribute value escaped, once: a picture repeats the same few
_TEXTS: dict[str, str] = {}  # each text escaped, once


def _escaped(value: str, escapes: dict[int, str], known: dict[str, str]) -> str:
    found = known.get(value)
    if found is None:
        if len(known) > 50_000:
            known.clear()
        found = known[value] = value.translate(escapes)
    return found


#: Pieces drawn once and shared by every picture that shows them (`shared`), by what decides them; and each
#: one's written text by the piece's id (with the piece: an id is another object's only once this one is gone).
_PIECES: dict[object, ET.Element] = {}
_WRITTEN: dict[int, tuple[ET.Element, str]] = {}
PIECES_KEPT = 4000  # then the older half is forgotten (a page's games come one after another)


def shared(parent: ET.Element, draw: Callable[..., None], *args: Hashable) -> None:
    """Put into `parent` the one element `draw(holder, *args)` draws, drawn and written once for every picture
    it is in.

    A replay page draws thousands of tables that differ by a card: a seat, a hand, the crystals of a score and a
    card on the table are the same from stop to stop, so each is drawn once for its arguments and the same
    element goes into every picture (xml.etree allows it; `_write` writes it as it was written once). So `draw`
    must be pure: what it draws follows from `args` alone (equal arguments, the same drawing; hence a seat is
    given its numbers, names and cards, not the table), and nothing may change the element once drawn."""
    key = (draw, args)
    piece = _PIECES.get(key)
    if piece is None:
        holder = ET.Element("g")
        draw(holder, *args)
        (piece,) = holder
        text: list[str] = []
        _write(piece, text.append)
        if len(_PIECES) >= PIECES_KEPT:
            for old in list(_PIECES)[:len(_PIECES) - PIECES_KEPT // 2]:  # one copy of the keys (a server's threads)
                forgotten = _PIECES.pop(old, None)
                if forgotten is not None:
                    _WRITTEN.pop(id(forgotten), None)
        _PIECES[key] = piece
        _WRITTEN[id(piece)] = (piece, "".join(text))
    parent.append(piece)


def hand(sight: Sight, parent: ET.Element, seat: int, cards: Sequence[AnyCard], x: float, y: float, *,
         per_row: int = 10, width: float = 168) -> float:
    """A seat's hand: face up to its player (and to everyone when no one is named), else its backs only.

    Returns the height used; the cards overlap so that `per_row` fit in `width`."""
    pitch = min(CARD_PITCH, (width - CARD_W) / max(per_row - 1, 1))
    cards = tuple(cards)
    sight.private(parent, (seat,),
                  lambda group: shared(group, _add_hand, x, y, cards, per_row, pitch),
                  lambda group: shared(group, _add_backs, x, y, len(cards), per_row, pitch))
    return max(1, math.ceil(len(cards) / per_row)) * (CARD_H + 3)


def _add_hand(parent: ET.Element, x: float, y: float, cards: Sequence[AnyCard | None], per_row: int,
              pitch: float) -> None:
    group = add(parent, "g", class_="hand", data_count=len(cards))
    if not cards:
        text(group, x, y + 16, "no cards", size=10, fill=FAINT)
        return
    card_row(group, x, y, cards, per_row=per_row, pitch=pitch)


def _add_backs(parent: ET.Element, x: float, y: float, count: int, per_row: int, pitch: float) -> None:
    """A hand as its player's neighbours see it: its backs (one piece for every hand of that many cards)."""
    _add_hand(parent, x, y, [None] * count, per_row, pitch)


def game_over(winners: Sequence[str], score: int) -> str:
    """The line a finished game's picture shows: who won (several share a tie), with what."""
    who = " and ".join(winners)
    return f"Game over · {who} win{'s' if len(winners) == 1 else ''} with {score}"


@dataclass(frozen=True, slots=True)
class Play:
    """One card on the table: who played it, and a word about it (an ace played high, a Joker's suit)."""

    seat: int
    card: AnyCard
    note: str = ""


def trick(canvas: Canvas, plays: Sequence[Play], winner: int | None, names: Sequence[str], sight: Sight,
          caption: str, result: Sequence[str] = ()) -> ET.Element:
    """The trick on the table: each card in front of its player with their name, the winner's card ringed.

    `caption` (what the trick is) and the `result` lines (who won, and why) are written in the middle, where
    no card or name lies (`_label_place`): a card never covers them, at any number of players."""
    group = canvas.layer("trick")
    n = len(names)
    # Two plays by one seat (Fitzgerald's two-player tricks) lie side by side.
    seen: dict[int, int] = {}
    obstacles: list[tuple[float, float, float, float]] = []  # x0, y0, x1, y1 of each card and its name line
    cards = []
    for index, play in enumerate(plays):
        repeat = seen.get(play.seat, 0)
        seen[play.seat] = repeat + 1
        x, y = toward(play.seat, sight.bottom, n, 72 if n <= 4 else 82)
        x += repeat * (TRICK_W + 6) - (TRICK_W + 6) / 2 * (1 if _plays_of(plays, play.seat) > 1 else 0)
        label = names[play.seat] + (f" · {play.note}" if play.note else "")
        left, top = x - TRICK_W / 2, y - TRICK_H / 2 - 6
        half = max(TRICK_W, text_width(label, 10)) / 2
        obstacles.append((min(left, x - half), top, max(left + TRICK_W, x + half), top + TRICK_H + 14))
        cards.append((index, play, left, top, label))
    lines = [(caption, 12.0, "normal"), *((line, 12.0 if i == 0 else 9.0, "bold" if i == 0 else "normal")
                                          for i, line in enumerate(result))]
    placed = _label_place(lines, obstacles)
    for text_line, (size, weight, cy, class_) in placed:
        text(group, TABLE_CX, cy, text_line, size=size, anchor="middle", fill="#ffffff" if class_ == "caption" else "#ffe9a8",
             weight="bold" if weight == "bold" else None, class_=class_)
    for index, play, left, top, label in cards:
        highlight = play.seat == winner
        shared(group, _trick_card, left, top, play, highlight, label, index)
    return group


def _trick_card(parent: ET.Element, left: float, top: float, play: Play, highlight: bool, label: str,
                index: int) -> None:
    element = card(parent, left, top, play.card, width=TRICK_W, height=TRICK_H, highlight=highlight, note=label)
    element.set("data-seat", str(play.seat))
    element.set("data-order", str(index + 1))


def text_width(content: str, size: float, weight: str = "normal") -> float:
    """A generous guess of a line's width in DejaVu Sans (the widest of the fonts the pictures name)."""
    return len(content) * size * (0.68 if weight == "bold" else 0.62)


def _wrap(content: str, size: float, weight: str, width: float) -> list[str] | None:
    """`content` cut at spaces into lines no wider than `width`, or None where a word alone is wider."""
    lines: list[str] = []
    for word in content.split(" "):
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and text_width(joined, size, weight) <= width:
            lines[-1] = joined
        elif text_width(word, size, weight) <= width:
            lines.append(word)
        else:
            return None
    return lines


#: How far the centre label may move up or down to find room between the cards, and by what steps.
LABEL_REACH, LABEL_STEP = 120, 3  # (the label keeps within the cards' height, or ±REACH/2 of the centre)


def _label_place(lines: Sequence[tuple[str, float, str]],
                 obstacles: Sequence[tuple[float, float, float, float]]) -> list[tuple[str, tuple[float, str, float, str]]]:
    """Where each line of the centre label goes: the band nearest the table's centre, wrapped (and, if it must,
    in smaller type) to the room the cards and their names leave there. Returns (text, (size, weight,
    baseline y, class)) per written line. Worked out once for each label and each set of cards (a page's
    stops repeat them: the search below tries hundreds of bands)."""
    key = (tuple(lines), tuple(obstacles))
    placed = _PLACES.get(key)
    if placed is None:
        if len(_PLACES) > 20_000:
            _PLACES.clear()
        placed = _PLACES[key] = tuple(_find_label_place(lines, obstacles))
    return list(placed)


_PLACES: dict[object, tuple[tuple[str, tuple[float, str, float, str]], ...]] = {}
#: The bands tried, nearest the centre first: 0, +3, -3, +6, -6 …
_OFFSETS = tuple((step + 1) // 2 * LABEL_STEP * (1 if step % 2 else -1)
                 for step in range(2 * LABEL_REACH // LABEL_STEP + 1))


def _find_label_place(lines: Sequence[tuple[str, float, str]],
                      obstacles: Sequence[tuple[float, float, float, float]]) -> list[tuple[str, tuple[float, str, float, str]]]:
    felt: float = WIDTH - 160  # the felt's width, less a margin
    # The label stays among the cards (above the highest or below the lowest, it might meet a seat's plate).
    high = min([TABLE_CY - LABEL_REACH / 2, *(y0 for _, y0, _, _ in obstacles)])
    low = max([TABLE_CY + LABEL_REACH / 2, *(y1 for _, _, _, y1 in obstacles)])

    def inside(top: float, height: float) -> bool:
        return top >= high and top + height <= low

    def widest(wrapped: Sequence[tuple[str, float, str, str]]) -> float:
        return max(text_width(piece, size, weight) for piece, size, weight, _ in wrapped)

    for shrink in (1.0, 0.85, 0.7):  # each line whole, where there is room for it, in smaller type if it must
        whole = [(content, round(size * shrink, 1), weight, "caption" if index == 0 else "result")
                 for index, (content, size, weight) in enumerate(lines)]
        height, needed = _height_of(whole), widest(whole)
        for offset in _OFFSETS:
            top = TABLE_CY - 4 - height / 2 + offset
            room = _room(top, top + height, obstacles, felt) if inside(top, height) else 0
            if needed <= room:
                return _baselines(whole, top)
    cut: dict[tuple[float, float], tuple[list[tuple[str, float, str, str]] | None, float, float]] = {}
    for shrink in (1.0, 0.85, 0.7):  # else cut at spaces to the room there is
        for offset in _OFFSETS:
            width: float = felt
            for _ in range(4):  # narrower lines make a taller band, which may leave less room: again
                if (shrink, width) not in cut:  # (the same for every band: cut once)
                    wrapped = _wrapped(lines, shrink, width)
                    cut[shrink, width] = (wrapped, _height_of(wrapped), widest(wrapped)) if wrapped else (None, 0, 0)
                wrapped, height, needed = cut[shrink, width]
                if not wrapped:
                    break
                top = TABLE_CY - 4 - height / 2 + offset
                room = _room(top, top + height, obstacles, felt) if inside(top, height) else 0
                if needed <= room:
                    return _baselines(wrapped, top)
                if room <= 0:
                    break
                width = room
    return _baselines(whole, TABLE_CY - 4 - _height_of(whole) / 2)


def _wrapped(lines: Sequence[tuple[str, float, str]], shrink: float, width: float) -> list[tuple[str, float, str, str]] | None:
    out: list[tuple[str, float, str, str]] = []
    for index, (content, size, weight) in enumerate(lines):
        cut = _wrap(content, size * shrink, weight, width)
        if cut is None:
            return None
        out += [(piece, round(size * shrink, 1), weight, "caption" if index == 0 else "result") for piece in cut]
    return out


def _height_of(wrapped: Sequence[tuple[str, float, str, str]]) -> float:
    return sum(size * 1.35 for _, size, _, _ in wrapped)


def _room(top: float, bottom: float, obstacles: Sequence[tuple[float, float, float, float]], felt: float) -> float:
    """The width free around the table's centre line between `top` and `bottom`; 0 where a card crosses it."""
    half = felt / 2
    for x0, y0, x1, y1 in obstacles:
        if y1 <= top or y0 >= bottom:
            continue
        if x0 < TABLE_CX < x1:
            return 0
        half = min(half, TABLE_CX - x1 if x1 <= TABLE_CX else x0 - TABLE_CX)
    return 2 * (half - 3)


def _baselines(wrapped: Sequence[tuple[str, float, str, str]], top: float) -> list[tuple[str, tuple[float, str, float, str]]]:
    out = []
    y = top
    for content, size, weight, class_ in wrapped:
        y += size * 1.35
        out.append((content, (size, weight, round(y - size * 0.35, 1), class_)))
    return out


def _plays_of(plays: Sequence[Play], seat: int) -> int:
    return sum(1 for play in plays if play.seat == seat)


def stop_title(step: Any, where: str, trick: str, over: bool, **after_kind: str) -> str:
    """`R2.7 (hand 2, trick 7 of 13)`: the stop's label, and where it is: `where` (the round), with
    `trick` added at a card and `after_kind[kind]` at a stop of another kind (`end=", scored"`);
    before the first deal and once the game is over, those words instead."""
    if over:
        where = "game over"
    elif step.kind == "start":
        where = "before the first deal"
    elif step.kind == "card":
        where += trick
    else:
        where += after_kind.get(step.kind, "")
    return f"{step.label} ({where})"


@dataclass(frozen=True, slots=True)
class Picture:
    """A family's picture: `draw` fills a canvas with the table at a stop, as a viewer may see it.

    `over` says whether a table is the game's end (then nothing is private);
    `title` names the stop for the picture's `<title>`.
    """

    draw: Callable[[Canvas, Any, Any, Sight], None]  # (canvas, step, table, sight)
    over: Callable[[Any], bool]
    title: Callable[[Any, Any], str]  # (step, table)

    def svg(self, step: Any, as_player: int | None = None, *, size: int = WIDTH, for_page: bool = False) -> str:
        """The SVG text of the table at `step`, as `as_player` may see it (everyone's view when None)."""
        table = step.table
        sight = Sight(as_player, for_page, self.over(table))
        players = table.config.players
        viewer = f", as {players[as_player]} sees it" if as_player is not None and not for_page else ""
        title = self.title(step, table)
        description = f"A table of Diamonds ({table.config.rules}) with {', '.join(players)}: {title}{viewer}."
        if for_page:  # the page names the position beside the picture (and as its label: page.js): every stop's
            # picture says the same here, which keeps a page small (only what changes travels, page.py)
            canvas = Canvas(f"Diamonds {table.config.rules}", "", size=size, for_page=True)
        else:
            canvas = Canvas(f"Diamonds {table.config.rules}: {title}{viewer}", description, size=size)
        self.draw(canvas, step, table, sight)
        return canvas.tostring()
