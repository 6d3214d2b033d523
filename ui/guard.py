"""What keeps the app for this computer's pages, installed by app.py at start-up (see docs/DESIGN.md).

DNS rebinding: a page on evil.example can make its own name point at 127.0.0.1 and then talk to the
app as if it were same-origin; only the Host header gives it away. `.streamlit/config.toml` lists the
local names in Streamlit's own `server.allowedHosts`, which its WebSocket handler checks before any
session starts; `install` adds the address the app was started on (`--server.address`) when it is a
name of its own.

No outbound connection: when a WebSocket's Origin is not the app's, Streamlit asks
`streamlit.net_util` for this machine's addresses to compare with, which opens a socket towards
8.8.8.8 and fetches checkip.amazonaws.com. `install` replaces both look-ups with ones that find
nothing, so a foreign Origin is simply refused.
"""

from __future__ import annotations

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
EVERY_INTERFACE = ("", "0.0.0.0", "::")  # noqa: S104 (names, not a bind)


def allowed_hosts(address: str | None) -> list[str]:
    """The Host names a request may carry: this computer's, and the server's own address when it names one."""
    hosts = list(LOCAL_HOSTS)
    name = (address or "").strip().strip("[]").lower()
    if name not in EVERY_INTERFACE and not name.startswith("unix://") and name not in hosts:
        hosts.append(name)
    return hosts


def _nothing() -> None:
    """A look-up of this machine's addresses that asks nobody (so origins are compared with the local names only)."""
    return None


def install() -> None:
    """Switch off Streamlit's address look-ups and make sure the server's own address is an allowed Host."""
    from streamlit import config, net_util

    net_util.get_external_ip = _nothing
    net_util.get_internal_ip = _nothing
    hosts = allowed_hosts(config.get_option("server.address"))
    current = list(config.get_option("server.allowedHosts") or [])
    if not set(hosts) <= set(current):
        config.set_option("server.allowedHosts", current + [h for h in hosts if h not in current], "ui/guard.py")
