"""`collector_paused`: a batch's conversion runs without Python's cycle collector, which is put back as it was."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from diamonds.io.parallel import collector_paused


@pytest.fixture
def collector_restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def test_the_collector_is_off_in_the_batch_and_on_again_after(collector_restored: None) -> None:
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_in_the_batch_still_puts_the_collector_back(collector_restored: None) -> None:
    gc.enable()
    with pytest.raises(KeyError), collector_paused():
        raise KeyError("a batch that failed")
    assert gc.isenabled()


def test_a_collector_the_caller_turned_off_stays_off(collector_restored: None) -> None:
    gc.disable()
    with collector_paused():
        with collector_paused():  # nested: the inner one leaves it to the outer
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert not gc.isenabled()
