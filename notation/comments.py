"""Comments and the items they belong to: each comment goes to the item (or card in a trick) it follows.

Both readers use this: the Lark parser, which collects comments from its lexer, and the fast reader, which
finds them itself. So a comment lands on the same item whichever reader read the game.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import replace

from . import records

__all__ = ["attach_comments"]


def attach_comments(
    rounds: tuple[records.Round, ...], comments: Sequence[records.Comment]
) -> tuple[tuple[records.Round, ...], tuple[records.Comment, ...]]:
    """The rounds with each comment on the item it follows, and the comments before the first item."""
    leading: list[records.Comment] = []
    owned: dict[tuple[int, ...], list[records.Comment]] = {}
    heads = [rnd.header.pos for rnd in rounds]
    items: dict[int, tuple[list[records.Pos], list[tuple[int, ...]]]] = {}  # per round with a comment
    places: dict[tuple[int, int], list[records.Pos]] = {}  # the cards' places, per trick with a comment
    for comment in comments:  # each goes to the last item that starts before it
        r = bisect.bisect_left(heads, comment.pos) - 1
        if r < 0:
            leading.append(comment)
            continue
        if r not in items:
            items[r] = _items(rounds[r])
        starts, paths = items[r]
        path = paths[bisect.bisect_left(starts, comment.pos) - 1]
        if path[0] == 2:  # after a trick's number: after one of its cards, if any comes before the comment
            cards = places.get((r, path[1]))
            if cards is None:
                cards = places[r, path[1]] = [play.pos for play in rounds[r].tricks[path[1]].plays]
            card = bisect.bisect_left(cards, comment.pos) - 1
            if card >= 0:
                path = (2, path[1], card)
        owned.setdefault((r, *path), []).append(comment)
    if not owned:
        return rounds, tuple(leading)
    # Rebuild each touched round, line, trick and play once (linear in the game, however many comments).
    by_round: dict[int, dict[tuple[int, ...], tuple[records.Comment, ...]]] = {}
    for path, found in owned.items():
        by_round.setdefault(path[0], {})[path[1:]] = tuple(found)
    new_rounds = list(rounds)
    for r, marks in by_round.items():
        rnd = new_rounds[r]
        header = rnd.header
        if (0,) in marks:
            header = replace(header, comments=header.comments + marks[(0,)])
        lines = tuple(
            replace(line, comments=line.comments + marks[(1, h)]) if (1, h) in marks else line
            for h, line in enumerate(rnd.hand_lines)
        )
        tricks = []
        for t, trick in enumerate(rnd.tricks):
            if (2, t) in marks:
                trick = replace(trick, comments=trick.comments + marks[(2, t)])
            if any((2, t, p) in marks for p in range(len(trick.plays))):
                plays = tuple(
                    replace(play, comments=play.comments + marks[(2, t, p)]) if (2, t, p) in marks else play
                    for p, play in enumerate(trick.plays)
                )
                trick = replace(trick, plays=records.Plays(plays))
            tricks.append(trick)
        end = rnd.end
        if (3,) in marks and end is not None:
            end = replace(end, comments=end.comments + marks[(3,)])
        calls = tuple(
            replace(call, comments=call.comments + marks[(4, c)]) if (4, c) in marks else call
            for c, call in enumerate(rnd.calls)
        )
        new_rounds[r] = records.Round(header, lines, tuple(tricks), end, calls)
    return tuple(new_rounds), tuple(leading)


def _items(rnd: records.Round) -> tuple[list[records.Pos], list[tuple[int, ...]]]:
    """Where each item of a round starts, in order, and its path in the round; a trick's cards are
    looked up only for a trick that a comment follows (they are made lazily)."""
    found: list[tuple[records.Pos, tuple[int, ...]]] = [(rnd.header.pos, (0,))]
    found += [(line.pos, (1, h)) for h, line in enumerate(rnd.hand_lines)]
    found += [(trick.pos, (2, t)) for t, trick in enumerate(rnd.tricks)]
    if rnd.end is not None:
        found.append((rnd.end.pos, (3,)))
    found += [(call.pos, (4, c)) for c, call in enumerate(rnd.calls)]
    found.sort()
    return [pos for pos, _ in found], [path for _, path in found]
