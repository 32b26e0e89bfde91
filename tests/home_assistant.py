"""A real Home Assistant core (2024.3.3, the last release for Python 3.11) for tests, run from
its own virtual environment (``.venv-homeassistant``, built by ``scripts/test``; elsewhere name
it in ``$HEARTH_HOME_ASSISTANT_VENV``) on a free port of 127.0.0.1, configured as a user would:
onboarded through its REST API, a long-lived access token made on its websocket API, the MQTT
integration added as a config entry through the config-flow REST API, the ``demo`` integration
for lights and the default conversation agent."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path
from typing import Any

import httpx

from tests.servers import free_port, wait_for

ROOT = Path(__file__).resolve().parents[1]
VERSION = "2024.3.3"
CLIENT_ID = "http://127.0.0.1/"
"""Home Assistant's auth wants a client id that is a URL; the onboarding user logs in as it."""

_LONG_LIVED_TOKEN = """
import asyncio, sys
import aiohttp

async def main(url, access_token):
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.receive_json()
        await ws.send_json({"type": "auth", "access_token": access_token})
        assert (await ws.receive_json())["type"] == "auth_ok"
        await ws.send_json({"id": 1, "type": "auth/long_lived_access_token",
                            "client_name": "Hearth", "lifespan": 30})
        print((await ws.receive_json())["result"])

asyncio.run(main(sys.argv[1], sys.stdin.read().strip()))
"""


def venv() -> Path:
    """Where Home Assistant is installed."""
    return Path(os.environ.get("HEARTH_HOME_ASSISTANT_VENV") or ROOT / ".venv-homeassistant")


def installed() -> bool:
    """Whether Home Assistant's virtual environment is there to run."""
    return (venv() / "bin" / "hass").is_file()


SILENT_SENTENCE = "start the coffee machine"
"""A custom sentence whose intent script turns the kitchen light on and has no ``speech``."""


class HomeAssistant:
    """One Home Assistant process with its own configuration folder."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._config = folder / "homeassistant"
        self._config.mkdir(parents=True, exist_ok=True)
        self.log = folder / "homeassistant.log"
        self._process: subprocess.Popen[bytes] | None = None
        self.token = ""
        """A long-lived access token of the owner, as a user makes one in their profile."""

    def start(self) -> HomeAssistant:
        """Start it, onboard its owner, and make a long-lived token (about 10 s here)."""
        (self._config / "configuration.yaml").write_text(
            "homeassistant:\n  name: Test home\n  latitude: 52.37\n  longitude: 4.89\n"
            "  elevation: 0\n  unit_system: metric\n  time_zone: UTC\n  country: NL\n"
            f"http:\n  server_host: 127.0.0.1\n  server_port: {self.port}\n"
            "demo:\nonboarding:\nlogger:\n  default: warning\n"
            # A household's own sentence whose script acts and says nothing.
            f'conversation:\n  intents:\n    CoffeeOn:\n      - "{SILENT_SENTENCE}"\n'
            "intent_script:\n  CoffeeOn:\n    action:\n      - service: light.turn_on\n"
            "        target:\n          entity_id: light.kitchen_lights\n"
        )
        with self.log.open("ab") as log:
            self._process = subprocess.Popen(
                [str(venv() / "bin" / "hass"), "-c", str(self._config), "--skip-pip"],
                stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        wait_for("Home Assistant to serve its API", self._serving, timeout=300)
        self._onboard()
        wait_for("the demo kitchen light", lambda: self.state("light.kitchen_lights"), timeout=60)
        return self

    def _serving(self) -> bool:
        if self._process is not None and self._process.poll() is not None:
            raise AssertionError(f"Home Assistant exited: {self.log.read_text()[-3000:]}")
        try:
            return httpx.get(f"{self.url}/api/onboarding", timeout=2).status_code == 200
        except httpx.TransportError:
            return False

    def _onboard(self) -> None:
        owner = httpx.post(f"{self.url}/api/onboarding/users", json={
            "client_id": CLIENT_ID, "name": "Owner", "username": "owner",
            "password": "owner-password", "language": "en",
        }, timeout=30)  # fmt: skip
        owner.raise_for_status()
        tokens = httpx.post(f"{self.url}/auth/token", data={
            "grant_type": "authorization_code", "code": owner.json()["auth_code"],
            "client_id": CLIENT_ID,
        }, timeout=30)  # fmt: skip
        tokens.raise_for_status()
        access = tokens.json()["access_token"]
        headers = {"Authorization": f"Bearer {access}"}
        for step in ("analytics", "integration"):
            httpx.post(f"{self.url}/api/onboarding/{step}", headers=headers,
                       json={"client_id": CLIENT_ID, "redirect_uri": CLIENT_ID},
                       timeout=30).raise_for_status()  # fmt: skip
        made = subprocess.run(
            [str(venv() / "bin" / "python"), "-c", _LONG_LIVED_TOKEN,
             f"ws://127.0.0.1:{self.port}/api/websocket"],
            input=access, capture_output=True, text=True, timeout=60, check=True,
        )  # fmt: skip
        self.token = made.stdout.strip()

    def add_mqtt(self, broker_port: int) -> dict[str, Any]:
        """Set up the MQTT integration on a broker, as the user interface's config flow does."""
        flow = self.api("POST", "/api/config/config_entries/flow", {"handler": "mqtt"})
        step = self.api("POST", f"/api/config/config_entries/flow/{flow['flow_id']}",
                        {"broker": "127.0.0.1", "port": broker_port})  # fmt: skip
        assert step["type"] == "create_entry", step
        return step["result"]

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """A REST API call as the owner; the decoded JSON answer (or text)."""
        response = httpx.request(method, f"{self.url}{path}", json=body, timeout=30,
                                 headers={"Authorization": f"Bearer {self.token}"})  # fmt: skip
        response.raise_for_status()
        try:
            return response.json()
        except ValueError:
            return response.text

    def state(self, entity_id: str) -> dict[str, Any] | None:
        """An entity's state object, or None while Home Assistant has no such entity."""
        response = httpx.get(f"{self.url}/api/states/{entity_id}", timeout=30,
                             headers={"Authorization": f"Bearer {self.token}"})  # fmt: skip
        return None if response.status_code == 404 else response.raise_for_status().json()

    def call(self, domain: str, service: str, **data: Any) -> None:
        """Call a service, as an automation or the dashboard does."""
        self.api("POST", f"/api/services/{domain}/{service}", data)

    def template(self, text: str) -> str:
        """Render a template (device and area lookups have no other REST endpoint)."""
        return self.api("POST", "/api/template", {"template": text})

    def freeze(self) -> None:
        assert self._process is not None
        os.kill(self._process.pid, signal.SIGSTOP)

    def thaw(self) -> None:
        assert self._process is not None
        os.kill(self._process.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self.thaw()
            self._process.terminate()
            try:
                self._process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=10)
        self._process = None
