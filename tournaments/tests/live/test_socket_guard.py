"""The push held against a visitor who attacks it (issue 25), through the project's ASGI
application as a server drives it: unknown paths, other origins (scheme, host and port),
sockets that talk, and sockets that outlive the right they were opened with (signed out, the
chief's appointment removed, the tournament made private); and no announcement of a round the
public pages do not show yet."""

from __future__ import annotations

import time
from typing import Any

import pytest
import websockets
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from channels.db import database_sync_to_async
from django.conf import settings
from django.test import Client

from accounts import roles
from scoring import services
from scoring.models import Match
from tournaments.live.announce import public_group
from tournaments.models import Round, Tournament
from tournaments.tests.builders import play_round, table_match
from tournaments.tests.conftest import add_pairs, make_user
from tournaments.tests.factories import TournamentFactory
from tournaments.tests.live.test_consumers import hear


def scope_of(path: str, origin: bytes | None = b"http://127.0.0.1", host: bytes = b"127.0.0.1",
             cookie: bytes | None = None, scheme: str = "ws") -> dict[str, Any]:  # fmt: skip
    headers = [(b"host", host)]
    if origin is not None:
        headers.append((b"origin", origin))
    if cookie is not None:
        headers.append((b"cookie", cookie))
    return {"type": "websocket", "path": path, "raw_path": path.encode(), "query_string": b"",
            "headers": headers, "subprotocols": [], "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 80), "scheme": scheme}  # fmt: skip


async def opened(scope: dict[str, Any]) -> tuple[ApplicationCommunicator, dict[str, Any]]:
    from config.asgi import application

    communicator = ApplicationCommunicator(application, scope)
    await communicator.send_input({"type": "websocket.connect"})
    return communicator, await communicator.receive_output(5)


def accepted(scope: dict[str, Any]) -> bool:
    async def run() -> bool:
        communicator, answer = await opened(scope)
        if answer["type"] == "websocket.accept":
            await communicator.send_input({"type": "websocket.disconnect", "code": 1000})
            await communicator.wait(1)
            return True
        assert answer["type"] == "websocket.close", answer
        return False

    return async_to_sync(run)()


def signed_in(user: Any) -> tuple[Client, bytes]:
    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return client, f"{settings.SESSION_COOKIE_NAME}={value}".encode()


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    organiser = make_user("org", roles.ORGANISER)
    chief = make_user("chief", roles.CHIEF_REFEREE)
    tournament = TournamentFactory(name="Турнир")
    tournament.organisers.add(organiser)
    tournament.chief_referees.add(chief)
    return {"t": tournament, "organiser": organiser, "chief": chief}


@pytest.mark.django_db(transaction=True)
def test_an_unknown_socket_path_is_refused_cleanly(event, in_process_layer) -> None:
    for path in ("/ws/", "/ws/nothing/", "/ws/live/abc/", f"/ws/live/{event['t'].pk}/x/",
                 "/ws/live/99999999999999999999/"):  # fmt: skip
        assert not accepted(scope_of(path)), path


@pytest.mark.django_db(transaction=True)
def test_the_origin_must_be_this_site_exactly(event, in_process_layer) -> None:
    path = f"/ws/live/{event['t'].pk}/"
    assert accepted(scope_of(path))
    assert accepted(scope_of(path, b"http://127.0.0.1:8000", host=b"127.0.0.1:8000"))
    assert accepted(scope_of(path, b"https://127.0.0.1", scheme="wss"))
    for origin, host in ((b"http://127.0.0.1:9999", b"127.0.0.1"),  # another port
                         (b"https://127.0.0.1", b"127.0.0.1"),  # another scheme
                         (b"http://127.0.0.1:8001", b"127.0.0.1:8000"),
                         (b"http://127.0.0.1.evil.example", b"127.0.0.1"),
                         (b"null", b"127.0.0.1"), (b"ftp://127.0.0.1", b"127.0.0.1")):
        assert not accepted(scope_of(path, origin, host=host)), origin


@pytest.mark.django_db(transaction=True)
def test_a_socket_that_talks_is_closed(event, in_process_layer) -> None:
    async def run() -> dict[str, Any]:
        communicator, answer = await opened(scope_of(f"/ws/live/{event['t'].pk}/"))
        assert answer["type"] == "websocket.accept"
        await communicator.send_input({"type": "websocket.receive", "bytes": b"x" * 4000})
        return await communicator.receive_output(5)

    assert async_to_sync(run)() == {"type": "websocket.close", "code": 1008}


def closes_after(scope: dict[str, Any], change: Any) -> dict[str, Any]:
    """Open the socket, make ``change`` (sync, in a thread), and return what the socket gets
    next within 5 s (its close), or fail."""

    async def run() -> dict[str, Any]:
        communicator, answer = await opened(scope)
        assert answer["type"] == "websocket.accept", answer
        await database_sync_to_async(change)()
        try:
            return await communicator.receive_output(5)
        except TimeoutError:
            pytest.fail("the socket stayed open after its right was taken away")
        finally:
            await communicator.send_input({"type": "websocket.disconnect", "code": 1000})

    return async_to_sync(run)()


CLOSED = {"type": "websocket.close", "code": 4403}


@pytest.mark.django_db(transaction=True)
def test_the_chiefs_socket_closes_when_the_appointment_is_removed(event, in_process_layer) -> None:
    _client, cookie = signed_in(event["chief"])
    scope = scope_of(f"/ws/live/{event['t'].pk}/staff/", cookie=cookie)
    assert closes_after(scope, lambda: event["t"].chief_referees.remove(event["chief"])) == CLOSED


@pytest.mark.django_db(transaction=True)
def test_a_staff_socket_closes_when_its_user_signs_out(event, in_process_layer) -> None:
    client, cookie = signed_in(event["organiser"])
    scope = scope_of(f"/ws/live/{event['t'].pk}/staff/", cookie=cookie)
    assert closes_after(scope, lambda: client.post("/logout/")) == CLOSED


@pytest.mark.django_db(transaction=True)
def test_public_sockets_close_when_the_tournament_is_made_private(event,
                                                                  in_process_layer) -> None:
    def hide() -> None:
        tournament = Tournament.objects.get(pk=event["t"].pk)
        tournament.public = False
        tournament.save()

    assert closes_after(scope_of(f"/ws/live/{event['t'].pk}/"), hide) == CLOSED


@pytest.mark.django_db(transaction=True)
def test_a_right_taken_away_elsewhere_is_noticed_by_the_periodic_check(
    event, in_process_layer, settings
) -> None:
    settings.LIVE_RECHECK_SECONDS = 1
    _client, cookie = signed_in(event["chief"])
    scope = scope_of(f"/ws/live/{event['t'].pk}/staff/", cookie=cookie)
    through = Tournament.chief_referees.through
    # a raw delete sends no signal (as a change made in the database by hand)
    assert closes_after(scope, lambda: through.objects.filter(
        tournament_id=event["t"].pk).delete()) == CLOSED  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_anonymous_sockets_sharing_their_periodic_check_notice_a_tournament_made_private(
    event, in_process_layer, settings
) -> None:
    """Anonymous sockets of one tournament share a periodic check for a moment (issue 31);
    one made after the tournament turned private (a raw update: no signal) still closes them."""
    from tournaments.live import consumers

    settings.LIVE_RECHECK_SECONDS = 1
    consumers._ANONYMOUS_CHECKS[event["t"].pk] = (time.monotonic(), True)  # a check just made
    scope = scope_of(f"/ws/live/{event['t'].pk}/")
    assert closes_after(scope, lambda: Tournament.objects.filter(
        pk=event["t"].pk).update(public=False)) == CLOSED  # fmt: skip
    assert consumers._ANONYMOUS_CHECKS[event["t"].pk][1] is False


@pytest.mark.django_db(transaction=True)
def test_a_confirmation_in_an_unpublished_round_is_not_announced(in_process_layer) -> None:
    tournament = TournamentFactory()
    chief = make_user("chief", roles.CHIEF_REFEREE)
    tournament.chief_referees.add(chief)
    a, b, c, d = add_pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(a, b, (120, 80)), (c, d, None)])
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.PAIRED)
    match = table_match(round_, 2)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.SUBMITTED,
                                             totals={"NS": 1, "EW": 2})  # fmt: skip
    assert hear(public_group(tournament.pk), lambda: services.confirm(match.pk, chief)) == []


