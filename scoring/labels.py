"""How a seat and a side are named on every page and sheet: N, E, S, W in every language (as
the rules engine's messages name them), a pair as «N–S»."""

from __future__ import annotations


def seat_label(seat: str) -> str:
    """The seat's letter: N, E, S, W in every language, as the rules engine's messages name it."""
    return seat


def side_label(side: str) -> str:
    if len(side) == 2:
        return f"{seat_label(side[0])}–{seat_label(side[1])}"
    return seat_label(side)


__all__ = ["seat_label", "side_label"]
