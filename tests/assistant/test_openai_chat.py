"""The OpenAI-compatible client against a server speaking that wire format (server-sent events):
replies, every failure spoken as for Ollama, and the same deadlines."""

from __future__ import annotations

import json
import socket
import time

import pytest

from assistant.chat_client import ChatMessage
from assistant.composition import make_chat_client
from assistant.model_errors import (
    MalformedReply,
    ModelHttpError,
    ModelUnreachable,
    ReplyTimeout,
    StreamCut,
)
from assistant.openai_chat import ModelNotOnServer, OpenAIClient
from config import ConfigError, OllamaSettings, load_settings, packaged_file
from tests.ollama_server import Reply
from tests.openai_server import OpenAIServer

QUESTION = [ChatMessage("user", "What is the capital of Kenya?")]


@pytest.fixture
def server():
    server = OpenAIServer().start()
    yield server
    server.stop()


def client_for(url: str, **overrides) -> OpenAIClient:
    client = make_chat_client(OllamaSettings(api="openai", url=url, **overrides))
    assert isinstance(client, OpenAIClient)
    return client


def test_a_streamed_reply_arrives_in_pieces(server):
    server.script(Reply(text="Nairobi is the capital. It is large."))
    client = client_for(server.url, temperature=0.3)
    pieces = list(client.chat_stream(QUESTION))
    assert len(pieces) > 3 and "".join(pieces) == "Nairobi is the capital. It is large."
    request = server.chat_requests()[0]
    assert request["stream"] is True and request["temperature"] == 0.3
    assert request["model"] == "llama3.2:3b"
    assert request["messages"] == [{"role": "user", "content": "What is the capital of Kenya?"}]
    assert request["_authorization"] is None


def test_a_url_ending_in_v1_means_the_same_server_and_replies_share_a_connection(server):
    client = client_for(server.url + "/v1/")
    for _ in range(3):
        assert "".join(client.chat_stream(QUESTION)).startswith("You asked")
    assert len({request["_port"] for request in server.chat_requests()}) == 1


def test_structured_output_asks_for_the_json_schema(server):
    schema = {"type": "object", "properties": {"facts": {"type": "array"}}}
    assert client_for(server.url).chat(QUESTION, schema=schema) == '{"facts": []}'
    sent = server.requests[-1]
    assert sent["stream"] is False
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["response_format"]["json_schema"]["schema"] == schema


def test_the_models_are_listed_and_a_key_is_sent_as_a_bearer_token():
    server = OpenAIServer(api_key="sekrit").start()
    try:
        assert client_for(server.url, api_key="sekrit").pulled_models() == ["llama3.2:3b"]
        with pytest.raises(ModelHttpError) as error:
            list(client_for(server.url, api_key="wrong").chat_stream(QUESTION))
        assert error.value.status == 401 and "code 401" in error.value.spoken
    finally:
        server.stop()


def test_nothing_listening_is_unreachable():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ModelUnreachable) as error:
        list(client_for(f"http://127.0.0.1:{port}").chat_stream(QUESTION))
    assert error.value.spoken == "I can't reach the language model. Is its server running?"


def test_a_model_the_server_lacks_is_named(server):
    with pytest.raises(ModelNotOnServer) as error:
        list(client_for(server.url, model="qwen2.5:7b").chat_stream(QUESTION))
    assert error.value.spoken == "The model qwen2.5 7b isn't on the language model server."


def test_an_http_error_is_reported_with_its_code(server):
    server.script(Reply(status=503, error="loading model"))
    with pytest.raises(ModelHttpError) as error:
        list(client_for(server.url).chat_stream(QUESTION))
    assert error.value.status == 503 and "loading model" in str(error.value)


def test_a_slow_first_token_times_out(server):
    server.script(Reply(text="late", delay_first=1.5))
    with pytest.raises(ReplyTimeout):
        list(client_for(server.url, reply_timeout_seconds=0.3).chat_stream(QUESTION))


def test_a_cut_stream_keeps_what_arrived(server):
    server.script(Reply(text="Nairobi is the capital of Kenya today", cut_after=3))
    received = []
    with pytest.raises(StreamCut):
        for piece in client_for(server.url).chat_stream(QUESTION):
            received.append(piece)
    assert "".join(received) == "Nairobi is the "


def test_a_malformed_event_is_reported(server):
    server.script(Reply(text="one two three four", malformed_after=2))
    with pytest.raises(MalformedReply):
        list(client_for(server.url).chat_stream(QUESTION))


def test_a_dripping_server_meets_the_first_sentence_deadline(server):
    server.script(Reply(text="Nairobi is the capital of Kenya.", drip_seconds=0.02))
    client = client_for(server.url, reply_timeout_seconds=5, first_sentence_seconds=0.5)
    started = time.monotonic()
    with pytest.raises(ReplyTimeout):
        list(client.chat_stream(QUESTION))
    assert time.monotonic() - started < 2.0


def test_an_openai_api_needs_its_url(tmp_path):
    path = tmp_path / "settings.yaml"
    path.write_text("ollama:\n  api: openai\n")
    with pytest.raises(ConfigError, match="api: openai needs the server's url"):
        load_settings(path, environ={}, search_path=[packaged_file("assistant.yaml")])


def test_a_turn_through_the_brain_learns_through_the_openai_api(server, tmp_path):
    from assistant.brain import Brain
    from assistant.card_keeper import CardKeeper
    from assistant.conversation import ConversationHistory
    from assistant.learning import Learner
    from assistant.reply import HeardUtterance, Sentence
    from memory import Memory

    def extract(request):
        facts = [{"statement": "My sister lives in Madrid", "kind": "person",
                  "evidence": "my sister lives in Madrid"}]  # fmt: skip
        return Reply(text=json.dumps({"facts": facts}))

    server.background = extract
    settings = OllamaSettings(api="openai", url=server.url)
    db = tmp_path / "memory.db"
    learner = Learner(lambda: Memory.open(db), lambda: make_chat_client(settings))
    brain = Brain(Memory.open(db), make_chat_client(settings),
                  CardKeeper(packaged_file("personality.yaml")), ConversationHistory(6000),
                  learner)  # fmt: skip
    try:
        parts = list(brain.respond(HeardUtterance("By the way, my sister lives in Madrid.")))
        said = [p.text for p in parts if isinstance(p, Sentence)]
        assert said == ["You asked: By the way, my sister lives in Madrid.", "That is all I know."]
        assert learner.wait_idle(20)
        assert [f.text for f in brain.memory.facts()] == ["My sister lives in Madrid"]
    finally:
        learner.close()
        brain.memory.close()
        brain.client.close()
