"""API tokens (django-rest-knox): many per user, one per client that signed in, each stored only
as a hash, each with an expiry (``API_TOKEN_TTL_HOURS``) and revocable on its own.

A token is named by its first characters (``token_key``, what knox looks it up by): the list
and revoke endpoints and the account page show and take that, never the whole token, which is
shown once, when it is issued.

A password change revokes every token of the user, wherever it is made (the account page, the
admin, ``manage.py changepassword``, a reset: all end in ``set_password`` and ``save``); so
does making the password unusable. Sessions need nothing of ours: Django signs them with the
password's hash, so the other sessions end by themselves. A sign-in that only re-hashes the
stored password (a stronger hasher) is not a change and revokes nothing.
"""

from __future__ import annotations

import binascii
from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.models import AuthToken

from accounts import token_memory


def issue(user: Any) -> tuple[AuthToken, str]:
    """A new token for ``user``: its row and the token itself (shown to the client once)."""
    AuthToken.objects.filter(user=user, expiry__lt=timezone.now()).delete()  # see below
    return AuthToken.objects.create(user=user)  # type: ignore[no-any-return]


def live(user: Any) -> QuerySet[AuthToken]:
    """The user's tokens that have not expired, newest first."""
    now = timezone.now()
    rows = AuthToken.objects.filter(user=user).filter(Q(expiry__isnull=True) | Q(expiry__gt=now))
    return rows.order_by("-created")


def revoke(user: Any, key: str) -> bool:
    """Revoke the user's token named ``key``; False when the user has none of that name."""
    deleted, _ = AuthToken.objects.filter(user=user, token_key=key).delete()
    return bool(deleted)


def revoke_all(user: Any) -> int:
    deleted, _ = AuthToken.objects.filter(user=user).delete()
    return int(deleted)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="accounts.tokens.password")
def _revoke_on_password_change(sender: Any, instance: Any, created: bool, **kw: Any) -> None:
    # ``_password`` holds the new raw password from ``set_password`` until the save is done
    # (AbstractBaseUser.save clears it after post_save); a re-hash at sign-in clears it first.
    if created:
        return
    if getattr(instance, "_password", None) is not None or not instance.has_usable_password():
        revoke_all(instance)


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's authentication without its sweep of the user's other tokens on every request,
    and with the process's memory of the tokens it checked (``accounts.token_memory``).

    knox reads all of the user's tokens each time one is presented, to delete the expired ones:
    a query on every deal a referee records. Here only the presented token's own expiry is
    checked (an expired one is refused and deleted, as knox does); the user's other expired
    tokens are deleted when a token is issued (``issue``) and never authenticate meanwhile.
    A token checked recently, and not revoked since, is answered from memory without a query.
    """

    def authenticate_credentials(self, token: bytes) -> tuple[Any, AuthToken]:
        read_at = token_memory.generation()  # before the database is read (the module says why)
        try:
            digest = hash_token(token.decode("utf-8"))
        except (TypeError, ValueError, binascii.Error):
            digest = None  # knox refuses it below
        if read_at is not None and digest is not None:
            remembered = token_memory.recall(digest, read_at)
            if remembered is not None:
                return remembered
        user, auth_token = super().authenticate_credentials(token)
        if read_at is not None and digest is not None:
            token_memory.remember(digest, auth_token, read_at)
        return user, auth_token

    def _cleanup_token(self, auth_token: Any) -> bool:  # knox 5.1's hook, pinned
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False


class TokenScheme(KnoxTokenScheme):
    """The schema's security scheme of ``TokenAuthentication``: knox's own, as before."""

    target_class = "accounts.tokens.TokenAuthentication"
