"""Pictures are written by the canvas's own writer, which must give exactly what ElementTree's writer gives."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from diamonds.notation import read_games
from diamonds.replay import replay_record
from diamonds.replay.steps import steps_of
from diamonds.svg import step_svg
from diamonds.svg.draw import Canvas, add, text

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.dgn"))
awkward = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)


@given(awkward, awkward, awkward)
def test_awkward_text_and_attributes_are_written_as_elementtree_writes_them(title, label, value) -> None:
    canvas = Canvas(title, label)
    group = add(canvas.root, "g", class_=value, data_card=label)
    text(group, 1.5, 2, value)
    group.tail = label
    assert canvas.tostring() == ET.tostring(canvas.root, encoding="unicode")


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_picture_is_written_as_elementtree_writes_it(path, monkeypatch) -> None:
    written: list[tuple[str, str]] = []
    real = Canvas.tostring

    def both(canvas: Canvas) -> str:
        written.append((real(canvas), ET.tostring(canvas.root, encoding="unicode")))
        return written[-1][0]

    monkeypatch.setattr(Canvas, "tostring", both)
    with path.open(encoding="utf-8") as lines:
        steps = steps_of(replay_record(next(read_games(lines))))
    for step in steps[:: max(1, len(steps) // 12)] + steps[-1:]:
        step_svg(step, as_player=0)
        step_svg(step, as_player=None, for_page=True)
    assert written and all(ours == theirs for ours, theirs in written)


def test_shared_pieces_forgotten_or_kept_draw_the_same_pictures(monkeypatch) -> None:
    """Pieces drawn once and shared (`draw.shared`) change no picture: drawn afresh every time (a cache of 4,
    forgetting all the time) or taken from the cache, every picture is the same text, ElementTree's."""
    from diamonds.svg import draw

    with SAMPLES[0].open(encoding="utf-8") as lines:
        steps = steps_of(replay_record(next(read_games(lines))))
    kept = [step_svg(step, as_player=None, for_page=True) for step in steps]
    again = [step_svg(step, as_player=None, for_page=True) for step in steps]  # every piece from the cache now
    monkeypatch.setattr(draw, "PIECES_KEPT", 4)
    monkeypatch.setattr(draw, "_PIECES", {})  # (the cache itself is what is tested here)
    monkeypatch.setattr(draw, "_WRITTEN", {})
    forgetting = [step_svg(step, as_player=None, for_page=True) for step in steps]
    assert kept == again == forgetting
    assert 0 < len(draw._PIECES) <= 4  # noqa: SLF001
