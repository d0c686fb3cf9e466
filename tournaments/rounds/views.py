"""The organiser's pages of a round's life, and the published round for everyone.

    /manage/<pk>/                          the dashboard: rounds, "pair round N" (with the
                                           reason when round N-1 is not finished), close
    /manage/<pk>/rounds/pair/              start the pairing job (Celery); ``override_reason``
    /manage/<pk>/stages/start/             start the final stage: seed the knock-out, pair it
    /manage/<pk>/rounds/<n>/               review: swap, lock, regenerate, referees, publish,
                                           finish; each table's flags explained
    /manage/<pk>/rounds/<n>/status/        the JSON the round page polls while the job runs
    /manage/<pk>/rounds/<n>/print/         the table list to print
    /manage/<pk>/rounds/<n>/paper.pdf      the round's paper in one PDF (protocols, cards, slips)
    /manage/<pk>/rounds/<n>/clock/<action>/  the round clock: start, pause, resume, extend
    /tournaments/<pk>/rounds/<n>/clock/    the clock as JSON (clock.js re-syncs with it)
    /tournaments/<pk>/rounds/<n>/          a published round (no login when public)

Thin: ``rounds.services`` decides and writes, ``rounds.selectors`` read.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View
from django.views.generic import DetailView

from accounts.roles import CHIEF_REFEREE, REFEREE, holders
from scoring.views.printing import qr_svg
from tournaments import access
from tournaments.errors import TournamentError
from tournaments.http import ManageView, refused, standings_url
from tournaments.models import (
    Entry,
    Pairing,
    Round,
    Sanction,
    Tournament,
)
from tournaments.rounds import (
    clock,
    explain,
    referees,
    result_only,
    round_pdf,
    selectors,
    services,
)
from tournaments.rounds import notes as round_notes
from tournaments.rounds.order import MAX_REASON, pairing_override, turn_of
from tournaments.selectors import round_with_pairings
from tournaments.stages.labels import label_tables
from tournaments.stages.services import qualifying_over, seeds_moved


class DashboardView(ManageView):
    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        round_list = list(self.tournament.round_set.order_by("number"))
        statuses = {r.number: r.status for r in round_list}
        turn, stage = turn_of(self.tournament, statuses)
        knockout = stage is not None and stage.started and turn.number > self.tournament.rounds
        counts = selectors.table_counts(self.tournament)
        empty = selectors.TableCounts()
        rows = [
            {"round": r, "counts": counts.get(r.number, empty),
             "standings_url": standings_url(pk, r.number)
             if r.status == Round.Status.FINISHED else ""}
            for r in round_list
        ]  # fmt: skip
        # published rounds waiting to be finished (the next one waits for them)
        to_finish = [r for r in round_list if r.status == Round.Status.PUBLISHED]
        finished = self.tournament.status == Tournament.Status.FINISHED
        can_close = (not finished and bool(round_list)
                     and all(r.status == Round.Status.FINISHED for r in round_list))  # fmt: skip
        return self.render(
            "rounds/dashboard.html", rounds=round_list, round_rows=rows, turn=turn,
            can_pair=turn.refusal == "" or (turn.refusal == "previous_open" and not knockout),
            next_number=turn.number, stage=stage, knockout=knockout,
            can_start_stage=turn.refusal == "stage_not_started" and qualifying_over(
                self.tournament, {n: s for n, s in statuses.items()
                                  if n <= self.tournament.rounds}),
            needs_reason=turn.refusal == "previous_open", max_reason=MAX_REASON,
            to_finish=to_finish, can_close=can_close,
            short=can_close and len(round_list) < self.tournament.rounds,
            active=self.tournament.entries.filter(status=Entry.Status.ACTIVE).count(),
            # a qualifying protocol corrected after the seeding: the stages page says what
            seeds_moved=stage is not None and stage.started
            and seeds_moved(self.tournament, stage) is not None,
        )  # fmt: skip


class CloseView(ManageView):
    """Close the event: finished once every round is finished."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        try:
            services.close_tournament(request.user, pk)
        except TournamentError as err:
            refused(request, err)
        else:
            messages.success(request, _("The tournament is finished."))
        return redirect("tournaments:manage", pk=pk)


