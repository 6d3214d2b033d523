"""The app only for this computer's pages, through the real server (issue 23, part B item 6).

The server runs with a `sitecustomize` that logs every socket connection to an address outside this
computer (nothing is blocked, only recorded), so a look-up Streamlit would make shows up in the log.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT
from .serving import wait_until_healthy

CHROMIUM = "/usr/bin/chromium"
WATCHER = """
import ipaddress, os, socket
_LOG = os.environ["OUTBOUND_LOG"]
_connect, _connect_ex = socket.socket.connect, socket.socket.connect_ex

def _outside(address):
    if not isinstance(address, tuple):
        return False  # a Unix socket
    try:
        return not ipaddress.ip_address(address[0]).is_loopback
    except ValueError:
        return address[0] != "localhost"  # a name: resolving it is the look-up

def connect(self, address):
    if _outside(address):
        with open(_LOG, "a") as log:
            log.write(repr(address) + "\\n")
    return _connect(self, address)

def connect_ex(self, address):
    if _outside(address):
        with open(_LOG, "a") as log:
            log.write(repr(address) + "\\n")
    return _connect_ex(self, address)

socket.socket.connect, socket.socket.connect_ex = connect, connect_ex
"""

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="needs Debian's chromium: apt-get install chromium"),
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def watched_server(data: Path):
    """The app on a free port with its work in ``data``; yields (port, log of outbound connections)."""
    (data / "watch").mkdir()
    (data / "watch" / "sitecustomize.py").write_text(WATCHER)
    log = data / "outbound.log"
    log.write_text("")
    port = free_port()
    env = {
        **os.environ,
        "HF_HUB_OFFLINE": "1",
        "WORKBENCH_WORKSPACE_DB": str(data / "workspace.sqlite"),
        "WORKBENCH_HISTORY_DB": str(data / "history.sqlite"),
        "OUTBOUND_LOG": str(log),
        "PYTHONPATH": str(data / "watch"),
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until_healthy(f"http://localhost:{port}", process)
        yield port, log
    finally:
        process.terminate()
        process.wait(timeout=20)


def handshake(port: int, host: str, origin: str) -> bytes:
    """Open the app's WebSocket with these headers; everything the server sends back within 3 s."""
    request = (
        f"GET /_stcore/stream HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Protocol: streamlit\r\n\r\n"
    )
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=3) as sock:
        sock.sendall(request.encode())
        with contextlib.suppress(TimeoutError, ConnectionError):
            while chunk := sock.recv(65536):
                received += chunk
    return received


def test_only_this_computers_pages_get_a_session(tmp_path):
    from playwright.sync_api import expect, sync_playwright

    from workbench.store.workspace import Workspace

    # A kept file whose name is a Markdown image pointing at a server of the test's own (nothing listens there).
    trap = free_port()
    name = f"![x](http://127.0.0.1:{trap}/a.png).md"
    store = Workspace(tmp_path / "workspace.sqlite")
    store.open_document(name, b"# Trap\n\n## Fan\nPrice: 10\n")
    store.open_document("breezy.md", (ROOT / "sample_data" / "breezy_home_price_list.md").read_bytes())
    store.close()
    with watched_server(tmp_path) as (port, log), sync_playwright() as playwright:
        # Same origin, before the browser opens the app: accepted (the test can tell a refusal apart).
        assert handshake(port, f"localhost:{port}", f"http://localhost:{port}").startswith(b"HTTP/1.1 101")
        # DNS rebinding: another site's name in Host, its Origin matching. Refused before any session.
        refused = handshake(port, f"evil.example:{port}", f"http://evil.example:{port}")
        assert not refused.startswith(b"HTTP/1.1 101"), refused[:200]
        assert b"Trap" not in refused and b"breezy" not in refused

        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        page = browser.new_page()
        requests: list[str] = []
        page.on("request", lambda request: requests.append(request.url))
        page.goto(f"http://localhost:{port}")
        expect(page.get_by_text("Your document", exact=True)).to_be_visible(timeout=60000)
        page.get_by_text("Reopen a recent file").click()
        # The name is shown as the text it is (an invisible word joiner after "http:" so that Markdown makes no link
        # of the bare address, output/highlight.WORD_JOINER), and the browser asks nothing of the address in it.
        expect(page.get_by_text(f"![x](http:\u2060//127.0.0.1:{trap}/a.png).md", exact=False)).to_be_visible()
        page.wait_for_timeout(1500)
        assert not [url for url in requests if f":{trap}" in url]
        assert not page.locator(f"img[src*='{trap}']").count()

        # Another site's page opening the app's WebSocket (its own Origin, Host this computer): refused, and
        # the server looks nothing up to decide.
        foreign = handshake(port, f"localhost:{port}", "http://evil.example")
        assert not foreign.startswith(b"HTTP/1.1 101"), foreign[:200]
        browser.close()
        assert log.read_text() == ""


