import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command

from accounts import roles
from tournaments.models import Club, Entry, Player, Tournament

pytestmark = pytest.mark.django_db


def _counts() -> tuple[int, ...]:
    return (
        Club.objects.count(),
        Player.objects.count(),
        Tournament.objects.count(),
        Entry.objects.count(),
        User.objects.count(),
    )


def test_seed_demo_creates_the_demo_tournament_and_accounts(capsys) -> None:
    call_command("seed_demo")

    demo = Tournament.objects.get(name="Demo")
    assert demo.rules_preset == "sport"
    assert demo.public
    assert demo.entries.count() == 4
    assert all(entry.players.count() == 2 for entry in demo.entries.all())
    assert Player.objects.count() == 8
    for username, role in (
        ("organiser", roles.ORGANISER),
        ("chief", roles.CHIEF_REFEREE),
        ("referee", roles.REFEREE),
    ):
        user = authenticate(username=username, password="demo12345")
        assert user is not None
        assert roles.has_role(user, role)
    assert list(demo.organisers.values_list("username", flat=True)) == ["organiser"]
    out = capsys.readouterr().out
    assert "organiser" in out and "demo12345" in out


def test_seed_demo_is_idempotent() -> None:
    call_command("seed_demo")
    before = _counts()
    call_command("seed_demo")
    assert _counts() == before
