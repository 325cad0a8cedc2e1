"""The fast reader: games in the plain line-per-item layout, read without a parser.

Most games are written one item per line with no comments (that is how the
writer and every program that records games write them). For those, cutting
each line at spaces and looking every card up in a table gives the very record
the Lark parser would, many times faster. Whatever this reader does not
recognise exactly (a comment, a tab, an item split over lines, any token out
of place) makes it give up on the whole game, and the Lark parser, which is
the definition of the notation, reads it instead and reports any error.

The token shapes come from the grammar's own terminals, so the two readers
cannot disagree about what a card, an id or a number looks like; the test
suite checks that both give equal records with equal positions.
"""

from __future__ import annotations

import re
from typing import Sequence

from diamonds_core.cards import Card, _CARD_BY_TEXT

from .records import (
    Choice, EndLine, GameRecord, HandLine, Play, Plays, Pos, Round, RoundHeader, Tag, Trick,
)

__all__ = ["FastReader", "MAX_DIGITS"]

MAX_DIGITS = 6  # round, trick and pass numbers longer than this are left to the parser to refuse

_TOKEN = re.compile(r"\S+")
_new_pos = tuple.__new__  # Pos(line, column) without the named tuple's keyword handling
_ANNOTATION = re.compile(r"(!!|\?\?|!\?|\?!|!|\?)\Z")


