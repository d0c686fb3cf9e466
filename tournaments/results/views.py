"""Public results pages: standings, crosstable, a player's history, the hall screen, exports.

Need no login for public tournaments; a tournament the user may not see is a 404 (its existence
is not revealed), and so are a round without results and a table the tournament does not have.
The data comes from ``results.display``, ``results.crosstable`` and ``results.history`` (bounded
queries); these views only choose the template. ``?fragment=1`` answers the part of a page its
script re-fetches (live standings, the hall's slides), so a refresh keeps the reader's scroll
position.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from html import escape as escape_html
from typing import Any

from django.core.cache import cache
from django.db.models import Exists, OuterRef
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View

from tournaments import access, selectors
from tournaments.errors import TournamentError
from tournaments.models import (
    Category,
    Player,
    PlayerRating,
    Prize,
    RatingChange,
    Round,
    Stage,
    Tournament,
)
from tournaments.results import crosstable, display, exports, history, ledger, pdf_export, reread

#: the live standings page re-fetches its table this often (seconds)
REFRESH_SECONDS = 20
HALL_EVERY = 15
HALL_ROWS = 10


def visible_tournament(request: HttpRequest, pk: int) -> Tournament:
    """The tournament, with ``has_stages``, ``has_categories`` and ``has_prizes`` (the pages'
    tabs link its bracket, categories and prize list) in the same query."""
    mine = {"tournament": OuterRef("pk")}
    return get_object_or_404(access.visible_tournaments(request.user).annotate(
        has_stages=Exists(Stage.objects.filter(**mine)),
        has_categories=Exists(Category.objects.filter(**mine)),
        has_prizes=Exists(Prize.objects.filter(**mine))), pk=pk)  # fmt: skip


def int_param(request: HttpRequest, name: str, default: int, low: int, high: int) -> int:
    try:
        value = int(request.GET.get(name, default))
    except (TypeError, ValueError):
        value = default
    return max(low, min(high, value))


def since_param(request: HttpRequest) -> float | None:
    """``?since=`` of a page re-reading its table after a pushed change: a time, at most now
    (a later one would only make every reader compute a table of its own)."""
    try:
        value = float(request.GET.get("since", ""))
    except ValueError:
        return None
    if value != value or value <= 0:  # NaN or nothing
        return None
    return min(value, time.time())


def fragment_url(request: HttpRequest) -> str:
    query = request.GET.copy()
    query["fragment"] = "1"
    return f"{request.path}?{query.urlencode()}"


def player_url() -> Callable[[int], str]:
    """``tournaments:player`` for any id, reversed once (a thousand-row table would otherwise
    spend most of its rendering time in ``reverse``)."""
    marker = 987654321
    pattern = reverse("tournaments:player", args=[marker])
    head, tail = pattern.split(str(marker))
    return lambda pk: f"{head}{pk}{tail}"


def sanction_tag(match_points: int, points: int) -> str:
    """The mark of a line a sanction changed: what was taken off, in words (the figures in the
    row already count it; without the mark a reader cannot tell why they are lower)."""
    if match_points and points:
        text = _("sanction: −%(mp)s MP, −%(points)s points") % {"mp": match_points,
                                                               "points": points}  # fmt: skip
    elif match_points:
        text = _("sanction: −%(mp)s MP") % {"mp": match_points}
    else:
        text = _("sanction: −%(points)s points") % {"points": points}
    return f' <span class="tag sanction">{escape_html(text)}</span>'


def rows_html(res: display.Results) -> str:
    """The standings table's ``<tr>`` rows in one string, in one pass: built per row as dicts
    and then looped over by the template, a 1,000-pair event's live page spent 30 ms of its 150
    on them (issue 16). Every text is escaped (``html.escape``
    is Django's ``escape`` without its wrapping); a metric is shown as ``display.number`` gives it:
    whole numbers plainly, others with two decimals at most."""
    scope = res.table.scope
    url = player_url()
    separator = str(formats.get_format("DECIMAL_SEPARATOR"))
    keys = [column.key for column in res.columns]
    playing = (f' <span class="tag pending" title="{escape_html(_("tables still in play"))}">'
               f"{escape_html(_('playing'))}</span>")  # fmt: skip
    players_of = res.players
    out = []
    add = out.append
    for line in res.lines:
        row = line.row
        cells = []
        for key in keys:
            value = row.get(key, 0)
            if isinstance(value, float):
                if value.is_integer():
                    cells.append(f'<td class="num">{int(value)}</td>')
                else:
                    text = f"{round(value, 2):g}".replace(".", separator)
                    cells.append(f'<td class="num">{text}</td>')
            else:
                cells.append(f'<td class="num">{value if isinstance(value, int) else 0}</td>')
        name = escape_html(line.name)
        if scope == "players":
            head = f'<a href="{url(line.participant)}">{name}</a>'
            players = ", ".join(escape_html(n) for n in line.players)
        else:
            head = f"<strong>{name}</strong>"
            players = ", ".join(f'<a href="{url(pk)}">{escape_html(n)}</a>'
                                for pk, n in players_of.get(line.participant, []))  # fmt: skip
        club = escape_html(line.club) if line.club else ""
        meta = players + (" · " if players and club else "") + club
        block = '<div class="meta">' + meta + "</div>" if meta else ""
        tag = playing if line.pending else ""
        if row.get("deducted") or row.get("deducted_points"):
            tag += sanction_tag(row.get("deducted", 0), row.get("deducted_points", 0))
        add(f'<tr data-participant="{line.participant}" data-rank="{line.rank}">'
            f'<td>{line.rank}</td><td class="name">{head}{tag}{block}</td>'
            + "".join(cells) + "</tr>")  # fmt: skip
    return mark_safe("\n".join(out))  # noqa: S308 - every text above is escaped


def choices(tournament: Tournament) -> list[tuple[str, str]]:
    return [(s, display.scope_label(s, tournament)) for s in display.scopes_of(tournament)]


class TournamentPage(View):
    tournament: Tournament

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        self.tournament = visible_tournament(request, kwargs["pk"])
        try:
            # The collector is paused for the whole view, not only while the table is computed:
            # paused only there, it ran once the table was built, over every row still held
            # (10–20 ms of a 1,000-row page); paused until the view has returned, the rows are
            # freed first and there is nothing left for it to look at (see ``gc_paused``).
            with ledger.gc_paused():
                return super().dispatch(request, *args, **kwargs)
        except TournamentError as err:
            raise Http404(err.messages[0]) from err

    def base_context(self, res: display.Results) -> dict[str, Any]:
        table = res.table
        return {
            "tournament": self.tournament,
            "res": res,
            "table": table,
            "scope": table.scope,
            "scopes": choices(self.tournament),
            "round_number": table.round_number,
            "rounds": res.rounds,
            "chosen_round": self.request.GET.get("round", ""),
            "live": table.source == "live",
        }


#: the header a standings fragment's answer gives its version (``display.Results.as_of``): the
#: page keeps the newest of what it was pushed and what it read (``static/js/live.js``)
VERSION_HEADER = "X-Live-Version"


def standings_fragment(tournament: Tournament, round_number: Any = None, scope: Any = None,
                       max_age: int = 0, since: float | None = None,
                       ) -> tuple[display.Results, str]:  # fmt: skip
    """The standings table's html in the active language and its results. The same for every
    visitor (nothing in it depends on who asks), so it is rendered once per change of the
    results and language and cached beside the table; the push (``tournaments.live.content``)
    sends this very html."""
    res, key = display.cached_results_table(tournament, round_number, scope, max_age=max_age,
                                            since=since)  # fmt: skip
    html = cache.get(key + ":html")
    if html is None:
        html = render_to_string("tournaments/results/_standings_table.html", {
            "res": res, "table": res.table, "scope": res.table.scope, "columns": res.columns,
            "rows_html": rows_html(res)})  # fmt: skip
        cache.set(key + ":html", html, display.CACHE_SECONDS)
    return res, html


def pushed_standings(tournament: Tournament, since: float) -> tuple[str, float]:
    """What a push of ``standings`` carries to the public: the live page's own table (no
    ``?round=``, no ``?scope=``) read after ``since``, and its version."""
    res, html = standings_fragment(tournament, since=since)
    return html, res.as_of


class StandingsView(TournamentPage):
    """The standings; the table itself (the same for every visitor) is rendered once per
    change of the results and served from the cache to everybody polling it."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        # a page told of a change (tournaments.live) gets a table read after it
        since = since_param(request)
        if since and request.GET.get("fragment"):
            fresh = display.fresh_key(self.tournament, request.GET.get("round"),
                                      request.GET.get("scope"), since)  # fmt: skip
            html = cache.get(fresh[0] + ":html") if fresh else None
            if fresh is not None and html is not None:
                return HttpResponse(html, headers={VERSION_HEADER: repr(fresh[1])})
        res, html = standings_fragment(
            self.tournament, request.GET.get("round"), request.GET.get("scope"),
            max_age=0 if since else display.spectator_max_age(request.user), since=since,
        )  # fmt: skip
        if request.GET.get("fragment"):
            return HttpResponse(html, headers={VERSION_HEADER: repr(res.as_of)})
        context = self.base_context(res)
        context.update(refresh=REFRESH_SECONDS, fragment_url=fragment_url(request),
                       version=repr(res.as_of), table_html=mark_safe(html))  # noqa: S308 - ours
        if self.tournament.public:  # the push process serves public tables only (reread)
            context["read_url"] = reread.read_url(self.tournament, request.GET, get_language())
            # the table the push carries: the live page's own, not another round or scope
            context["push_key"] = "" if request.GET.get("round") or request.GET.get(
                "scope") else "standings"  # fmt: skip
        return render(request, "tournaments/results/standings.html", context)


