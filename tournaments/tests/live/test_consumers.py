"""Who may subscribe to what (the WebSocket handshake through the project's ASGI application,
its origin check and session), and what a subscriber hears when a protocol is confirmed, a deal
recorded, a round published or a sanction recorded: the part and the round (and on the public
group the standings table, issue 31), after the transaction commits and never when it rolls
back."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from asgiref.testing import ApplicationCommunicator
from channels.layers import channel_layers
from django.conf import settings
from django.db import transaction
from django.test import Client

from accounts import roles
from scoring import services
from scoring.models import Match
from tournaments.live import announce, flush
from tournaments.live.announce import public_group, staff_group
from tournaments.live.consumers import groups_for
from tournaments.models import Sanction
from tournaments.tests.builders import play_round, table_match
from tournaments.tests.conftest import add_pairs, make_user
from tournaments.tests.factories import TournamentFactory


def cookie_of(user: Any) -> bytes:
    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return f"{settings.SESSION_COOKIE_NAME}={value}".encode()


def handshake(path: str, user: Any = None, origin: bytes = b"http://127.0.0.1") -> bool:
    from config.asgi import application

    headers = [(b"origin", origin), (b"host", b"127.0.0.1")]
    if user is not None:
        headers.append((b"cookie", cookie_of(user)))

    # the handshake as a server sends it (channels.testing would need daphne)
    scope = {"type": "websocket", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": headers, "subprotocols": [], "client": ("127.0.0.1", 50000),
             "server": ("127.0.0.1", 80)}  # fmt: skip

    async def run() -> bool:
        communicator = ApplicationCommunicator(application, scope)
        await communicator.send_input({"type": "websocket.connect"})
        answer = await communicator.receive_output(5)
        if answer["type"] == "websocket.accept":
            await communicator.send_input({"type": "websocket.disconnect", "code": 1000})
            await communicator.wait(1)
            return True
        assert answer["type"] == "websocket.close"
        return False

    return async_to_sync(run)()


@pytest.fixture
def people(db: Any) -> dict[str, Any]:
    organiser = make_user("org", roles.ORGANISER)
    chief = make_user("chief", roles.CHIEF_REFEREE)
    tournament = TournamentFactory(name="Турнир А")
    tournament.organisers.add(organiser)
    tournament.chief_referees.add(chief)
    hidden = TournamentFactory(name="Закрытый", public=False)
    hidden.organisers.add(organiser)
    other = make_user("other_org", roles.ORGANISER)
    TournamentFactory(name="Чужой").organisers.add(other)
    return {"t": tournament, "hidden": hidden, "organiser": organiser, "chief": chief,
            "other": other, "referee": make_user("ref", roles.REFEREE)}  # fmt: skip


@pytest.mark.django_db(transaction=True)
def test_the_staff_socket_admits_the_tournaments_organisers_and_chief_referees_only(
    people: dict[str, Any], in_process_layer: None
) -> None:
    path = f"/ws/live/{people['t'].pk}/staff/"
    assert handshake(path, people["organiser"])
    assert handshake(path, people["chief"])
    assert not handshake(path, people["other"])  # an organiser of another tournament
    assert not handshake(path, people["referee"])
    assert not handshake(path)  # anonymous
    assert not handshake("/ws/live/999999/staff/", people["organiser"])


@pytest.mark.django_db(transaction=True)
def test_the_public_socket_follows_who_may_see_the_tournament(
    people: dict[str, Any], in_process_layer: None
) -> None:
    assert handshake(f"/ws/live/{people['t'].pk}/")
    assert handshake(f"/ws/live/{people['t'].pk}/", people["referee"])
    hidden = f"/ws/live/{people['hidden'].pk}/"
    assert not handshake(hidden)
    assert not handshake(hidden, people["referee"])
    assert not handshake(hidden, people["other"])
    assert handshake(hidden, people["organiser"])
    assert not handshake("/ws/live/999999/")


@pytest.mark.django_db(transaction=True)
def test_a_socket_from_another_sites_page_is_refused(
    people: dict[str, Any], in_process_layer: None
) -> None:
    assert not handshake(f"/ws/live/{people['t'].pk}/staff/", people["organiser"],
                         origin=b"https://evil.example")  # fmt: skip


@pytest.mark.django_db
def test_the_queue_joins_the_staff_groups_of_the_tournaments_the_user_judges(
    people: dict[str, Any],
) -> None:
    assert groups_for(people["chief"], None, False) == [staff_group(people["t"].pk)]
    assert set(groups_for(people["organiser"], None, False) or []) == {
        staff_group(people["t"].pk), staff_group(people["hidden"].pk)}
    assert groups_for(people["referee"], None, False) == []
    from django.contrib.auth.models import AnonymousUser

    assert groups_for(AnonymousUser(), None, False) is None


def hear(group: str, action: Any) -> list[dict[str, Any]]:
    """What a member of ``group`` hears while ``action`` runs (and the sends it made settle)."""
    layer = channel_layers["default"]

    async def join() -> str:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        return str(channel)

    async def drain(channel: str) -> list[dict[str, Any]]:
        import asyncio

        heard = []
        while True:
            try:
                heard.append(await asyncio.wait_for(layer.receive(channel), 0.5))
            except TimeoutError:
                return heard

    channel = async_to_sync(join)()
    action()
    flush(3)
    return async_to_sync(drain)(channel)


def parts(messages: list[dict[str, Any]]) -> set[tuple[str, Any]]:
    return {(m["part"], m["round"]) for m in messages}


@pytest.mark.django_db(transaction=True)
def test_a_confirmed_protocol_is_announced_to_the_public_and_the_staff(
    in_process_layer: None,
) -> None:
    tournament = TournamentFactory()
    chief = make_user("chief", roles.CHIEF_REFEREE)
    tournament.chief_referees.add(chief)
    a, b, c, d = add_pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(a, b, (120, 80)), (c, d, None)])
    match = table_match(round_, 2)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.SUBMITTED,
                                             totals={"NS": 1, "EW": 2})  # fmt: skip
    heard = hear(public_group(tournament.pk), lambda: services.confirm(match.pk, chief))
    assert parts(heard) == {("standings", round_.pk), ("hall", round_.pk)}
    # the part, its round, when the change was committed, whose it is (never sent on) ...
    assert all(set(m) - {"frames"} == {"type", "part", "round", "at", "tournament", "public"}
               for m in heard)  # fmt: skip
    # ... and the standings table itself, once per language, ready to send (issue 31)
    standings = next(m for m in heard if m["part"] == "standings")
    frames = {code: json.loads(text) for code, text in standings["frames"].items()}
    assert set(frames) == {"", "ru", "en"}
    assert frames[""] == {"part": "standings", "round": round_.pk, "at": standings["at"]}
    for code, word in (("ru", "Место"), ("en", "Rank")):
        assert set(frames[code]) == {"part", "round", "at", "key", "v", "html"}
        assert frames[code]["key"] == "standings" and frames[code]["v"] >= standings["at"]
        assert 'id="standings"' in frames[code]["html"] and word in frames[code]["html"]
    assert "frames" not in next(m for m in heard if m["part"] == "hall")
    # the staff hear the part only
    staff = hear(staff_group(tournament.pk), lambda: announce(tournament.pk, "queue", round_.pk))
    assert [set(m) for m in staff] == [{"type", "part", "round", "at", "tournament", "public"}]


@pytest.mark.django_db(transaction=True)
def test_a_recorded_deal_is_announced_to_the_board_only(in_process_layer: None) -> None:
    tournament = TournamentFactory()
    a, b, c, d = add_pairs(tournament, 4)
    round_ = play_round(tournament, 1, [(a, b, None), (c, d, None)])
    match = table_match(round_, 1)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.IN_PLAY)
    match.refresh_from_db()
    staff = hear(staff_group(tournament.pk), lambda: match.save())
    assert parts(staff) == {("board", round_.pk)}
    public = hear(public_group(tournament.pk), lambda: match.save())
    assert public == []


@pytest.mark.django_db(transaction=True)
def test_nothing_is_announced_when_the_change_rolls_back(in_process_layer: None) -> None:
    tournament = TournamentFactory()

    def rolled_back() -> None:
        try:
            with transaction.atomic():
                announce(tournament.pk, "standings")
                raise RuntimeError("the change failed")
        except RuntimeError:
            pass

    assert hear(public_group(tournament.pk), rolled_back) == []
    assert parts(hear(public_group(tournament.pk),
                      lambda: announce(tournament.pk, "standings"))) == {("standings", None)}


@pytest.mark.django_db(transaction=True)
def test_a_sanction_and_a_published_round_are_announced(in_process_layer: None) -> None:
    tournament = TournamentFactory()
    a, b = add_pairs(tournament, 2)
    round_ = play_round(tournament, 1, [(a, b, (100, 50))])
    heard = hear(public_group(tournament.pk), lambda: round_.save())
    assert parts(heard) == {("pairings", round_.pk), ("hall", round_.pk),
                            ("standings", round_.pk)}  # fmt: skip
    heard = hear(public_group(tournament.pk), lambda: Sanction.objects.create(
        tournament=tournament, entry=a, round_number=1, kind=Sanction.Kind.DEDUCTION,
        match_points=1, reason="опоздание"))  # fmt: skip
    assert parts(heard) == {("standings", None), ("hall", None)}


def test_an_unknown_part_is_a_bug() -> None:
    with pytest.raises(ValueError):
        announce(1, "everything")
