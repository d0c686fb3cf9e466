"""API of accounts: obtain a token, list and revoke one's tokens, sign out, and who am I."""

from typing import Any

from django.contrib.auth import logout
from django.contrib.auth.signals import user_logged_in
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, permissions, serializers, viewsets
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from accounts import lockout, tokens
from accounts.roles import ALL_ROLES, has_role
from config.throttling import AnonWriteThrottle


class CredentialsSerializer(AuthTokenSerializer):
    username = serializers.CharField(label=_("Username"), write_only=True,
                                     max_length=lockout.USERNAME_MAX)  # fmt: skip
    token = None  # DRF's output field; the answer is TokenSerializer


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text=_("Send it as `Authorization: Token …`."))
    expiry = serializers.DateTimeField(allow_null=True)


class ObtainTokenView(APIView):
    """``POST username, password`` → ``{"token": …, "expiry": …}``; send it as
    ``Authorization: Token …``. Every call issues a new token (one per client)."""

    # The password in the body is the one credential here: a token or session the caller
    # already has must not make the request "authenticated", which would lift the anonymous
    # per-address rate below (password spraying from a signed-in client).
    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []
    # Failed attempts are counted per username and address by axes (accounts.lockout); the
    # anonymous write rate per address also bounds how fast one address may try at all.
    throttle_classes = [AnonWriteThrottle]
    # the project's parsers (config.parsers: depth and NUL checked), not DRF's stock JSON
    # parser that ObtainAuthToken names itself
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    serializer_class = CredentialsSerializer

    @extend_schema(request=CredentialsSerializer, responses={200: TokenSerializer})
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = CredentialsSerializer(data=request.data, context={"request": request})
        if not serializer.is_valid():
            if lockout.is_locked_out(request):
                return Response(lockout.api_error(), status=429,
                                headers={"Retry-After": str(lockout.window_seconds())})
            raise ValidationError(serializer.errors)
        user = serializer.validated_data["user"]
        token, key = tokens.issue(user)
        # as a sign-in by the page does: last_login, and axes clears the username's failures
        user_logged_in.send(sender=type(user), request=request, user=user)
        return Response(TokenSerializer({"token": key, "expiry": token.expiry}).data)


class TokenInfoSerializer(serializers.Serializer):
    id = serializers.CharField(source="token_key", help_text=_("The token's first characters."))
    created = serializers.DateTimeField()
    expiry = serializers.DateTimeField(allow_null=True)
    current = serializers.SerializerMethodField()

    def get_current(self, token: Any) -> bool:
        auth = getattr(self.context.get("request"), "auth", None)
        return bool(auth is not None and getattr(auth, "digest", None) == token.digest)


class TokenViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """The signed-in user's unexpired API tokens; ``DELETE …/{id}/`` revokes one."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = TokenInfoSerializer
    pagination_class = None  # a handful per user
    lookup_field = "token_key"
    lookup_url_kwarg = "id"
    lookup_value_regex = "[0-9a-f]{1,15}"

    def get_queryset(self) -> Any:
        return tokens.live(self.request.user)

    @extend_schema(responses={204: None, 404: OpenApiResponse(description=_("No such token."))})
    def destroy(self, request: Request, id: str) -> Response:
        if not tokens.revoke(request.user, id):
            raise NotFound(_("You have no API key starting with these characters."))
        return Response(status=204)


class LogoutView(APIView):
    """Sign this client out: revokes the token the request carries (a session ends)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        token = request.auth
        if token is not None and hasattr(token, "digest"):
            token.delete()
        else:
            logout(request._request)
        return Response(status=204)


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
