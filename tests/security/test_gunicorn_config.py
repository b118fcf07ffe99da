"""gunicorn, as the Dockerfile starts it, believes forwarded headers only from the configured
reverse proxies, and logs through the redacting logger."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from gunicorn.app.wsgiapp import WSGIApplication
from gunicorn.config import Config

ROOT = Path(__file__).resolve().parents[2]


def _loaded(monkeypatch, proxies: str | None) -> Config:
    if proxies is None:
        monkeypatch.delenv("TRUSTED_PROXIES", raising=False)
    else:
        monkeypatch.setenv("TRUSTED_PROXIES", proxies)
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    app = WSGIApplication.__new__(WSGIApplication)  # no command line to parse
    app.cfg = Config()
    app.load_config_from_file(str(ROOT / "gunicorn.conf.py"))
    return app.cfg


@pytest.mark.parametrize(
    ("proxies", "allowed"),
    [
        ("10.0.0.5", ["10.0.0.5"]),
        ("10.0.0.5, 172.18.0.0/16", ["10.0.0.5", "172.18.0.0/16"]),
        (None, ["127.0.0.1", "::1"]),
        ("", ["127.0.0.1", "::1"]),
    ],
)
def test_forwarded_headers_are_believed_only_from_the_proxies(monkeypatch, proxies, allowed):
    cfg = _loaded(monkeypatch, proxies)
    assert cfg.forwarded_allow_ips == allowed
    assert "*" not in cfg.forwarded_allow_ips
    assert cfg.logger_class.__module__ + "." + cfg.logger_class.__name__ == (
        "caseflow.lib.access_log.RedactingLogger"
    )
    assert cfg.accesslog == "-"


def test_the_dockerfile_trusts_no_forwarded_header_from_everyone():
    dockerfile = (ROOT / "Dockerfile").read_text()
    compose = (ROOT / "docker-compose.yml").read_text()
    for text in (dockerfile, compose):
        assert not re.search(r"forwarded[-_]allow[-_]ips", text, re.IGNORECASE)
    # gunicorn runs from /app, where gunicorn.conf.py is.
    assert "WORKDIR /app" in dockerfile and 'CMD ["gunicorn"' in dockerfile


def test_a_worker_warms_up_and_freezes_what_it_loaded(monkeypatch):
    import gc

    from django.template import engines

    cfg = _loaded(monkeypatch, None)
    engines["django"].engine.template_loaders[0].get_template_cache.clear()
    try:
        gc.unfreeze()
        assert gc.get_freeze_count() == 0
        cfg.post_worker_init(None)
        assert gc.get_freeze_count() > 0
        # Warmed up: the case page's template compiled and kept before any request.
        loader = engines["django"].engine.template_loaders[0]
        template = loader.get_template_cache["cases/case_detail.html"]
        # Frozen: the collector's generations no longer hold it, and a collection leaves it be.
        # (The frozen count itself may fall by one when a frozen object's last reference goes.)
        gc.collect()
        assert all(tracked is not template for tracked in gc.get_objects())
        assert gc.is_tracked(template)
    finally:
        gc.unfreeze()
