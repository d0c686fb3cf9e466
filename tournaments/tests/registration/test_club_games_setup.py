"""The club games of seed 003 (RULES.md sections 24–31) in the tournament setup: offered by
name, accepted with the formats their texts seat them in, refused with the others on the
format field; «Телефон» is offered after them (issue 27). The setup asks the one registry
(rules.games)."""

from __future__ import annotations

import pytest

from tournaments import formats, registration
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.registration import rules_form
from tournaments.registration.forms import TournamentForm

pytestmark = pytest.mark.django_db

CLUB_GAMES = ("dvorovoe", "kozel_morskoy", "osel", "chechevo", "semerka", "general")


def test_the_setup_form_offers_every_game_at_the_table() -> None:
    offered = [value for value, _ in TournamentForm().fields["rules_preset"].choices]
    assert offered[:6] == ["sport", "kozel", "morskoy", "international", "muggins", "fives"]
    assert set(offered[6:]) == {*CLUB_GAMES, "telefon"}
    assert rules_form.table_presets() == offered


@pytest.mark.parametrize("preset, format_", [
    ("dvorovoe", "pairs"), ("dvorovoe", "free_for_all"), ("kozel_morskoy", "pairs"),
    ("kozel_morskoy", "singles"), ("osel", "teams"), ("chechevo", "free_for_all"),
    ("chechevo", "singles"), ("semerka", "free_for_all"), ("general", "pairs"),
    ("general", "individual"),
])  # fmt: skip
def test_a_club_game_is_set_up_with_a_format_it_is_played_in(organiser, preset, format_):
    tournament = registration.create_tournament(organiser, name="Клуб", rules_preset=preset,
                                                format=format_)  # fmt: skip
    rules = tournament.rules
    assert rules.preset == preset
    shape = formats.table_shape(format_)
    assert rules.players == shape.players
    assert rules.pairs is (shape.partners and shape.players == 4)


@pytest.mark.parametrize("preset, format_", [
    ("chechevo", "pairs"), ("semerka", "teams"), ("general", "singles"),
    ("general", "free_for_all"), ("osel", "free_for_all"),
])  # fmt: skip
def test_a_club_game_in_a_format_it_is_not_played_in_is_refused_on_the_format(
    organiser, preset, format_
):
    with pytest.raises(TournamentError) as refused:
        registration.create_tournament(organiser, name="x", rules_preset=preset, format=format_)
    assert refused.value.errors[0]["field"] == "format"
    assert preset in refused.value.errors[0]["message"]
    assert not Tournament.objects.exists()


def test_telefon_is_set_up_in_pairs_and_each_for_himself(organiser) -> None:
    for format_, partners in (("pairs", True), ("free_for_all", False)):
        tournament = registration.create_tournament(organiser, name="Телефон",
                                                    rules_preset="telefon", format=format_)
        rules = tournament.rules
        assert (rules.preset, rules.players, rules.partnership) == ("telefon", 4, partners)


def _setup(preset: str, options: dict | None = None, **fields) -> dict:
    return {"name": "Клубный вечер", "rules_preset": preset,
            **rules_form.posted(preset, options), "format": "free_for_all", "system": "swiss",
            "rounds": 3, "points_win": 2, "points_draw": 1, "points_loss": 0,
            "tie_breaks": ["match_points", "difference"], "bye_result": "win",
            "club_avoidance": "among_equals", "club_strict_until": 0, "first_round": "seed",
            **fields}


def test_the_setup_page_types_a_club_games_knobs(client, organiser) -> None:
    """A club game's knobs are typed fields as for the older presets: those the chosen game
    takes shown, the others of its engine hidden (the page's script swaps them)."""
    client.force_login(organiser)
    page = client.get("/manage/new/").content.decode()
    assert 'data-engine="clubgame"' in page and 'name="clubgame_sticks"' in page
    answer = client.post("/manage/new/", _setup("semerka", {"sticks": 4}))
    assert answer.status_code == 302, answer.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Клубный вечер")
    assert tournament.rules_options == {"sticks": 4}
    assert tournament.rules.sticks == 4 and tournament.rules.players == 4
    shown = client.get(f"/manage/{tournament.pk}/setup/").content.decode()
    sticks = shown.index('name="clubgame_sticks"')
    # the field's paragraph is not hidden for «Семёрка»; «Генерал»'s rule is
    assert " hidden" not in shown[shown.rindex("<p", 0, sticks):sticks]
    rule = shown.index('name="clubgame_general_rule"')
    assert " hidden" in shown[shown.rindex("<p", 0, rule):rule]
    bad = client.post(f"/manage/{tournament.pk}/setup/", _setup("semerka", {"sticks": 11}))
    assert bad.status_code == 400


def test_the_setup_page_sets_up_a_rotation_whose_end_is_a_typed_knob(client, organiser) -> None:
    """«На вылет» depends on a knob typed on the same page (the match's end): the model's own
    check sees it (it saw the stored overrides, none yet, and refused every such setup)."""
    client.force_login(organiser)
    answer = client.post("/manage/new/", _setup("general", {"end": "losses"}, format="pairs",
                                                system="rotation"))
    assert answer.status_code == 302, answer.content.decode()[:2000]
    tournament = Tournament.objects.get(name="Клубный вечер")
    assert (tournament.system, tournament.rules_options) == ("rotation", {"end": "losses"})
    refused = client.post("/manage/new/", _setup("general", format="pairs", system="rotation",
                                                 name="Без конца"))
    assert refused.status_code == 400 and "Конец партии" in refused.content.decode()