class StartStageView(ManageView):
    """«Start the final stage»: the knock-out seeded from the qualifying standings and its
    first round paired (the job runs as for any round)."""

    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        try:
            round_ = services.start_final_stage(request.user, pk)
        except TournamentError as err:
            refused(request, err)
            return redirect("tournaments:manage", pk=pk)
        return redirect("tournaments:manage_round", pk=pk, number=round_.number)


class PairRoundView(ManageView):
    def post(self, request: HttpRequest, pk: int) -> HttpResponse:
        try:
            round_ = services.start_pairing(request.user, pk,
                                            request.POST.get("override_reason", ""))  # fmt: skip
        except TournamentError as err:
            refused(request, err)
            return redirect("tournaments:manage", pk=pk)
        return redirect("tournaments:manage_round", pk=pk, number=round_.number)


def _referees(tables: list[Pairing]) -> list[Any]:
    """Who the referee lists offer: everyone who may referee (as ``assign_referee`` decides),
    and each table's current referee even if he may no longer, so that the list shows who is
    assigned and sending it unchanged does not unassign him."""
    users = list(holders(REFEREE, CHIEF_REFEREE))
    known = {u.pk for u in users}
    for pairing in tables:
        if pairing.referee is not None and pairing.referee_id not in known:
            known.add(pairing.referee_id)
            users.append(pairing.referee)
    return users


SIDE_ORDER = ("NS", "EW", "N", "E", "S", "W")


