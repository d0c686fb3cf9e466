"""Sign in and out; the account pages (API tokens, password)."""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts.views import AccountView, LoginView, PasswordChangeView, RevokeTokenView

urlpatterns = [
    path("login/", LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("account/", AccountView.as_view(), name="account"),
    path("account/tokens/revoke/", RevokeTokenView.as_view(), name="account-revoke-token"),
    path("account/password/", PasswordChangeView.as_view(), name="password_change"),
]
