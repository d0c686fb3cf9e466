"""Language choice: Russian unless the user picked another language with the switch; a 503
page instead of a 500 when the database is unreachable; the Content-Security-Policy header built
once for the responses that change nothing of it."""

import contextlib
from functools import cache
from typing import Any

from csp.constants import HEADER
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.utils import translation
from django.utils.html import escape


class LocaleMiddleware(DjangoLocaleMiddleware):
    """Django's LocaleMiddleware, minus Accept-Language unless LANGUAGE_FROM_BROWSER is on.

    The language cookie written by ``set_language`` still wins, so the switch in the header
    works; a browser's own preference does not override the club's default language. The API
    (``/api/``) answers in the request's ``Accept-Language``: a program has no switch to press,
    and its header is what it asks for.
    """

    def process_request(self, request: HttpRequest) -> None:
        if settings.LANGUAGE_FROM_BROWSER or request.path.startswith("/api/"):
            super().process_request(request)
            return
        language = settings.LANGUAGE_CODE
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if chosen:
            with contextlib.suppress(LookupError):
                language = translation.get_supported_language_variant(chosen)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()


class DatabaseUnavailableMiddleware:
    """A page whose database went away answers 503 with ``Retry-After``, not a 500.

    The API has the same answer in its own format (``config.api_errors``); this is for the HTML
    pages (a spectator's standings, a referee's sheet). The page is self-contained: rendering
    the site's template would touch the session and the user, i.e. the database again.
    """

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)  # type: ignore[no-any-return]

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        from config.api_errors import DATABASE_RETRY_AFTER, database_down

        if not database_down(exception):
            return None
        title = translation.gettext("Try again in a moment")
        message = translation.gettext(
            "The database is unavailable for a moment; nothing was saved. Try again."
        )
        html = (
            f'<!doctype html><html lang="{translation.get_language()}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<meta http-equiv="refresh" content="{DATABASE_RETRY_AFTER}">'
            f"<title>{escape(title)}</title></head><body><h1>{escape(title)}</h1>"
            f"<p>{escape(message)}</p></body></html>"
        )
        response = HttpResponse(html, status=503)
        response["Retry-After"] = str(DATABASE_RETRY_AFTER)
        return response


#: what a view may set on its response to change its policy (django-csp's decorators)
_PER_RESPONSE = ("_csp_config", "_csp_update", "_csp_replace", "_csp_exempt",
                 "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro", "_csp_exempt_ro")


@cache
def _plain_policy() -> str:
    return build_policy()


def _forget_policy(setting: str, **kwargs: Any) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _plain_policy.cache_clear()


setting_changed.connect(_forget_policy, dispatch_uid="config.middleware.csp")


class CSPMiddleware(DjangoCSPMiddleware):
    """django-csp's middleware, with the header of the settings' policy built once per process.

    django-csp builds the policy string from the settings on every response. A response whose
    page used no nonce, whose view changed nothing of the policy, with no report-only policy
    and no excluded paths (every API answer, most pages) gets the same string each time: it is
    built once (again when a test changes the settings). Anything else is django-csp's own
    work, as before.
    """

    def process_response(self, request: HttpRequest, response: Any) -> Any:
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", None) or {}
        if (getattr(request, "_csp_nonce", None) is not None
                or any(hasattr(response, name) for name in _PER_RESPONSE)
                or getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None)
                or policy.get("EXCLUDE_URL_PREFIXES")
                or (settings.DEBUG and response.status_code in (404, 500))):  # fmt: skip
            return super().process_response(request, response)
        if HEADER not in response:
            header = _plain_policy()
            if header:
                response[HEADER] = header
        # as django-csp does: a nonce asked for after the header is written is an error
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response