class RoundView(ManageView):
    def get(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        round_ = self.round(number)
        round_ = round_with_pairings(Round.objects.filter(pk=round_.pk)).get()
        pairings = list(round_.pairings.all())
        tables = [p for p in pairings if p.table]
        forfeited = set(
            Sanction.objects.filter(pairing__round=round_, kind=Sanction.Kind.FORFEIT,
                                    revoked_at__isnull=True).values_list("pairing_id", flat=True)
        )  # fmt: skip
        open_tables = [p.table for p in tables if p.pk not in forfeited
                       and (p.match is None or p.match.status != "confirmed")]  # fmt: skip
        why = explain.reasons(round_, tables)
        knockout = label_tables(round_, tables)
        for table in tables:
            table.reasons = why.get(table.pk, [])  # type: ignore[attr-defined]
            # the score in the sides' order (the stored totals come in the database's order)
            totals = table.match.totals if table.match else {}
            table.score = [(side, totals[side]) for side in SIDE_ORDER  # type: ignore[attr-defined]
                           if side in (totals or {})]  # fmt: skip
        return self.render(
            "rounds/round.html", round=round_, tables=tables, forfeited=forfeited,
            byes=[p for p in pairings if not p.table],
            referees=_referees(tables),
            entries=[pl.entry for p in pairings for pl in p.places.all()],
            swap_with=_swap_with(pairings),
            status_url=reverse("tournaments:manage_round_status", args=[pk, number]),
            open_tables=open_tables, standings_url=standings_url(pk, number),
            override=pairing_override(round_), notes=round_notes.in_words(round_.notes),
            pair_next=_pair_next(self.tournament, round_), knockout=knockout,
        )  # fmt: skip


def _pair_next(tournament: Tournament, round_: Round) -> int | None:
    """The round a finished round's page offers to pair next (one click less than going back
    to the overview): the following one, when it is the one to pair now."""
    if round_.status != Round.Status.FINISHED:
        return None
    turn, _stage = turn_of(tournament, dict(tournament.round_set.values_list("number",
                                                                             "status")))
    return turn.number if turn.number == round_.number + 1 and not turn.refusal else None


def _swap_with(pairings: list[Pairing]) -> int | None:
    """The entry the swap's second select starts at: the first of another table than the first
    select's entry (both started at the first entry, a swap with itself)."""
    places = [(p.pk, pl.entry_id) for p in pairings for pl in p.places.all()]
    if not places:
        return None
    return next((entry for table, entry in places if table != places[0][0]), None)


class RoundStatusView(ManageView):
    """The small JSON the round page polls while the job runs."""

    def get(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        round_ = self.round(number)
        return JsonResponse({
            "status": round_.status, "status_label": round_.get_status_display(),
            "progress": round_.progress, "step": round_.step, "error": round_.error,
        })  # fmt: skip


class RoundActionView(ManageView):
    def post(self, request: HttpRequest, pk: int, number: int, action: str) -> HttpResponse:
        round_ = self.round(number)
        post = request.POST
        try:
            if action == "swap":
                services.swap(request.user, round_.pk, int(post["entry_a"]), int(post["entry_b"]))
                messages.success(request, _("The entries changed places."))
            elif action in ("lock", "unlock"):
                pairing = get_object_or_404(Pairing, pk=int(post["pairing"]), round=round_)
                services.set_locked(request.user, pairing.pk, action == "lock")
            elif action == "referee":
                pairing = get_object_or_404(Pairing, pk=int(post["pairing"]), round=round_)
                referee = int(post["referee"]) if post.get("referee") else None
                services.assign_referee(request.user, pairing.pk, referee)
                messages.success(request, _("Referee assigned to table %(table)s.")
                                 % {"table": pairing.table})  # fmt: skip
            elif action == "referees":
                wanted = referees.plan(round_, post.get("mode", ""),
                                       [int(r) for r in post.getlist("pool")])  # fmt: skip
                changed = referees.assign_all(request.user, round_.pk, wanted)
                empty = sum(1 for r in wanted.values() if r is None)
                messages.success(request, ngettext(
                    "Referees assigned: %(n)s table changed.",
                    "Referees assigned: %(n)s tables changed.", changed) % {"n": changed})
                if empty:
                    messages.warning(request, ngettext(
                        "%(n)s table has no referee: the list is shorter than the tables.",
                        "%(n)s tables have no referee: the list is shorter than the tables.",
                        empty) % {"n": empty})  # fmt: skip
            elif action == "result":
                pairing = get_object_or_404(Pairing, pk=int(post["pairing"]), round=round_)
                result_only.record_result(request.user, pairing.pk,
                                          {"NS": post.get("NS"), "EW": post.get("EW")})  # fmt: skip
                messages.success(request, _("Table %(t)s: the final score is saved (without "
                                            "deals).") % {"t": pairing.table})  # fmt: skip
            elif action == "regenerate":
                services.regenerate(request.user, round_.pk)
            elif action == "publish":
                services.publish(request.user, round_.pk)
                messages.success(request, _("Round %(n)s is published.") % {"n": number})
            elif action == "finish":
                services.finish_round(request.user, round_.pk)
                messages.success(request, _("Round %(n)s is finished; its standings are saved.")
                                 % {"n": number})  # fmt: skip
            else:
                raise Http404
        except (KeyError, ValueError):
            messages.error(request, _("Bad request."))
        except TournamentError as err:
            refused(request, err)
        return redirect("tournaments:manage_round", pk=pk, number=number)


class PrintTablesView(ManageView):
    """The table list to pin up in the hall: table, seats and names (leaders at table 1); then,
    on pages of their own to cut and hand out, each entry's personal link as a QR code."""

    def get(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        round_ = self.round(number)
        round_ = round_with_pairings(Round.objects.filter(pk=round_.pk)).get()
        pairings = list(round_.pairings.all())
        public = request.build_absolute_uri(reverse("tournaments:round", args=[pk, number]))
        facts = round_pdf.heading(round_)
        if round_.clock_started_at:
            start = timezone.localtime(round_.clock_started_at)
            facts += " · " + _("start %(time)s") % {"time": formats.time_format(start, "H:i")}
        links = [(place, pairing.table, request.build_absolute_uri(
                      reverse("tournaments:personal", args=[place.entry.token])))
                 for pairing in sorted(pairings, key=lambda p: (p.table is None, p.table or 0))
                 for place in pairing.places.all()]  # fmt: skip
        personal = [(place, table, url, qr_svg(url)) for place, table, url in links]
        tables = [p for p in pairings if p.table]
        return self.render("rounds/print_tables.html", round=round_, facts=facts,
                           qr_svg=qr_svg(public), personal=personal, tables=tables,
                           knockout=label_tables(round_, tables),
                           byes=[p for p in pairings if not p.table])  # fmt: skip


class RoundPaperView(ManageView):
    """The round's paper in one PDF: protocols, table cards, slips (``rounds.round_pdf``)."""

    def get(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        round_ = self.round(number)
        round_ = round_with_pairings(Round.objects.filter(pk=round_.pk)).get()
        if not any(p.table for p in round_.pairings.all()):
            raise Http404
        pdf = round_pdf.round_pdf(round_, request.build_absolute_uri)
        response = HttpResponse(pdf, content_type="application/pdf")
        name = f"round-{round_.number}-{self.tournament.pk}.pdf"
        response["Content-Disposition"] = f'inline; filename="{name}"'
        return response


class RoundPairingsView(DetailView):
    """A published round's tables: who sits where (players find their table and seat)."""

    template_name = "tournaments/rounds/pairings.html"
    context_object_name = "round"

    def get_object(self, queryset: QuerySet[Round] | None = None) -> Round:
        visible = access.visible_tournaments(self.request.user)
        published = (Round.Status.PUBLISHED, Round.Status.FINISHED)
        rounds = Round.objects.filter(tournament__in=visible, tournament_id=self.kwargs["pk"],
                                      number=self.kwargs["number"], status__in=published)
        round_ = round_with_pairings(rounds).first()
        if round_ is None:
            raise Http404
        return round_

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        pairings = list(self.object.pairings.all())
        context["tournament"] = self.object.tournament
        context["tables"] = [p for p in pairings if p.table]
        context["knockout"] = label_tables(self.object, context["tables"])
        context["byes"] = [p for p in pairings if not p.table]
        # a later round published while the page is open is announced on it (tournaments.live)
        context["newer"] = (Round.objects.filter(
            tournament_id=self.object.tournament_id, number__gt=self.object.number,
            status__in=(Round.Status.PUBLISHED, Round.Status.FINISHED),
        ).order_by("-number").values_list("number", flat=True).first())  # fmt: skip
        return context

    def get_template_names(self) -> list[str]:
        if self.request.GET.get("fragment"):  # the part its script re-reads
            return ["tournaments/rounds/_pairings_table.html"]
        return [self.template_name]

CLOCK_ACTIONS = ("start", "pause", "resume", "extend")


class ClockActionView(ManageView):
    """The organiser's clock buttons (``rounds.clock``), back to the round page."""

    def post(self, request: HttpRequest, pk: int, number: int, action: str) -> HttpResponse:
        if action not in CLOCK_ACTIONS:
            raise Http404
        round_ = self.round(number)
        minutes = request.POST.get("minutes")
        try:
            if action == "start":
                clock.start_clock(request.user, round_.pk, minutes)
                messages.success(request, _("The round's clock is running."))
            elif action == "pause":
                clock.pause_clock(request.user, round_.pk)
                messages.success(request, _("The round's clock is paused."))
            elif action == "resume":
                clock.resume_clock(request.user, round_.pk)
                messages.success(request, _("The round's clock is running again."))
            else:
                clock.extend_clock(request.user, round_.pk, minutes)
                messages.success(request, _("Minutes added to the round's clock."))
        except TournamentError as err:
            refused(request, err)
        return redirect("tournaments:manage_round", pk=pk, number=number)


class RoundClockView(View):
    """The round's clock as JSON, for whoever may see the round (one query: the phones and the
    hall screen re-sync with it every half minute)."""

    def get(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        round_ = (access.visible_rounds(request.user)
                  .filter(tournament_id=pk, number=number).first())  # fmt: skip
        if round_ is None:
            raise Http404
        response = JsonResponse({"clock": round_.clock_json()})
        response["Cache-Control"] = "no-store"
        return response
