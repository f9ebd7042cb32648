"""The payment state machine, every pair of states (DESIGN.md 4: forward only)."""

import itertools

import pytest

from portal.core import payment_states as s

# Every allowed move, written out by hand (not derived from the module's table).
ALLOWED = {
    ("created", "pending"), ("created", "processing"), ("created", "succeeded"),
    ("created", "failed"), ("created", "expired"),
    ("pending", "processing"), ("pending", "succeeded"), ("pending", "failed"),
    ("pending", "expired"),
    ("processing", "succeeded"), ("processing", "failed"),
    ("succeeded", "partially_refunded"), ("succeeded", "refunded"),
    ("partially_refunded", "refunded"),
}
PAIRS = [(a, b) for a, b in itertools.product(s.STATES, s.STATES) if a != b]


def test_the_eight_states():
    assert set(s.STATES) == {"created", "pending", "processing", "succeeded", "failed",
                             "expired", "partially_refunded", "refunded"}


@pytest.mark.parametrize(("current", "target"), sorted(ALLOWED))
def test_allowed_transition(current, target):
    assert s.can_move(current, target)
    assert s.advance(current, target) is True


@pytest.mark.parametrize(("current", "target"), sorted(set(PAIRS) - ALLOWED))
def test_refused_transition(current, target):
    assert not s.can_move(current, target)
    with pytest.raises(s.TransitionRefused) as err:
        s.advance(current, target)
    assert err.value.current == current and err.value.target == target


@pytest.mark.parametrize("state", s.STATES)
def test_staying_put_is_a_no_op(state):
    """A replayed event asks for the state the payment is already in: nothing to do."""
    assert s.advance(state, state) is False


def test_nothing_moves_backwards():
    order = {st: i for i, st in enumerate(s.STATES)}
    rank = {"created": 0, "pending": 1, "processing": 2, "succeeded": 3, "failed": 3,
            "expired": 3, "partially_refunded": 4, "refunded": 5}
    for current, target in ALLOWED:
        assert rank[target] > rank[current], (current, target)
    assert len(order) == 8


def test_final_states_and_applied_states():
    assert s.FINAL == {"failed", "expired", "refunded"}
    assert s.APPLIED == {"processing", "succeeded", "partially_refunded"}
    assert s.OPEN == {"created", "pending"}


@pytest.mark.parametrize("bad", ["", "paid", "SUCCEEDED", None])
def test_unknown_state_is_an_error(bad):
    with pytest.raises(ValueError):
        s.advance("created", bad)
    with pytest.raises(ValueError):
        s.can_move(bad, "created")
