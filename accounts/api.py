"""API of accounts: obtain a token, and who am I."""

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from accounts import throttle
from accounts.roles import ALL_ROLES, has_role
from accounts.views import TOO_MANY
from config.throttling import AnonWriteThrottle


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()


class ObtainTokenView(ObtainAuthToken):
    """``POST username, password`` → ``{"token": …}``; send it as ``Authorization: Token …``."""

    # Two limits: failed attempts per address and username (accounts.throttle), and the
    # anonymous write rate per address (config.throttling), which also stops one address from
    # trying one password on many usernames.
    throttle_classes = [AnonWriteThrottle]  # DRF's ObtainAuthToken has none
    # the project's parsers (config.parsers: depth and NUL checked), not DRF's stock JSON
    # parser that ObtainAuthToken names itself
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES

    @extend_schema(responses={200: TokenSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        username = request.data.get("username", "") if isinstance(request.data, dict) else ""
        if throttle.blocked(request, str(username)):
            body = {"errors": [{"code": "too_many_attempts", "message": str(TOO_MANY),
                                "field": None}]}  # fmt: skip
            return Response(body, status=429, headers={"Retry-After": str(throttle.window())})
        return super().post(request, *args, **kwargs)


class MeSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    full_name = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())


class MeView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={200: MeSerializer})
    def get(self, request: Request) -> Response:
        user = request.user
        data = {
            "id": user.pk,
            "username": user.get_username(),
            "full_name": user.get_full_name(),  # type: ignore[union-attr]
            "roles": [role for role in ALL_ROLES if has_role(user, role)],
        }
        return Response(MeSerializer(data).data)
