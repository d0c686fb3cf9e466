"""Russian input formats: HTML's first (``config.formats``), then Russian ``DD.MM.YYYY``."""

from django.conf.locale.ru import formats as django_ru

from config.formats import HTML_DATE, HTML_DATETIME, HTML_TIME, html_first

DATE_INPUT_FORMATS = html_first(HTML_DATE, django_ru.DATE_INPUT_FORMATS)
DATETIME_INPUT_FORMATS = html_first(HTML_DATETIME, django_ru.DATETIME_INPUT_FORMATS)
TIME_INPUT_FORMATS = html_first(HTML_TIME, ["%H:%M:%S.%f", "%H:%M"])
