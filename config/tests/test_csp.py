"""A Content-Security-Policy on every page: scripts and styles from the site itself, inline ones
only with the response's nonce, no inline event handlers or style attributes, nothing from
another origin (Swagger UI and Redoc are served from the installed packages), no framing.

Every page of ``test_security.evil_pages`` (24 pages, with names full of HTML) and the login,
account, API docs and admin pages are rendered and read tag by tag."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from config.tests.test_security import evil, evil_pages  # noqa: F401 - a fixture
from tournaments.tests.conftest import make_user

pytestmark = pytest.mark.django_db

OTHER_PAGES = ["/login/", "/account/", "/account/password/", "/api/docs/", "/api/redoc/",
               "/admin/", "/admin/accounts/auditentry/", "/admin/auth/user/",
               "/admin/password_change/"]  # fmt: skip


def policy(response: Any) -> dict[str, list[str]]:
    header = response.get("Content-Security-Policy")
    assert header, f"{response.request['PATH_INFO']}: no Content-Security-Policy"
    out = {}
    for part in header.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def problems(html: str, nonce: str) -> list[str]:
    """What the policy would block, or what comes from elsewhere."""
    parser = Tags()
    parser.feed(html)
    found = []
    for tag, attrs in parser.tags:
        for name, value in attrs.items():
            if name.startswith("on"):
                found.append(f"<{tag} {name}=…>: an inline event handler")
            if name == "style":
                found.append(f"<{tag} style=…>: an inline style")
            if name in ("href", "src", "action") and value and re.match(r"(?i)\s*javascript:",
                                                                          value):  # fmt: skip
                found.append(f"<{tag} {name}=javascript:…>")
            if name in ("src", "href") and value and re.match(r"(?i)(https?:)?//", value):
                if tag in ("script", "link", "img", "iframe"):
                    found.append(f"<{tag} {name}={value}>: from another origin")
        executable = attrs.get("type") in (None, "", "text/javascript", "module")
        if tag == "script" and executable and "src" not in attrs and attrs.get("nonce") != nonce:
            found.append("an inline <script> without the nonce")
        if tag == "style" and attrs.get("nonce") != nonce:
            found.append("an inline <style> without the nonce")
    return found


@pytest.fixture
def boss(db: Any) -> User:
    admin = User.objects.create_superuser("root", password="root-pass-123")
    admin.groups.add(*make_user("tmp", "Chief referee", "Organiser").groups.all())
    return admin


def test_the_policy_forbids_inline_code_and_other_origins(boss: User) -> None:
    client = Client()
    client.force_login(boss)
    rules = policy(client.get("/"))
    for directive in ("script-src", "style-src"):
        assert "'self'" in rules[directive]
        assert "'unsafe-inline'" not in rules[directive] and "'unsafe-eval'" not in rules[directive]
        assert all(v in ("'self'",) or v.startswith("'nonce-") for v in rules[directive])
    assert rules["default-src"] == ["'self'"]
    assert rules["object-src"] == ["'none'"]
    assert rules["base-uri"] == ["'self'"]
    assert rules["frame-ancestors"] == ["'none'"]
    assert rules["form-action"] == ["'self'"]


def test_every_page_passes_the_policy(evil: dict[str, Any], boss: User) -> None:  # noqa: F811
    client = Client()
    client.force_login(boss)
    pages = [*evil_pages(evil), *OTHER_PAGES]
    report = {}
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        nonces = [v[len("'nonce-"):-1] for v in policy(response)["script-src"]
                  if v.startswith("'nonce-")]  # fmt: skip
        found = problems(response.content.decode(), nonces[0] if nonces else "-")
        if found:
            report[url] = found
    assert report == {}


def test_the_pages_of_a_visitor_pass_the_policy_too(evil: dict[str, Any]) -> None:  # noqa: F811
    t = evil["t"].pk
    for url in ("/", f"/tournaments/{t}/", f"/tournaments/{t}/standings/", "/login/",
                f"/tournaments/{t}/hall/", "/api/docs/", "/api/redoc/", "/admin/login/"):
        response = Client().get(url)
        assert response.status_code == 200, url
        script = policy(response)["script-src"]
        nonce = next((v[7:-1] for v in script if v.startswith("'nonce-")), "-")
        assert problems(response.content.decode(), nonce) == [], url


def test_the_api_docs_load_swagger_ui_and_redoc_from_this_site() -> None:
    for url, asset in (("/api/docs/", "swagger-ui-bundle.js"),
                       ("/api/redoc/", "redoc.standalone.js")):  # fmt: skip
        html = Client().get(url).content.decode()
        assert re.search(rf'src="/static/drf_spectacular_sidecar/[^"]*{asset}"', html), url
        assert "cdn" not in html.lower() and "@latest" not in html and "googleapis" not in html
        served = Client().get(re.search(rf'src="(/static/[^"]*{asset})"', html).group(1))
        assert served.status_code == 200


def test_the_header_built_once_is_django_csps_own(settings: Any, boss: User) -> None:
    """config.middleware.CSPMiddleware builds the header of the plain policy once; what it
    writes is what django-csp writes, and the pages with a nonce or their own policy keep
    theirs."""
    from csp.utils import build_policy

    api = Client().get("/api/v1/tournaments/")
    assert api["Content-Security-Policy"] == build_policy()
    assert "nonce-" not in api["Content-Security-Policy"]
    client = Client()
    client.force_login(boss)
    assert client.get("/")["Content-Security-Policy"] == build_policy()
    assert any(v.startswith("'nonce-") for v in policy(client.get("/api/docs/"))["script-src"])
    redoc = policy(Client().get("/api/redoc/"))["style-src"]
    assert "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='" in redoc
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    assert Client().get("/api/v1/tournaments/")["Content-Security-Policy"] == "default-src 'none'"
