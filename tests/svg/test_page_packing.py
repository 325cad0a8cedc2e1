"""The page's pictures are packed as chunks and edits (`pack_pictures`); unpacked, every picture comes back
character for character, whatever the pictures share."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from diamonds.svg.page import pack_pictures, unpack_pictures, z85_decode, z85_encode

pieces = st.sampled_from(["<g><rect/></g>", "<rect x='1'/>", "<text>7D</text>", "<use href='#b'/>", "x",
                          '<g class="next"><text>9H</text></g>', "<g><g><g><rect/></g></g></g>"])  # well formed, as pictures are


@st.composite
def stops(draw) -> list[str]:
    """Pictures where each is the one before with a few pieces changed, as a game's stops are."""
    first = draw(st.lists(pieces, max_size=30))
    out = ["<svg>" + "".join(first) + "</svg>"]
    current = first
    for _ in range(draw(st.integers(0, 6))):
        edit = draw(st.lists(pieces, max_size=5))
        at = draw(st.integers(0, len(current)))
        drop = draw(st.integers(0, 3))
        current = current[:at] + edit + current[at + drop:]
        out.append("<svg>" + "".join(current) + "</svg>")
    return out


@given(stops())
def test_packed_pictures_unpack_to_the_very_pictures(svgs) -> None:
    assert unpack_pictures(pack_pictures(svgs)) == svgs


@given(stops())
def test_kept_runs_are_whole(svgs) -> None:
    for ops in pack_pictures(svgs)["edits"]:
        keeps = [i for i, op in enumerate(ops) if isinstance(op, int) and op > 0]
        assert all(b - a > 1 for a, b in zip(keeps, keeps[1:]))  # two kept runs in a row would be one


def test_an_unchanged_picture_is_one_kept_run() -> None:
    svg = "<svg><g><rect/></g><text>a</text></svg>"
    first, second = pack_pictures([svg, svg])["edits"]
    assert first == [[-1] * len(first[0])] and second == [len(first[0])]


def test_z85_is_zeromqs() -> None:
    # The test vector of ZeroMQ's Z85 specification (rfc.zeromq.org/spec/32): these 8 bytes are "HelloWorld".
    assert z85_encode(bytes([0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B])) == "HelloWorld"
    assert z85_decode("HelloWorld", 8) == bytes([0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B])


@given(st.binary(max_size=64))
def test_z85_comes_back(data) -> None:
    assert z85_decode(z85_encode(data), len(data)) == data
