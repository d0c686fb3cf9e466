"""A web process's memory of the API tokens it has checked, so that a referee's every deal does
not read the token and its user from the database again.

knox finds the token's row by its first characters, joined with its user, and compares SHA-512
digests: a query and two model instances on every request. A token that passed is remembered
here, keyed by its digest, with the fields of its row and of its user, for at most
``API_TOKEN_MEMORY_SECONDS``; it is trusted again only while the **revocation generation** (a
counter in the shared Redis) is the one read before the token was checked. Checking it is one
Redis GET, no query; each request gets fresh instances built from the remembered fields, so
nothing a request caches on its user (its roles are still read from the database each time)
outlives it.

**What ends the trust at once, in every process.** Every change that may end a token's right
bumps the generation: a token deleted (revoked by its owner, the API's logout, a password
change, its user deleted: ``post_delete`` fires for every row, a QuerySet's ``delete`` too) and
a user saved (deactivated, a password set, rights changed; a sign-in that only writes
``last_login`` is not). The next request of any process then finds the generation changed and
asks the database, as knox does. The generation is bumped when the change is made and again
after its transaction commits, so a request that read the row before the commit cannot keep
it: what it remembered carries the generation between the two. A token's own expiry is checked
on every request from the remembered expiry (an expired one goes to knox, which deletes it).

**Fail closed.** If the first bump cannot reach Redis the change raises (the revocation is
rolled back and can be tried again); if a request cannot read the generation, it asks the
database. Without a shared Redis cache (the embedded mode: one process, a local-memory cache)
nothing is remembered. Not seen: changes made around the ORM (raw SQL, ``QuerySet.update`` of
users or tokens), which the project does not make; the memory's age bounds them. knox's
``AUTO_REFRESH`` (off here) would not renew a token answered from memory.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import DEFAULT_DB_ALIAS, transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from knox.models import AuthToken

from config.throttling import shared_redis

logger = logging.getLogger(__name__)

#: entries kept at most; when full the memory starts again (a hall has a few hundred tokens)
LIMIT = 10_000
_GENERATION_KEY = "accounts:tokens:generation"


@dataclass(frozen=True)
class _Remembered:
    generation: bytes
    at: float
    expiry: datetime | None
    token_fields: tuple[tuple[str, ...], tuple[Any, ...]]
    user_fields: tuple[tuple[str, ...], tuple[Any, ...]]


_MEMORY: dict[str, _Remembered] = {}


def _seconds() -> float:
    return float(getattr(settings, "API_TOKEN_MEMORY_SECONDS", 60))


def _key() -> str:
    return caches["default"].make_and_validate_key(_GENERATION_KEY)


def generation() -> bytes | None:
    """The current revocation generation; None: remember nothing (no shared Redis, or it did
    not answer)."""
    if _seconds() <= 0:
        return None
    client = shared_redis()
    if client is None:
        return None
    try:
        return bytes(client.get(_key()) or b"0")
    except Exception:  # noqa: BLE001 - Redis away: the database answers, as knox does
        logger.warning("token memory: no generation", exc_info=True)
        return None


def recall(digest: str, current: bytes) -> tuple[Any, AuthToken] | None:
    """The user and token remembered under ``digest``, as fresh instances, when still to be
    trusted: same generation, not older than the memory's age, not expired."""
    entry = _MEMORY.get(digest)
    if entry is None or entry.generation != current:
        return None
    if time.monotonic() - entry.at > _seconds():
        return None
    if entry.expiry is not None and entry.expiry < timezone.now():
        return None  # knox refuses and deletes it
    user = get_user_model().from_db(DEFAULT_DB_ALIAS, *entry.user_fields)
    token = AuthToken.from_db(DEFAULT_DB_ALIAS, *entry.token_fields)
    token.user = user
    return user, token


def remember(digest: str, token: AuthToken, read_at: bytes) -> None:
    """Remember a token knox has just accepted, under the generation read before it looked."""
    if len(_MEMORY) >= LIMIT:
        _MEMORY.clear()
    _MEMORY[digest] = _Remembered(read_at, time.monotonic(), token.expiry,
                                  _fields(token), _fields(token.user))  # fmt: skip


def _fields(instance: Any) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    names = tuple(f.attname for f in instance._meta.concrete_fields)
    return names, tuple(getattr(instance, name) for name in names)


def forget_all() -> None:
    """Every process stops trusting what it remembered: now (raises if Redis cannot be told,
    which undoes the change that asked) and once the current transaction commits."""
    _MEMORY.clear()
    client = shared_redis()
    if client is None:
        return
    client.incr(_key())
    transaction.on_commit(_bump_after_commit)


def _bump_after_commit() -> None:
    _MEMORY.clear()
    client = shared_redis()
    try:
        if client is not None:
            client.incr(_key())
    except Exception:  # noqa: BLE001 - the change is committed; the first bump stands
        logger.warning("token memory: no bump after the commit", exc_info=True)


def _token_deleted(sender: Any, **kwargs: Any) -> None:
    forget_all()


def _user_saved(sender: Any, created: bool = False, update_fields: Any = None,
                **kwargs: Any) -> None:  # fmt: skip
    if created or kwargs.get("raw"):
        return  # a new user has no token yet
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return  # a sign-in: nothing of the user's rights changed
    forget_all()


post_delete.connect(_token_deleted, sender=AuthToken, dispatch_uid="accounts.token_memory.token")
post_save.connect(_user_saved, sender=settings.AUTH_USER_MODEL,
                  dispatch_uid="accounts.token_memory.user")  # fmt: skip
