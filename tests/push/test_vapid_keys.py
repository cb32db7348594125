"""The VAPID key pair: from NAPAD_VAPID_PRIVATE_KEY / NAPAD_VAPID_PUBLIC_KEY, or generated once
into the var folder; a bad or mismatched pair stops the site with the variable's name."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ImproperlyConfigured

from napad_site.vapid import private_key_load, public_key_of, vapid_keys, vapid_pair_generate


@pytest.fixture
def clean_env(monkeypatch):
    monkeypatch.delenv("NAPAD_VAPID_PRIVATE_KEY", raising=False)
    monkeypatch.delenv("NAPAD_VAPID_PUBLIC_KEY", raising=False)
    return monkeypatch


def test_the_embedded_site_generates_a_pair_once(clean_env, tmp_path):
    first = vapid_keys(tmp_path)
    assert vapid_keys(tmp_path) == first
    stored = tmp_path / "vapid_keys.json"
    assert json.loads(stored.read_text()) == {"private": first[0], "public": first[1]}
    assert stored.stat().st_mode & 0o777 == 0o600
    assert public_key_of(private_key_load(first[0])) == first[1]


def test_the_scaled_site_takes_the_pair_from_the_environment(clean_env, tmp_path):
    private, public = vapid_pair_generate()
    clean_env.setenv("NAPAD_VAPID_PRIVATE_KEY", private)
    clean_env.setenv("NAPAD_VAPID_PUBLIC_KEY", public)
    assert vapid_keys(tmp_path) == (private, public)
    assert not (tmp_path / "vapid_keys.json").exists()


@pytest.mark.parametrize(
    ("private", "public", "named"),
    [
        ("set", "", "NAPAD_VAPID_PUBLIC_KEY: set both"),
        ("", "set", "NAPAD_VAPID_PRIVATE_KEY: set both"),
        ("not base64!", "set", "NAPAD_VAPID_PRIVATE_KEY"),
        ("AAAA", "set", "NAPAD_VAPID_PRIVATE_KEY: expected a raw 32-byte"),
        ("set", "other", "NAPAD_VAPID_PUBLIC_KEY: does not belong"),
    ],
)
def test_a_bad_pair_names_the_variable(clean_env, tmp_path, private, public, named):
    mine, theirs = vapid_pair_generate(), vapid_pair_generate()
    values = {"set": None, "other": theirs[1]}
    if private:
        clean_env.setenv("NAPAD_VAPID_PRIVATE_KEY", mine[0] if private == "set" else private)
    if public:
        clean_env.setenv("NAPAD_VAPID_PUBLIC_KEY", values[public] or mine[1])
    with pytest.raises(ImproperlyConfigured, match=named):
        vapid_keys(tmp_path)
