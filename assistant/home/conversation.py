"""Home control through Home Assistant's conversation API: a request in, its spoken answer out.

``POST /api/conversation/process`` with a long-lived access token; Home Assistant's default agent
(Assist) matches the sentence to its intents and acts, and its ``speech`` is what Hearth says.
Every failure comes back as an answer to say, specific to what went wrong (unreachable, too
slow, the token refused, an error from Home Assistant), never as an exception: a broken home
link must not break a conversation. The token is never logged nor put in a message.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import httpx
from pydantic import SecretStr

from assistant.home.secrets import SecretError, read_secret
from config import HomeAssistantSettings
from support.http_lookup import LookupWithin

log = logging.getLogger(__name__)

PROCESS_PATH = "/api/conversation/process"
API_PATH = "/api/"
API_RUNNING = {"message": "API running."}
"""What Home Assistant's REST API answers on ``API_PATH`` to a valid token."""


class HomeProblem(StrEnum):
    """Why Home Assistant did not do what was asked."""

    UNREACHABLE = "unreachable"
    TOO_SLOW = "too_slow"
    ANSWER_LOST = "answer_lost"
    """The request went out and the connection broke before the answer: it may have acted."""
    TOKEN_REFUSED = "token_refused"
    SERVER_ERROR = "server_error"
    UNREADABLE = "unreadable"
    NOT_DONE = "not_done"
    """Home Assistant understood the question and said why it could not do it."""
    NOT_HOME_ASSISTANT = "not_home_assistant"
    """Something answers at the URL, but not Home Assistant's REST API."""


SPOKEN_PROBLEMS = {
    HomeProblem.UNREACHABLE: "I can't reach Home Assistant right now, so I couldn't do that.",
    HomeProblem.TOO_SLOW: "Home Assistant didn't answer in time, so I don't know if that worked.",
    HomeProblem.ANSWER_LOST: (
        "Home Assistant's answer didn't reach me, so I don't know if that worked."
    ),
    HomeProblem.TOKEN_REFUSED: (
        "Home Assistant turned down my access token. The token in my settings needs renewing."
    ),
    HomeProblem.SERVER_ERROR: "Home Assistant answered with an error, so I couldn't do that.",
    HomeProblem.UNREADABLE: "Home Assistant sent an answer I couldn't read.",
    HomeProblem.NOT_DONE: "Home Assistant couldn't do that.",
    HomeProblem.NOT_HOME_ASSISTANT: (
        "The address in my settings for Home Assistant answers, but it isn't Home Assistant."
    ),
}
"""What Hearth says for each problem (Home Assistant's own words win when it gives any)."""
DONE = "Done."
"""Said when Home Assistant acted and had nothing to say (a custom sentence's script)."""


@dataclass(frozen=True)
class ApiStatus:
    """Whether the URL and token reach Home Assistant's REST API, and what was seen."""

    problem: HomeProblem | None
    detail: str
    """What the server said or how the request failed (never the token)."""


@dataclass(frozen=True)
class HomeAnswer:
    """What to say after asking Home Assistant, and whether it did what was asked."""

    speech: str
    problem: HomeProblem | None = None
    conversation_id: str | None = None
    """Home Assistant's id for a follow-up in the same conversation."""

    @property
    def done(self) -> bool:
        """Home Assistant acted or answered."""
        return self.problem is None


_NOT_SENT = (
    httpx.ConnectError,
    httpx.ConnectTimeout,
    httpx.PoolTimeout,
    httpx.UnsupportedProtocol,
    httpx.ProxyError,
    httpx.LocalProtocolError,
)
"""Failures before the request left: Home Assistant did nothing."""


