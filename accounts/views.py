"""The login page, refusing (429) once a client has failed too often (``accounts.throttle``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _

from accounts import throttle

TOO_MANY = _("Too many failed attempts to sign in. Wait a minute and try again.")


class ThrottledAuthenticationForm(AuthenticationForm):
    def clean(self) -> dict[str, Any]:
        username = self.data.get("username", "")
        if throttle.blocked(self.request, username):
            raise forms.ValidationError(TOO_MANY, code="too_many_attempts")
        return super().clean()


class LoginView(auth_views.LoginView):
    template_name = "registration/login.html"
    authentication_form = ThrottledAuthenticationForm

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if form.has_error("__all__", "too_many_attempts"):
            response.status_code = 429
            response["Retry-After"] = str(throttle.window())
        return response
