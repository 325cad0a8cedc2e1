"""What a table looks like to the pages: the public state (watchers) and the scorer's state.

Public means what every player at the table may know: the picture is drawn by the family's own
picture with a sight that sees no private thing (no hand, no Fitzgerald Vault) until the game is
over, and a score is shown only if no seat's view hides it (`View.sight.hidden_scores`). The
scorer, who typed every item, sees the table as the replay draws it (`Position.svg()`), the
scores, and the grid of the game's cards. Computed once per version (the table's cache).
"""

from __future__ import annotations

from typing import Any

from diamonds.notation.records import split_play
from diamonds.svg.draw import Canvas, Sight

__all__ = ["table_state", "public_svg"]


class _Nobody(Sight):
    """The sight of a watcher: no seat's private things, until the game is over (then everything)."""

    __slots__ = ()

    def sees(self, seats: Any) -> bool:
        return self.over


def public_svg(step: Any, size: int = 360) -> str:
    """The family's picture of `step` as a watcher may see it (as `Picture.svg`, with `_Nobody`'s sight)."""
    from diamonds.svg import picture_of

    table = step.table
    picture = picture_of(table.config.rules)
    sight = _Nobody(None, False, picture.over(table))
    title = picture.title(step, table)
    players = table.config.players
    description = f"A table of Diamonds ({table.config.rules}) with {', '.join(players)}: {title}, as a watcher sees it."
    canvas = Canvas(f"Diamonds {table.config.rules}: {title}, as a watcher sees it", description, size=size)
    picture.draw(canvas, step, table, sight)
    return canvas.tostring()


def _card_of(word: str) -> str | None:
    for part in word.split():
        if part.startswith(("{", ";")):
            continue
        try:
            return str(split_play(part)[0])
        except ValueError:
            return None
    return None


def _standings(standings: Any, hidden: set[int], over: bool) -> list[dict[str, Any]]:
    """Each side's players and score (None where hidden); `winner` only once the game is over."""
    return [{"players": list(s.players), "score": None if s.side in hidden else s.score,
             "winner": bool(s.winner) if over else None} for s in standings]


def table_state(table: Any, private: bool) -> dict[str, Any]:
    """The state now (the caller holds the table's lock): `snapshot` then `render`."""
    return render(snapshot(table, private))


def snapshot(table: Any, private: bool) -> dict[str, Any]:
    """What the state needs from the recorder, taken under the table's lock (cheap: no replay)."""
    recorder = table.recorder
    over = recorder.finished
    config = recorder.config
    rounds = recorder.rounds
    draft = rounds[-1] if rounds and not over else None
    hands_known = recorder.hands_known()
    question = recorder.pending[2] if recorder.pending is not None else None
    return {
        "key": ("private" if private else "public", table.version), "private": private, "over": over,
        "text": recorder.text, "record": recorder._last.record, "config": config, "draft": draft,
        "hands_known": hands_known, "question": question, "tags": dict(recorder.tags),
        "legal": set(recorder.legal()) if private and hands_known and not over else set(),
        "where": recorder.where(), "items": _labels(recorder) if private else [],
        "id": table.id, "seq": table.seq, "version": table.version, "cache": table.cache,
    }


def render(snap: dict[str, Any]) -> dict[str, Any]:
    """The state from a snapshot (the replay and the picture: outside the table's lock), cached per version."""
    cached = snap["cache"].get(snap["key"])
    if cached is not None:
        return dict(cached)
    import diamonds
    from diamonds.replay import replay_record
    from diamonds.replay.steps import steps_of

    over, private, config, draft = snap["over"], snap["private"], snap["config"], snap["draft"]
    game = diamonds.Game.from_text(snap["text"])
    position = game.end()
    hidden: set[int] = set()
    if not over:
        for name in position.players:
            hidden |= set(position.view(name).sight.hidden_scores)
    per_trick = config.plays_per_trick
    trick: list[str] = []
    if draft is not None and draft.cards and len(draft.cards) % per_trick:
        trick = [c for c in (_card_of(w) for w in draft.cards[-(len(draft.cards) % per_trick):]) if c]
    state: dict[str, Any] = {
        "id": snap["id"],
        "seq": snap["seq"],
        "version": snap["version"],
        "rules": config.rules,
        "players": list(config.players),
        "event": snap["tags"].get("Event"),
        "where": snap["where"],
        "finished": over,
        "result": snap["tags"].get("Result") if over else None,
        "to_move": position.to_move if snap["hands_known"] else None,
        "trick": trick,
        "standings": _standings(position.standings, set() if private else hidden, over),
    }
    if private:
        played = {c for c in (_card_of(w) for w in (draft.cards if draft is not None else ())) if c}
        legal = snap["legal"]
        question = snap["question"]
        state.update({
            "svg": position.svg(size=360),
            "cards": [{"card": str(card), "played": str(card) in played, "legal": str(card) in legal}
                      for card in config.deck],
            "hands_known": snap["hands_known"],
            "question": None if question is None else {
                "item": question.item, "message": question.message, "code": question.code,
                "rule": question.rule, "choices": list(question.choices) or _guess_choices(question, config)},
            "items": snap["items"],
        })
    else:
        state["svg"] = public_svg(steps_of(replay_record(snap["record"]))[-1])
    cache = snap["cache"]
    if len(cache) > 8:
        cache.clear()
    cache[snap["key"]] = state
    return dict(state)


def _guess_choices(question: Any, config: Any) -> list[str]:
    """A Joker's suit or an ace's high or low (B-rulings): what the recorder's question may be answered with."""
    message = question.message.lower()
    if "joker" in message or "suit" in message:
        return ["D", "H", "S", "C"]
    if "ace" in message or "high" in message or "low" in message:
        return ["+", "-"]
    return []


def _labels(recorder: Any) -> list[dict[str, str]]:
    """The cards of the round being recorded with their labels (R1.3.2), for the correction form."""
    rounds = recorder.rounds
    if not rounds:
        return []
    number = len(rounds)
    per_trick = recorder.config.plays_per_trick
    return [{"label": f"R{number}.{i // per_trick + 1}.{i % per_trick + 1}", "text": word}
            for i, word in enumerate(rounds[-1].cards)]
