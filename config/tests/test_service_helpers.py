import pytest

from config.testing import running_in_ci, service_unavailable


def test_missing_service_skips_outside_ci(monkeypatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    assert not running_in_ci()
    with pytest.raises(pytest.skip.Exception, match="needs X"):
        service_unavailable("needs X")


def test_missing_service_fails_under_ci(monkeypatch) -> None:
    monkeypatch.setenv("CI", "true")
    assert running_in_ci()
    with pytest.raises(pytest.fail.Exception, match="needs X"):
        service_unavailable("needs X")