class CrosstableView(TournamentPage):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        cross = crosstable.crosstable(self.tournament, request.GET.get("round"),
                                      request.GET.get("scope"))
        context = self.base_context(cross.results)
        context.update(cross=cross, refresh=REFRESH_SECONDS, fragment_url=fragment_url(request))
        if request.GET.get("fragment"):
            return render(request, "tournaments/results/_crosstable_table.html", context)
        return render(request, "tournaments/results/crosstable.html", context)


class HallView(TournamentPage):
    """The hall's projector: the current round's tables, then the standings, page by page."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        every = int_param(request, "every", HALL_EVERY, 1, 300)
        per_page = int_param(request, "rows", HALL_ROWS, 3, 60)
        counted = selectors.round_with_pairings(
            self.tournament.round_set.filter(status__in=ledger.COUNTED).order_by("-number")
        )
        current: Round | None = counted.first()
        tables, byes = [], []
        if current is not None:
            pairings = list(current.pairings.all())
            tables = [p for p in pairings if p.table]
            byes = [pl.entry.name for p in pairings if not p.table for pl in p.places.all()]
        res = display.results_table(self.tournament)
        slides: list[dict[str, Any]] = []
        pages = [tables[i : i + per_page] for i in range(0, len(tables), per_page)] or [[]]
        if current is not None:
            for index, page in enumerate(pages, start=1):
                slides.append(
                    {
                        "kind": "pairings",
                        "page": index,
                        "pages": len(pages),
                        "tables": page,
                        "byes": byes if index == len(pages) else [],
                    }
                )
        columns = [c for c in res.columns if c.key in ("match_points", "difference")]
        columns += [c for c in res.columns if c.tiebreak][:2]
        rows = [{"line": line, "hall_values": [display.number(line.row.get(c.key, 0))
                                                for c in columns]}
                for line in res.lines]  # fmt: skip
        chunks = [rows[i : i + per_page] for i in range(0, len(rows), per_page)]
        for index, chunk in enumerate(chunks, start=1):
            slides.append({"kind": "standings", "page": index, "pages": len(chunks), "rows": chunk})
        context = self.base_context(res)
        context.update(
            current=current,
            slides=slides,
            every=every,
            columns=columns,
            fragment_url=fragment_url(request),
        )
        if request.GET.get("fragment"):
            return render(request, "tournaments/results/_hall_slides.html", context)
        return render(request, "tournaments/results/hall.html", context)


class ExportView(TournamentPage):
    """``standings.csv|xlsx`` and ``crosstable.csv|xlsx`` with the pages' ``?round=&scope=``."""

    what = "standings"

    def get(self, request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
        round_, scope = request.GET.get("round"), request.GET.get("scope")
        if self.what == "crosstable":
            cross = crosstable.crosstable(self.tournament, round_, scope)
            sheet, results = exports.crosstable_sheet(cross), cross.results
        else:
            results = display.results_table(self.tournament, round_, scope)
            sheet = exports.standings_sheet(results)
        if fmt == "pdf":  # for the notice board and the federation
            body = pdf_export.sheet_pdf(sheet, self.tournament, results.order_labels(),
                                        results.table.source)  # fmt: skip
            answer = HttpResponse(body, content_type="application/pdf")
            answer["Content-Disposition"] = f'inline; filename="{sheet.filename}.pdf"'
            return answer
        return exports.response(sheet, fmt)


class PlayerView(View):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
        visible = access.visible_tournaments(request.user)
        tournaments = list(history.history_tournaments(player, visible))
        if not tournaments:
            raise Http404
        matches = history.player_history(player, visible)
        # the rating change of each rated match (only public tournaments are rated, so this
        # shows nothing the reader may not see)
        changes = {c.match_id: c for c in RatingChange.objects.filter(
            player=player, tournament__public=True)}  # fmt: skip
        for match in matches:
            match.rating_change = changes.get(match.match)  # type: ignore[attr-defined]
        return render(
            request,
            "tournaments/results/player.html",
            {
                "player": player,
                "tournaments": tournaments,
                "groups": history.group_by_tournament(matches),
                "rating": PlayerRating.objects.filter(player=player).first(),
            },
        )