# Run inside `unshare -rn` (a user and network namespace of its own, holding only the loopback device): the app
# started under strace, one session driven over its WebSocket, every connect() the server made listed after.
NAMESPACED = r'''
import json, os, socket, struct, subprocess, sys, time, urllib.request
from streamlit.proto.BackMsg_pb2 import BackMsg

root, data, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, root)
from tests.serving import wait_until_healthy
subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
trace = os.path.join(data, "connect.trace")
server = subprocess.Popen(
    ["strace", "-f", "-qq", "-e", "trace=connect", "-o", trace, sys.executable, "-m", "streamlit", "run",
     os.path.join(root, "app.py"), "--server.port", str(port), "--server.headless", "true"],
    cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
result = {}
try:
    wait_until_healthy(f"http://localhost:{port}", server, 90)
    with urllib.request.urlopen(f"http://localhost:{port}/", timeout=10) as response:
        result["index"] = response.status
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall((f"GET /_stcore/stream HTTP/1.1\r\nHost: localhost:{port}\r\nOrigin: http://localhost:{port}\r\n"
                  "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                  "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: streamlit\r\n\r\n").encode())
    received = sock.recv(65536)
    result["upgraded"] = received.startswith(b"HTTP/1.1 101")
    message = BackMsg()
    message.rerun_script.query_string = ""
    payload, mask = message.SerializeToString(), b"\x01\x02\x03\x04"
    sock.sendall(bytes([0x82, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    sock.settimeout(1)
    deadline = time.monotonic() + 60
    while b"Your document" not in received and time.monotonic() < deadline:
        try:
            received += sock.recv(1 << 20)
        except TimeoutError:
            pass
    result["rendered"] = b"Your document" in received
    time.sleep(3)  # anything the page's run starts after it is drawn
    sock.close()
finally:
    os.killpg(server.pid, 15)  # the server and strace, which would otherwise leave it running detached
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, 9)
        server.wait()
result["connects"] = [line for line in open(trace) if "connect(" in line]
print(json.dumps(result))
'''


def _namespaces_work() -> bool:
    try:
        subprocess.run(["unshare", "-rn", "ip", "link", "set", "lo", "up"], check=True, capture_output=True, timeout=20)
        subprocess.run(["strace", "-qq", "-e", "trace=connect", "true"], check=True, capture_output=True, timeout=20)
        return True
    except (OSError, subprocess.SubprocessError):
        return False


@pytest.mark.slow
def test_a_session_in_a_network_namespace_connects_nowhere_else(tmp_path):
    """The server in a network namespace of its own, with only the loopback device, under strace: it starts,
    serves its page, draws a session's first screen over the WebSocket, and makes no connect() call to any
    address but this computer's (an attempt would show in the trace, failing or not)."""
    import json
    import re

    if not _namespaces_work():
        pytest.skip("unshare -rn (a user and network namespace), ip or strace is not permitted here")
    script = tmp_path / "namespaced.py"
    script.write_text(NAMESPACED)
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "WORKBENCH_WORKSPACE_DB": str(tmp_path / "workspace.sqlite"),
           "WORKBENCH_HISTORY_DB": str(tmp_path / "history.sqlite")}
    done = subprocess.run(["unshare", "-rn", sys.executable, str(script), str(ROOT), str(tmp_path), "8501"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["index"] == 200 and result["upgraded"] and result["rendered"]
    outside = [line for line in result["connects"]
               if re.search(r"AF_INET6?", line) and not re.search(r'inet_addr\("127\.|inet_pton\(AF_INET6, "::1"', line)]
    assert outside == [], outside
