"""The accounts app: users, roles (groups), the audit log."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts and roles")

    def ready(self) -> None:
        from accounts import audit, tokens  # noqa: F401 - signal receivers
