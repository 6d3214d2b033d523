"""The app's own Streamlit settings keep it on this computer, quiet, and free of tracebacks."""

from __future__ import annotations

import re
import tomllib

from .conftest import ROOT


def load_config() -> dict:
    return tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))


def test_config_keeps_the_app_local_and_quiet():
    config = load_config()
    # Listening on localhost only; unset, Streamlit listens on every interface and asks checkip.amazonaws.com.
    assert config["server"]["address"] == "localhost"
    assert config["browser"]["gatherUsageStats"] is False
    # Users get plain messages, not Python tracebacks.
    assert config["client"]["showErrorDetails"] in ("none", False)


def test_streamlit_reads_the_same_settings(monkeypatch):
    """Streamlit itself parses the file to these values (a typo in a key would be silently ignored)."""
    from streamlit import config

    monkeypatch.chdir(ROOT)  # Streamlit reads .streamlit/config.toml from the folder it starts in

    config._config_options = None  # read the files afresh, as a new server would
    config.get_config_options(force_reparse=True, options_from_flags={})
    try:
        assert config.get_option("server.address") == "localhost"
        assert config.get_option("browser.gatherUsageStats") is False
        assert config.get_option("client.showErrorDetails") == "none"
    finally:
        config._config_options = None


def test_no_page_asks_the_internet_for_an_icon_or_font():
    """A ':material/…:' page icon is fetched from fonts.gstatic.com; nothing may name an outside host."""
    sources = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "ui").glob("*.py"))]
    for path in sources:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"page_icon\s*=\s*[\"']:material", text), f"{path.name} uses a fetched page icon"
        assert not re.search(r"https?://(?!localhost|127\.0\.0\.1)", text), f"{path.name} names an outside address"
        assert "@import url(" not in text and "fonts.googleapis" not in text, f"{path.name} loads an outside font"
