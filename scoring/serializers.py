"""Serializers of the score-sheet API (``scoring.api``): what a request may carry, and the shape
of the answers for the schema. They parse and document; ``scoring.services`` decides."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework import serializers

from scoring.models import Match


class UserRefSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(required=False, help_text="the login: signed-in readers only")
    name = serializers.CharField()


class DealOutSerializer(serializers.Serializer):
    n = serializers.IntegerField()
    client_id = serializers.UUIDField(allow_null=True)
    record = serializers.JSONField()
    verdict = serializers.JSONField(help_text="The engine's verdict (contract deals[] entry).")
    match_version = serializers.IntegerField()
    created_at = serializers.DateTimeField()


class MatchOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    round = serializers.IntegerField(allow_null=True, help_text="The round of the event.")
    table = serializers.CharField()
    title = serializers.CharField(
        help_text="Label, round and table in the request's language («… · тур 4 · стол 5»).")
    status = serializers.ChoiceField(choices=Match.Status.choices)
    version = serializers.IntegerField()
    rules_preset = serializers.CharField()
    rules_options = serializers.JSONField()
    rules = serializers.JSONField()
    seats = serializers.JSONField(help_text='{"N": {"id", "name"} | null, …} for seats in play')
    sides = serializers.JSONField()
    referee = UserRefSerializer(allow_null=True)
    deals = DealOutSerializer(many=True)
    totals = serializers.DictField(child=serializers.IntegerField())
    finished = serializers.BooleanField()
    end = serializers.CharField(allow_null=True)
    winner = serializers.CharField(allow_null=True)
    unclaimed_eggs = serializers.IntegerField()
    next_leader = serializers.CharField(allow_null=True)
    outcome = serializers.JSONField(
        help_text="A club game's result beyond the totals (RULES.md section 34): losers, "
        "titles ({side, title, n}), losses (general), out (semerka); {} for other games.")
    has_pin = serializers.BooleanField()
    submitted_by = UserRefSerializer(allow_null=True)
    submitted_at = serializers.DateTimeField(allow_null=True)
    confirmed_by = UserRefSerializer(allow_null=True)
    confirmed_with_pin = serializers.BooleanField()
    confirmed_at = serializers.DateTimeField(allow_null=True)


class VersionOutSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    action = serializers.CharField()
    user = UserRefSerializer(allow_null=True)
    at = serializers.DateTimeField()
    reason = serializers.CharField()
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    confirmed = serializers.BooleanField()
    protocol = serializers.JSONField(allow_null=True)


class VerdictOutSerializer(serializers.Serializer):
    verdict = serializers.JSONField()


class MatchCreateSerializer(serializers.Serializer):
    rules_preset = serializers.CharField(default="sport")
    rules_options = serializers.DictField(required=False, default=dict)
    players = serializers.IntegerField(required=False, allow_null=True, default=None)
    seats = serializers.DictField(
        child=serializers.IntegerField(allow_null=True), required=False, default=dict
    )
    referee = serializers.PrimaryKeyRelatedField(
        queryset=get_user_model().objects.all(), required=False, allow_null=True, default=None
    )
    label = serializers.CharField(required=False, allow_blank=True, default="", max_length=200)
    table = serializers.CharField(required=False, allow_blank=True, default="", max_length=50)
    confirm_pin = serializers.CharField(required=False, allow_blank=True, write_only=True)
    client_id = serializers.UUIDField(required=False, allow_null=True, default=None,
                                      help_text="The creation's key (or Idempotency-Key).")


class DealInSerializer(serializers.Serializer):
    """One deal in the contract's shape (RULES.md section 13); the engine judges the rest."""

    result = serializers.CharField(help_text="domino, fish or redeal")
    by = serializers.CharField(required=False, allow_null=True)
    leader = serializers.CharField(required=False, allow_null=True)
    hands = serializers.JSONField(required=False)
    pips = serializers.JSONField(required=False)
    lead_tile = serializers.JSONField(required=False)
    last_tiles = serializers.JSONField(required=False)
    boneyard = serializers.JSONField(required=False)
    declared = serializers.JSONField(required=False)
    time_up = serializers.BooleanField(required=False)
    client_id = serializers.UUIDField(required=False, allow_null=True)
    expected_version = serializers.IntegerField(required=False, allow_null=True)


class VersionInSerializer(serializers.Serializer):
    expected_version = serializers.IntegerField(required=False, allow_null=True)


class SubmitInSerializer(VersionInSerializer):
    pass


class PinInSerializer(serializers.Serializer):
    pin = serializers.CharField(write_only=True, help_text="4 to 8 digits")


class ConfirmInSerializer(serializers.Serializer):
    pin = serializers.CharField(required=False, allow_blank=True, write_only=True)


class CorrectionInSerializer(VersionInSerializer):
    deals = serializers.ListField(child=serializers.DictField(), allow_empty=False)
    reason = serializers.CharField(allow_blank=True)
