"""Root exception of the pipeline package; the CLI turns these into clear messages."""

from __future__ import annotations


class LeaklineError(Exception):
    """An error the user can act on. ``hint`` says what to do instead."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class BrokerError(LeaklineError):
    pass


class StoreError(LeaklineError):
    pass
