"""What a raw WebSocket client hears from a real push server (uvicorn, two processes, Redis)
when a protocol is confirmed (issue 31): on a public tournament the standings table itself, in
the socket's language, with its version; on a private tournament, or for a round not
published, no content at all, only the part that changed; over ``LIVE_PUSH_MAX_BYTES``, the old
"fetch it" message."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import timezone
from websockets.sync.client import ClientConnection, connect

from accounts import roles
from scoring import services
from scoring.models import Match
from tournaments.live import announce, flush
from tournaments.models import Round
from tournaments.tests.builders import play_round, table_match
from tournaments.tests.conftest import add_pairs, make_user
from tournaments.tests.factories import TournamentFactory
from tournaments.tests.live.conftest import session_cookie


def socket(server: Any, path: str, language: str | None = "ru",
           user: Any = None) -> ClientConnection:  # fmt: skip
    query = f"?lang={language}" if language else ""
    headers = {}
    if user is not None:
        cookie = session_cookie(user, server.url)
        headers["Cookie"] = f"{cookie['name']}={cookie['value']}"
    url = server.url.replace("http://", "ws://") + path + query
    return connect(url, origin=server.url, additional_headers=headers, open_timeout=10)


def heard(ws: ClientConnection, seconds: float = 3.0) -> list[dict[str, Any]]:
    """Every message until ``seconds`` pass without one."""
    found = []
    while True:
        try:
            found.append(json.loads(ws.recv(timeout=seconds)))
        except TimeoutError:
            return found


def event(public: bool = True, status: str = Round.Status.PUBLISHED) -> tuple[Any, Match, Any]:
    """Four pairs, round 1: table 1 confirmed 120:80, table 2 submitted and waiting."""
    tournament = TournamentFactory(name="Кубок в сообщении", public=public)
    chief = make_user(f"chief{tournament.pk}", roles.CHIEF_REFEREE)
    tournament.chief_referees.add(chief)
    a, b, c, d = add_pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(a, b, (120, 80)), (c, d, None)], status=status)
    match = table_match(round_, 2)
    referee = make_user(f"ref{tournament.pk}", roles.REFEREE)
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.SUBMITTED, totals={"NS": 60, "EW": 110}, winner="EW", finished=True,
        submitted_by=referee, submitted_at=timezone.now(), referee=referee, version=3,
    )  # fmt: skip
    assert flush(5)  # the round's own announcements are sent before anyone listens
    return tournament, match, chief


def confirm(match: Match, chief: Any) -> None:
    services.confirm(match.pk, chief)
    assert flush(5)


@pytest.mark.django_db(transaction=True)
def test_a_public_sockets_message_carries_the_standings_table_in_its_language(
    asgi_server: Any,
) -> None:
    tournament, match, chief = event()
    with socket(asgi_server, f"/ws/live/{tournament.pk}/", "ru") as ru, \
            socket(asgi_server, f"/ws/live/{tournament.pk}/", "en") as en, \
            socket(asgi_server, f"/ws/live/{tournament.pk}/", None) as unsaid:  # fmt: skip
        confirm(match, chief)
        messages = {name: heard(ws) for name, ws in (("ru", ru), ("en", en), ("-", unsaid))}
    for code, words in (("ru", "Место"), ("en", "Rank")):
        standings = [m for m in messages[code] if m["part"] == "standings"]
        assert len(standings) == 1, messages[code]
        pushed = standings[0]
        assert set(pushed) == {"part", "round", "at", "key", "v", "html"}
        assert pushed["key"] == "standings" and pushed["v"] >= pushed["at"]
        html = pushed["html"]
        # the table that counts the confirmation: nobody is still playing
        assert 'id="standings"' in html and words in html
        assert 'class="tag pending"' not in html and "Пара 4" in html
        # the hall's part: told only (its own script re-reads)
        assert [set(m) for m in messages[code] if m["part"] == "hall"] == [
            {"part", "round", "at"}]  # fmt: skip
    # a socket that gave no language is told to fetch, as before
    assert all(set(m) == {"part", "round", "at"} for m in messages["-"]), messages["-"]
    assert {m["part"] for m in messages["-"]} == {"standings", "hall"}


@pytest.mark.django_db(transaction=True)
def test_a_private_tournaments_public_group_hears_no_content(asgi_server: Any) -> None:
    """Its organiser may watch the public page of his hidden tournament: he is told the part,
    and his page reads it through its own access-checked view."""
    tournament, match, chief = event(public=False)
    organiser = make_user("org-hidden", roles.ORGANISER)
    tournament.organisers.add(organiser)
    with socket(asgi_server, f"/ws/live/{tournament.pk}/", "ru", organiser) as ws:
        confirm(match, chief)
        messages = heard(ws)
    assert {m["part"] for m in messages} == {"standings", "hall"}
    assert all(set(m) == {"part", "round", "at"} for m in messages), messages


@pytest.mark.django_db(transaction=True)
def test_a_round_not_published_sends_no_content_to_the_public(asgi_server: Any) -> None:
    """A confirmation in a round still paired (not published) is not announced to the public
    at all; a standings change said to concern that round carries no table either."""
    tournament, match, chief = event(status=Round.Status.PAIRED)
    round_ = Round.objects.get(tournament=tournament, number=1)
    with socket(asgi_server, f"/ws/live/{tournament.pk}/", "ru") as ws:
        confirm(match, chief)
        assert heard(ws, 2.0) == []
        announce(tournament.pk, "standings", round_.pk)
        assert flush(5)
        messages = heard(ws)
    assert messages == [{"part": "standings", "round": round_.pk, "at": messages[0]["at"]}]


@pytest.mark.django_db(transaction=True)
def test_a_fragment_over_the_limit_is_announced_to_be_fetched(asgi_server: Any) -> None:
    tournament, match, chief = event()
    assert settings.LIVE_PUSH_MAX_BYTES >= 64 * 1024  # the documented default carries it
    with override_settings(LIVE_PUSH_MAX_BYTES=500), \
            socket(asgi_server, f"/ws/live/{tournament.pk}/", "ru") as ws:  # fmt: skip
        confirm(match, chief)
        messages = heard(ws)
    assert {m["part"] for m in messages} == {"standings", "hall"}
    assert all(set(m) == {"part", "round", "at"} for m in messages), messages
