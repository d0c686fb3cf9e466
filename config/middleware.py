"""Language choice: Russian unless the user picked another language with the switch."""

import contextlib

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.utils import translation


class LocaleMiddleware(DjangoLocaleMiddleware):
    """Django's LocaleMiddleware, minus Accept-Language unless LANGUAGE_FROM_BROWSER is on.

    The language cookie written by ``set_language`` still wins, so the switch in the header
    works; a browser's own preference does not override the club's default language.
    """

    def process_request(self, request: HttpRequest) -> None:
        if settings.LANGUAGE_FROM_BROWSER:
            super().process_request(request)
            return
        language = settings.LANGUAGE_CODE
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        if chosen:
            with contextlib.suppress(LookupError):
                language = translation.get_supported_language_variant(chosen)
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
