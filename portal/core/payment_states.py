"""The payment state machine (DESIGN.md 4): states move forward only.

    created ─→ pending ─→ processing ─→ succeeded ─→ partially_refunded ─→ refunded
       │          │            │            └──────────────────────────────↗
       │          │            └─→ failed
       │          ├─→ failed, expired, succeeded
       └─→ failed, expired, processing, succeeded

- created: our record exists, before the payer leaves for the checkout.
- pending: the checkout session exists; the payer is on the provider's page.
- processing: the payer completed the checkout with a bank debit (ACH) not yet settled; the
  payment counts as received on that day (R-A6) and is applied, shown as "processing".
- succeeded: the money arrived (card at once, ACH when it settles, cash or check at the office).
- failed: the charge or the bank debit failed; anything applied is reversed.
- expired: the checkout session expired unpaid.
- partially_refunded / refunded: part or all of a succeeded payment was given back.

A transition not in `ALLOWED` raises `TransitionRefused`; asking for the state the payment is
already in is a no-op (`advance` returns False), so a replayed event changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

CREATED = "created"
PENDING = "pending"
PROCESSING = "processing"
SUCCEEDED = "succeeded"
FAILED = "failed"
EXPIRED = "expired"
PARTIALLY_REFUNDED = "partially_refunded"
REFUNDED = "refunded"

STATES: tuple[str, ...] = (CREATED, PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED,
                           PARTIALLY_REFUNDED, REFUNDED)

ALLOWED: Mapping[str, frozenset[str]] = {
    CREATED: frozenset({PENDING, PROCESSING, SUCCEEDED, FAILED, EXPIRED}),
    PENDING: frozenset({PROCESSING, SUCCEEDED, FAILED, EXPIRED}),
    PROCESSING: frozenset({SUCCEEDED, FAILED}),
    SUCCEEDED: frozenset({PARTIALLY_REFUNDED, REFUNDED}),
    PARTIALLY_REFUNDED: frozenset({REFUNDED}),
    FAILED: frozenset(),
    EXPIRED: frozenset(),
    REFUNDED: frozenset(),
}

#: States whose amount counts as paid in the account's facts (R-A6: a bank payment counts as
#: received when the payer completes it, so "processing" counts until it fails).
APPLIED = frozenset({PROCESSING, SUCCEEDED, PARTIALLY_REFUNDED})
#: States in which the payer may still be sent to (or come back from) the checkout.
OPEN = frozenset({CREATED, PENDING})
#: States nothing can leave.
FINAL = frozenset(s for s, nxt in ALLOWED.items() if not nxt)


class TransitionRefused(ValueError):
    """A transition that would move a payment backwards or sideways."""

    def __init__(self, current: str, target: str):
        super().__init__(f"payment cannot go from {current} to {target}")
        self.current = current
        self.target = target


def can_move(current: str, target: str) -> bool:
    _check(current)
    _check(target)
    return target in ALLOWED[current]


def advance(current: str, target: str) -> bool:
    """Whether the payment must change state: True to move, False when already there.

    Raises `TransitionRefused` for any move not allowed. Partial refunds may repeat
    (a second partial refund leaves the state `partially_refunded`): that is not a move.
    """
    _check(current)
    _check(target)
    if current == target:
        return False
    if target not in ALLOWED[current]:
        raise TransitionRefused(current, target)
    return True


def _check(state: str) -> None:
    if state not in ALLOWED:
        raise ValueError(f"unknown payment state: {state!r}")
