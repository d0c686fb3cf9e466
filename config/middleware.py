"""Language choice: Russian unless the user picked another language with the switch; and a
503 page instead of a 500 when the database is unreachable."""

import contextlib
from typing import Any

from django.conf import settings
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