class FastReader:
    """Built once from the grammar's terminals; `read` returns a record or None (use the parser)."""

    def __init__(self, terminals: dict[str, str]) -> None:
        def full(name: str) -> re.Pattern[str]:
            return re.compile(f"(?:{terminals[name]})\\Z")

        self.round = full("ROUND")
        self.trick = full("TRICK")
        self.count = full("COUNT")
        self.player = full("PLAYER")
        self.choice = full("CHOICE")
        self.play = full("PLAY")
        ws = "[ \\t\\f\\r]*"
        self.tag = re.compile(
            f"{ws}\\[{ws}({terminals['TAG_NAME']}){ws}({terminals['TAG_VALUE']}){ws}\\]{ws}\\Z"
        )
        # Every spelling of a plain card (no choice, no annotation), checked against PLAY,
        # and the usual trick numbers, checked against TRICK: table lookups instead of regexes.
        self.cards: dict[str, Card] = {
            text: card for text, card in _CARD_BY_TEXT.items() if self.play.match(text)
        }
        self.trick_numbers: dict[str, int] = {
            f"{n}.": n for n in range(1000) if self.trick.match(f"{n}.")
        }

    def read(self, lines: Sequence[str], first_line: int, index: int, text: str) -> GameRecord | None:
        tags: list[Tag] = []
        rounds: list[Round] = []
        header: RoundHeader | None = None
        hand_lines: list[HandLine] = []
        tricks: list[Trick] = []
        end: EndLine | None = None
        stage = 0  # within a round: 1 hand lines, 2 tricks, 3 end
        cards_of = self.cards
        trick_numbers = self.trick_numbers
        from_line = Plays.from_line
        line_no = first_line - 1
        for raw in lines:
            line_no += 1
            line = raw.rstrip("\n")
            if not line.isprintable():  # tabs, other white space, control characters: the parser's job
                if line.strip(" "):
                    return None
                continue
            tokens = line.split()
            if not tokens:
                continue
            head = tokens[0]
            if "{" in line or ";" in line or "}" in line:
                return None
            first = head[0]
            if first == "[":
                if header is not None:
                    return None
                tag = self._tag(line, line_no)
                if tag is None:
                    return None
                tags.append(tag)
            elif head == "deal" or head == "pass":
                if header is None or stage > 1 or len(tokens) < 2 or not self.player.match(tokens[1]):
                    return None
                try:
                    plays = from_line(tuple([cards_of[t] for t in tokens[2:]]), line, line_no, 2)
                except KeyError:
                    plays = self._plays(tokens, 2, line, line_no)
                    if plays is None:
                        return None
                column = line.index(head) + 1
                player_column = line.index(tokens[1], column - 1 + len(head)) + 1
                hand_lines.append(HandLine(head, tokens[1], plays, (), _new_pos(Pos, (line_no, column)),
                                           _new_pos(Pos, (line_no, player_column))))
                stage = 1
            elif first.isdigit():
                if header is None or stage > 2:
                    return None
                number = trick_numbers.get(head)
                if number is None:
                    if not self.trick.match(head) or len(head) > MAX_DIGITS + 1:
                        return None
                    number = int(head[:-1])
                try:
                    plays = from_line(tuple([cards_of[t] for t in tokens[1:]]), line, line_no, 1)
                except KeyError:
                    plays = self._plays(tokens, 1, line, line_no)
                    if plays is None:
                        return None
                column = 1 if first == line[0] else line.index(head) + 1
                tricks.append(Trick(number, plays, (), _new_pos(Pos, (line_no, column))))
                stage = 2
            elif head == "end":
                if header is None or stage > 2:
                    return None
                end = self._end(line, line_no, tokens)
                if end is None:
                    return None
                stage = 3
            elif first == "R":
                new = self._header(line, line_no, tokens)
                if new is None:
                    return None
                if header is not None:
                    rounds.append(Round(header, tuple(hand_lines), tuple(tricks), end))
                header, hand_lines, tricks, end, stage = new, [], [], None, 0
            else:
                return None
        if header is not None:
            rounds.append(Round(header, tuple(hand_lines), tuple(tricks), end))
        return GameRecord(tuple(tags), tuple(rounds), (), source=text, first_line=first_line, index=index)

    # ---------------------------------------------------------------- items

    def _tag(self, line: str, line_no: int) -> Tag | None:
        match = self.tag.match(line)
        if match is None:
            return None
        value = match.group(2)[1:-1]
        if "\\" in value:
            value = re.sub(r"\\([\"\\])", r"\1", value)
        return Tag(match.group(1), value, Pos(line_no, match.start(1)), Pos(line_no, match.start(2) + 1))

    def _header(self, line: str, line_no: int, tokens: list[str]) -> RoundHeader | None:
        if (len(tokens) != 5 or tokens[1] != "dealer" or tokens[3] != "pass" or not self.round.match(tokens[0])
                or not self.player.match(tokens[2]) or not self.count.match(tokens[4])
                or len(tokens[0]) > MAX_DIGITS + 1 or len(tokens[4]) > MAX_DIGITS):
            return None
        spans = [m.start() + 1 for m in _TOKEN.finditer(line)]
        return RoundHeader(int(tokens[0][1:]), tokens[2], int(tokens[4]), pos=Pos(line_no, spans[0]),
                           dealer_pos=Pos(line_no, spans[2]), count_pos=Pos(line_no, spans[4]))

    def _end(self, line: str, line_no: int, tokens: list[str]) -> EndLine | None:
        matches = list(_TOKEN.finditer(line))
        choices = []
        for match in matches[1:]:
            if not self.choice.match(match.group()):
                return None
            choices.append(Choice(match.group()[1:], Pos(line_no, match.start() + 1)))
        return EndLine(tuple(choices), pos=Pos(line_no, matches[0].start() + 1))

    def _plays(self, tokens: list[str], skip: int, line: str, line_no: int) -> Plays | None:
        cards_of = self.cards
        try:
            return Plays.from_line(tuple([cards_of[t] for t in tokens[skip:]]), line, line_no, skip)
        except KeyError:
            pass
        # A card with a choice or an annotation (or not a card at all): place every token exactly.
        plays = []
        for match in list(_TOKEN.finditer(line))[skip:]:
            text = match.group()
            if not self.play.match(text):
                return None
            size = 3 if text[1].isdigit() else 2
            rest = text[size:]
            annotation = None
            found = _ANNOTATION.search(rest)
            if found:
                annotation = found.group(1)
                rest = rest[: found.start()]
            column = match.start() + 1
            choice = Choice(rest[1:], Pos(line_no, column + size)) if rest else None
            plays.append(Play(cards_of[text[:size]], choice, annotation, pos=Pos(line_no, column),
                              length=len(text)))
        return Plays(plays)
