"""The site's URLs: public pages, accounts, the API under /api/v1/, its schema and docs."""

from csp.decorators import csp_update
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from config.health import healthz

#: Redoc's bundle adds two <style> elements while it loads, before it can be given the page's
#: nonce (the styles it makes later get it, templates/api/redoc.html): an empty one and
#: perfect-scrollbar's. Their hashes admit exactly these two (drf-spectacular-sidecar's pinned
#: Redoc; config/tests/test_csp_browser.py notices when an upgrade changes them).
REDOC_LOAD_STYLES = ["'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
                     "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='"]  # fmt: skip

urlpatterns = [
    # first: every API request (a referee's every deal) is resolved without trying the pages'
    # patterns first (about 0.07 ms of CPU each); no page path starts with api/
    path("api/v1/", include("config.api_urls")),
    path("", include("tournaments.urls")),
    path("", include("accounts.urls")),
    path("", include("scoring.urls")),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # the pages carry the Content-Security-Policy's nonce (templates/api/)
    path("api/docs/", SpectacularSwaggerView.as_view(
        url_name="api-schema", template_name="api/swagger_ui.html"), name="api-docs"),
    path("api/redoc/", csp_update({"style-src": REDOC_LOAD_STYLES})(SpectacularRedocView.as_view(
        url_name="api-schema", template_name="api/redoc.html")), name="api-redoc"),
]

handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"