def test_every_way_of_serving_the_push_bounds_the_frame_size() -> None:
    """uvicorn reads a whole frame before the consumer sees it (16 MiB by default: twenty such
    frames grew the push workers by 370 MB): every command that serves the push bounds it."""
    from pathlib import Path

    from config.sockets import WS_MAX_SIZE

    root = Path(__file__).resolve().parents[3]
    for name in ("Makefile", "deploy/Procfile", "deploy/domino-push.service",
                 "tournaments/tests/live/conftest.py"):  # fmt: skip
        text = (root / name).read_text()
        assert "uvicorn" in text and "--ws-max-size" in text, name
    for name in ("Makefile", "deploy/Procfile", "deploy/domino-push.service"):
        assert f"--ws-max-size {WS_MAX_SIZE}" in (root / name).read_text(), name


@pytest.mark.django_db(transaction=True)
def test_the_server_drops_a_big_frame_of_an_anonymous_socket(asgi_server: Any) -> None:
    """Against the real server (uvicorn, PostgreSQL, Redis): a frame over the bound closes the
    socket (1009) before it is read whole."""
    import websockets.sync.client as ws

    tournament = TournamentFactory(public=True)
    url = asgi_server.url.replace("http://", "ws://") + f"/ws/live/{tournament.pk}/"
    with ws.connect(url, origin=asgi_server.url, max_size=None) as socket:
        socket.send(b"x" * (1024 * 1024))
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
            socket.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # too big