class HomeAssistantConversation:
    """A client of one Home Assistant's conversation API."""

    def __init__(
        self,
        settings: HomeAssistantSettings,
        token: SecretStr | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        """Read the token now, so a missing one fails at start-up.

        Raises:
            SecretError: the token file is missing, unreadable or empty, or no variable is set.
        """
        self._settings = settings
        self._environ = environ
        self._given = token is not None
        secret = token or self._read_token()
        self._client = httpx.Client(
            base_url=str(settings.url).rstrip("/"),
            headers={"Authorization": f"Bearer {secret.get_secret_value()}"},
            timeout=httpx.Timeout(
                settings.answer_timeout_seconds, connect=settings.connect_timeout_seconds
            ),
            transport=LookupWithin(httpx.HTTPTransport(), settings.connect_timeout_seconds),
        )

    def process(self, text: str, conversation_id: str | None = None) -> HomeAnswer:
        """Ask Home Assistant to act on ``text`` and return what to say."""
        body: dict[str, Any] = {"text": text, "language": self._settings.language}
        if conversation_id:
            body["conversation_id"] = conversation_id
        if self._settings.agent_id:
            body["agent_id"] = self._settings.agent_id
        try:
            response = self._client.post(PROCESS_PATH, json=body)
            if response.status_code in (401, 403) and self._token_renewed():
                response = self._client.post(PROCESS_PATH, json=body)
        except _NOT_SENT as error:
            return self._failed(HomeProblem.UNREACHABLE, type(error).__name__)
        except httpx.TimeoutException as error:
            return self._failed(HomeProblem.TOO_SLOW, type(error).__name__)
        except httpx.TransportError as error:
            # Sent, and the connection broke before the answer (a restart): it may have acted.
            return self._failed(HomeProblem.ANSWER_LOST, type(error).__name__)
        if response.status_code in (401, 403):
            return self._failed(HomeProblem.TOKEN_REFUSED, f"HTTP {response.status_code}")
        if response.is_error:
            # Home Assistant's own words say what is wrong ("invalid agent ID").
            said = " ".join(response.text.split())[:200]
            return self._failed(HomeProblem.SERVER_ERROR, f"HTTP {response.status_code}: {said}")
        return self._answer(response)

    def _read_token(self) -> SecretStr:
        return read_secret(
            "Home Assistant token", self._settings.token_file, self._settings.token_env,
            self._environ, in_header=True,
        )  # fmt: skip

    def _token_renewed(self) -> bool:
        """After a refusal: whether the token in the settings' file or variable is another one
        now (the user renewed it, as Hearth asked), taken for the next requests."""
        if self._given:
            return False
        try:
            secret = self._read_token().get_secret_value()
        except SecretError as error:
            log.warning("Home Assistant: the token could not be read again: %s", error)
            return False
        header = f"Bearer {secret}"
        if self._client.headers.get("Authorization") == header:
            return False
        self._client.headers["Authorization"] = header
        log.info("Home Assistant: using the renewed token")
        return True

    def check_api(self) -> ApiStatus:
        """Ask ``GET /api/``, which answers ``API running.`` only to a valid token; each phase
        (connecting, the answer) waits at most ``connect_timeout_seconds``."""
        try:
            response = self._client.get(
                API_PATH, timeout=self._settings.connect_timeout_seconds, follow_redirects=False
            )
        except httpx.TimeoutException as error:
            return ApiStatus(HomeProblem.TOO_SLOW, type(error).__name__)
        except httpx.TransportError as error:
            return ApiStatus(HomeProblem.UNREACHABLE, str(error) or type(error).__name__)
        if response.status_code in (401, 403):
            return ApiStatus(HomeProblem.TOKEN_REFUSED, f"HTTP {response.status_code}")
        try:
            running = response.is_success and response.json() == API_RUNNING
        except ValueError:
            running = False
        if not running:
            return ApiStatus(HomeProblem.NOT_HOME_ASSISTANT, f"HTTP {response.status_code}")
        return ApiStatus(None, API_RUNNING["message"])

    def agent_known(self) -> bool | None:
        """Whether Home Assistant has the conversation agent ``agent_id`` names: asked with a
        request it refuses whatever the agent (no ``text``), so nothing is done, and read from
        why it refuses (it checks the agent first). None when the answer says neither."""
        body = {"agent_id": self._settings.agent_id}
        try:
            response = self._client.post(
                PROCESS_PATH, json=body, timeout=self._settings.connect_timeout_seconds
            )
        except httpx.HTTPError:
            return None
        said = response.text
        if "invalid agent ID" in said:
            return False
        if "required key not provided" in said and "text" in said:
            return True
        return None

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def _answer(self, response: httpx.Response) -> HomeAnswer:
        try:
            reply = response.json()
            result = reply["response"]
            speech = str(result.get("speech", {}).get("plain", {}).get("speech") or "").strip()
            kind = result.get("response_type")
        except (ValueError, KeyError, TypeError, AttributeError):
            return self._failed(HomeProblem.UNREADABLE, "not a conversation response")
        conversation_id = reply.get("conversation_id")
        if kind == "error":
            code = (result.get("data") or {}).get("code", "error")
            log.info("Home Assistant could not do it (%s): %s", code, speech)
            return HomeAnswer(speech or SPOKEN_PROBLEMS[HomeProblem.NOT_DONE],
                              HomeProblem.NOT_DONE, conversation_id)  # fmt: skip
        if not speech and kind == "action_done":
            return HomeAnswer(DONE, None, conversation_id)  # an intent script that says nothing
        if not speech:
            return self._failed(HomeProblem.UNREADABLE, "an answer with no speech")
        return HomeAnswer(speech, None, conversation_id)

    def _failed(self, problem: HomeProblem, detail: str) -> HomeAnswer:
        log.warning("Home Assistant at %s: %s (%s)", self._settings.url, problem.value, detail)
        return HomeAnswer(SPOKEN_PROBLEMS[problem], problem)
