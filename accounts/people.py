"""How a person is named to other people: by the full name, never by the login.

The username is a credential-like handle («referee3»); pages, messages and histories name the
person who did something («Сдал: Ринат Галиев»). An account without a first or last name falls
back to its username, so nobody is shown as a blank.
"""

from __future__ import annotations

from typing import Any


def person(user: Any, default: str = "—") -> str:
    """The user's full name, else the username, else ``default`` (no user: an archived or
    deleted account)."""
    if user is None:
        return default
    full = user.get_full_name().strip() if hasattr(user, "get_full_name") else ""
    return full or user.get_username() or default
