"""A player's rating history as a small SVG line chart, drawn on the server (no script).

``rating_svg(points, title)`` takes the ratings after each match (display units) and returns the
SVG markup: a line, its band of ± one uncertainty, the first and last values and the range on the
axis. Every text is escaped; the chart scales to the width of its container.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

WIDTH, HEIGHT, PAD = 600, 200, 32


def rating_svg(ratings: Sequence[tuple[int, int]], title: str) -> SafeString:
    """``ratings``: (rating, uncertainty) after each match, in order; the start is the first."""
    if not ratings:
        return mark_safe("")
    highs = [r + u for r, u in ratings]
    lows = [r - u for r, u in ratings]
    top, bottom = max(highs), min(lows)
    span = max(top - bottom, 1)
    n = len(ratings)

    def x(i: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * (i / (n - 1) if n > 1 else 0.5)

    def y(value: float) -> float:
        return PAD / 2 + (HEIGHT - PAD) * (top - value) / span

    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, (r, _u) in enumerate(ratings))
    band = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(highs))
    band += " " + " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in reversed(list(enumerate(lows))))
    last = ratings[-1][0]
    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" preserveAspectRatio="none" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<polygon class="band" points="{band}" fill="#1f6feb22" stroke="none"/>',
        f'<polyline class="line" points="{line}" fill="none" stroke="#1f6feb" '
        f'stroke-width="2" vector-effect="non-scaling-stroke"/>',
        f'<text x="4" y="{PAD / 2 + 4:.0f}" font-size="12" fill="#555">{top}</text>',
        f'<text x="4" y="{HEIGHT - 4}" font-size="12" fill="#555">{bottom}</text>',
        f'<text x="{WIDTH - 4}" y="{y(last) - 6:.1f}" font-size="13" text-anchor="end" '
        f'fill="#1f6feb">{last}</text>',
        "</svg>",
    ]
    return mark_safe("".join(parts))  # noqa: S308 - every value above is a number or escaped
