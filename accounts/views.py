"""The login page (failed attempts limited by ``accounts.lockout``; after it the user lands
where his work is, ``accounts.landing``) and the account pages: the
user's API tokens with a revoke button each, and the password change (which revokes them all,
``accounts.tokens``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse, reverse_lazy
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from accounts import tokens
from accounts.landing import landing
from accounts.lockout import LoginForm


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    authentication_form = LoginForm

    def get_default_redirect_url(self) -> str:
        """Without a safe ``?next=``: where the user's work is (``accounts.landing``)."""
        return landing(self.request.user)


class AccountView(LoginRequiredMixin, TemplateView):
    template_name = "registration/account.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs),
                "tokens": list(tokens.live(self.request.user))}  # fmt: skip


class RevokeTokenView(LoginRequiredMixin, View):
    """POST ``token=<first characters>`` revokes that token of the user; ``token=all`` every
    one."""

    def post(self, request: HttpRequest) -> HttpResponse:
        key = request.POST.get("token", "")
        if key == "all":
            count = tokens.revoke_all(request.user)
            messages.success(request, _("Every API key was revoked (%(n)d).") % {"n": count})
        elif tokens.revoke(request.user, key):
            messages.success(request, _("The API key was revoked."))
        else:
            messages.error(request, _("You have no API key starting with these characters."))
        return HttpResponseRedirect(reverse("account"))


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "registration/password_change.html"
    success_url = reverse_lazy("account")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        messages.success(self.request, _("The password was changed; every API key was revoked "
                                         "and your other sessions ended."))  # fmt: skip
        return response
