"""English input formats: HTML's first (``config.formats``), then Django's English ones."""

from django.conf.locale.en import formats as django_en

from config.formats import HTML_DATE, HTML_DATETIME, HTML_TIME, html_first

DATE_INPUT_FORMATS = html_first(HTML_DATE, django_en.DATE_INPUT_FORMATS)
DATETIME_INPUT_FORMATS = html_first(HTML_DATETIME, django_en.DATETIME_INPUT_FORMATS)
TIME_INPUT_FORMATS = html_first(HTML_TIME, django_en.TIME_INPUT_FORMATS)
