"""The Ollama client against a server speaking Ollama's wire format: replies and every failure."""

from __future__ import annotations

import socket
import threading
import time

import pytest

from assistant.ollama import (
    BadModelAddress,
    ChatMessage,
    MalformedReply,
    ModelNotPulled,
    OllamaClient,
    OllamaHttpError,
    OllamaUnreachable,
    ReplyDeadline,
    ReplyTimeout,
    StreamCut,
    ollama_base_url,
    parse_ollama_host,
)
from assistant.turn_gate import TurnWithdrawn
from config import ConfigError, OllamaSettings, load_settings, packaged_file
from tests.ollama_server import Reply

QUESTION = [ChatMessage("user", "What is the capital of Kenya?")]


@pytest.fixture
def server(ollama):
    return ollama


def client_for(url: str, **overrides) -> OllamaClient:
    return OllamaClient(OllamaSettings(url=url, **overrides))


def test_a_streamed_reply_arrives_in_pieces_with_the_configured_options(server):
    server.script(Reply(text="Nairobi is the capital. It is large."))
    client = client_for(server.url, keep_alive="5m", context_tokens=2048, temperature=0.3)
    pieces = list(client.chat_stream(QUESTION))
    assert len(pieces) > 3
    assert "".join(pieces) == "Nairobi is the capital. It is large."
    request = server.chat_requests()[0]
    assert request["model"] == "llama3.2:3b" and request["stream"] is True
    assert request["keep_alive"] == "5m"
    assert request["options"] == {"num_ctx": 2048, "temperature": 0.3}
    assert request["messages"] == [{"role": "user", "content": "What is the capital of Kenya?"}]


def test_consecutive_replies_share_one_connection(server):
    client = client_for(server.url)
    for _ in range(3):
        assert "".join(client.chat_stream(QUESTION)).startswith("You asked")
    assert len({request["_port"] for request in server.chat_requests()}) == 1


def test_structured_output_sends_the_schema(server):
    schema = {"type": "object", "properties": {"facts": {"type": "array"}}}
    assert client_for(server.url).chat(QUESTION, schema=schema) == '{"facts": []}'
    assert server.requests[-1]["format"] == schema and server.requests[-1]["stream"] is False


def test_pulled_models_are_listed(server):
    assert client_for(server.url).pulled_models() == ["llama3.2:3b"]


def test_nothing_listening_is_unreachable():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(OllamaUnreachable) as error:
        list(client_for(f"http://127.0.0.1:{port}").chat_stream(QUESTION))
    assert "Ollama running" in error.value.spoken


def test_a_server_whose_name_the_dns_never_answers_is_out_of_reach_in_time(deaf_dns):
    # With the household's DNS down, a model server named "bigbox.lan" held the turn for the
    # resolver's own 10 s whatever connect_timeout_seconds said; the lookup counts within it now.
    client = client_for("http://bigbox.lan:11434", connect_timeout_seconds=0.3)
    try:
        with pytest.raises(OllamaUnreachable) as error:
            list(client.chat_stream(QUESTION))
        assert deaf_dns.still_hanging(), "the request waited for the resolver"
    finally:
        client.close()
    assert "looking up bigbox.lan" in str(error.value)
    assert "Ollama running" in error.value.spoken


def test_a_password_in_the_address_is_sent_but_never_shown(server):
    # A model server behind a reverse proxy with basic authentication.
    with_login = server.url.replace("http://", "http://bob:s3cret@")
    client = client_for(with_login)
    assert "".join(client.chat_stream(QUESTION)).startswith("You asked")
    assert server.chat_requests()[-1]["_authorization"] == "Basic Ym9iOnMzY3JldA=="
    assert client.base_url == with_login.replace("s3cret", "***")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(OllamaUnreachable) as error:
        list(client_for(f"http://bob:s3cret@127.0.0.1:{port}").chat_stream(QUESTION))
    assert f"http://bob:***@127.0.0.1:{port}" in str(error.value)
    with pytest.raises(ConfigError) as refused:
        load_settings(environ={"HEARTH_OLLAMA__URL": "http://bob:s3cret@127.0.0.1:0"},
                      search_path=[packaged_file("assistant.yaml")])  # fmt: skip
    assert "s3cret" not in str(refused.value) and "bob:***@" in str(refused.value)


def test_a_model_not_pulled_names_the_pull_command(server):
    with pytest.raises(ModelNotPulled) as error:
        list(client_for(server.url, model="qwen2.5:7b").chat_stream(QUESTION))
    assert "ollama pull qwen2.5:7b" in error.value.spoken


def test_a_slow_first_token_times_out(server):
    server.script(Reply(text="late", delay_first=1.5))
    with pytest.raises(ReplyTimeout):
        list(client_for(server.url, reply_timeout_seconds=0.3).chat_stream(QUESTION))


def test_an_http_error_is_reported_with_its_code(server):
    server.script(Reply(status=500, error="out of memory"))
    with pytest.raises(OllamaHttpError) as error:
        list(client_for(server.url).chat_stream(QUESTION))
    assert error.value.status == 500 and "500" in error.value.spoken


def test_a_cut_stream_keeps_what_arrived(server):
    server.script(Reply(text="Nairobi is the capital of Kenya today", cut_after=3))
    received = []
    with pytest.raises(StreamCut):
        for piece in client_for(server.url).chat_stream(QUESTION):
            received.append(piece)
    assert "".join(received) == "Nairobi is the "


def test_a_malformed_chunk_is_reported(server):
    server.script(Reply(text="one two three four", malformed_after=2))
    with pytest.raises(MalformedReply):
        list(client_for(server.url).chat_stream(QUESTION))


def test_half_an_emoji_is_dropped_where_the_reply_is_read(server):
    # "\ud83d" with no partner: kept, it crashed the event log and Whisper's prompt, and
    # every later request carrying the reply failed to encode.
    server.script(Reply(pieces=["It is Paris ", "\ud83d. ", "Lovely \U0001f600!"]))
    text = "".join(client_for(server.url).chat_stream(QUESTION))
    assert text == "It is Paris . Lovely \U0001f600!"
    text.encode("utf-8")


@pytest.mark.parametrize(
    "line",
    [
        '{"message": null, "done": false}',
        '{"message": "Paris", "done": false}',
        '{"message": {"content": "x", "tool_calls": 5}, "done": false}',
        '{"message": {"content": "x", "tool_calls": [{"function": {"name": "set_timer", '
        '"arguments": "' + "[" * 100_000 + '"}}]}, "done": false}',
        "[" * 100_000,
        '{"message": {"content": "x"}, "eval_count": ' + "9" * 5000 + "}",
    ],
    ids=["null message", "text message", "tool_calls a number", "deep arguments",
         "deep line", "a 5000-digit number"],
)  # fmt: skip
def test_a_reply_of_a_shape_no_server_sends_is_malformed_not_a_crash(server, line):
    # Each raised AttributeError, TypeError, RecursionError or ValueError past the client: a
    # traceback in the log and the generic apology instead of "I couldn't read the answer".
    server.script(Reply(text="Well", raw_lines=[line]))
    with pytest.raises(MalformedReply):
        list(client_for(server.url).chat_stream(QUESTION))


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("", "http://127.0.0.1:11434"),
        ("0.0.0.0", "http://0.0.0.0:11434"),
        ("box.lan", "http://box.lan:11434"),
        ("box.lan:8080", "http://box.lan:8080"),
        ("https://ollama.example.com", "https://ollama.example.com:443"),
        ("http://10.0.0.5", "http://10.0.0.5:80"),
        ("http://10.0.0.5:11434/ollama", "http://10.0.0.5:11434/ollama"),
        ("[::1]:9000", "http://[::1]:9000"),
    ],
)
def test_ollama_host_is_read_as_ollamas_clients_read_it(value, expected):
    assert parse_ollama_host(value) == expected


def test_the_setting_wins_over_the_environment():
    assert ollama_base_url(OllamaSettings(url="http://a:1/"), {"OLLAMA_HOST": "b"}) == "http://a:1"
    assert ollama_base_url(OllamaSettings(), {"OLLAMA_HOST": "b:2"}) == "http://b:2"


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        # Ollama's own clients quietly use 11434 and 127.0.0.1:80 here: a request sent elsewhere.
        ("127.0.0.1:99999", "the port must be a number from 1 to 65535"),
        ("box.lan:0", "the port must be a number from 1 to 65535"),
        ("box.lan:eleven", "the port must be a number from 1 to 65535"),
        ("http://[::1", "is not an address"),
        ("ftp://box.lan", "the scheme must be http or https"),
    ],
)
def test_an_ollama_host_that_is_no_address_is_refused_by_name(value, problem):
    with pytest.raises(BadModelAddress) as error:
        parse_ollama_host(value)
    assert str(error.value) == f"OLLAMA_HOST={value!r}: {problem}" or (
        str(error.value) == f"OLLAMA_HOST={value!r} {problem}"
    )


def test_a_server_dripping_a_byte_at_a_time_meets_the_first_sentence_deadline(server):
    # Every read gets a byte, so the wait between reads (5 s) never fires: only a deadline does.
    server.script(Reply(text="Nairobi is the capital of Kenya.", drip_seconds=0.02))
    client = client_for(server.url, reply_timeout_seconds=5, first_sentence_seconds=0.5)
    started = time.monotonic()
    with pytest.raises(ReplyTimeout) as error:
        list(client.chat_stream(QUESTION))
    assert time.monotonic() - started < 2.0
    assert "no sentence within 0.5 s" in str(error.value)
    assert error.value.spoken == "The language model took too long to answer."
    # The next question is answered on a fresh connection while the dripping one is abandoned.
    assert "".join(client.chat_stream(QUESTION)).startswith("You asked")


def test_the_whole_reply_has_a_deadline_once_it_has_begun(server):
    pieces = ["Nairobi is the capital. ", *(["and then the river "] * 200)]
    server.script(Reply(pieces=pieces, delay_between=0.01, drip_seconds=0.0005))
    client = client_for(server.url, first_sentence_seconds=5, whole_reply_seconds=1.0)
    deadline = client.deadline()
    received = []
    with pytest.raises(ReplyTimeout) as error:
        for piece in client.chat_stream(QUESTION, deadline):
            received.append(piece)
            deadline.sentence_done()
    assert received[0] == "Nairobi is the capital. " and len(received) < len(pieces)
    assert error.value.spoken == "The language model was taking too long, so I stopped there."


def test_reply_deadlines_as_pure_arithmetic():
    now = [100.0]
    deadline = ReplyDeadline(10.0, 60.0, clock=lambda: now[0])
    now[0] = 109.0
    assert deadline.seconds_left() == pytest.approx(1.0)  # the first sentence's deadline
    deadline.sentence_done()
    assert deadline.seconds_left() == pytest.approx(51.0)  # now the whole reply's
    now[0] = 161.0
    assert deadline.seconds_left() < 0
    assert "not complete within 60 s" in str(deadline.expired())


def test_a_reply_called_off_stops_the_wait_for_the_model_at_once(server):
    # A model slow to begin (a Pi's prompt evaluation): the turn is withdrawn while it waits.
    server.script(Reply(text="Sunny all day.", delay_first=30.0))
    client = client_for(server.url, reply_timeout_seconds=60, first_sentence_seconds=60)
    deadline = client.deadline()
    outcome: list[object] = []

    def read() -> None:
        try:
            outcome.append(list(client.chat_stream(QUESTION, deadline)))
        except TurnWithdrawn as error:
            outcome.append(error)

    reader = threading.Thread(target=read)
    reader.start()
    asked = time.monotonic() + 10.0
    while not server.chat_requests() and time.monotonic() < asked:
        time.sleep(0.01)
    deadline.call_off()
    reader.join(10.0)  # the model would answer after 30 s
    assert not reader.is_alive() and isinstance(outcome[0], TurnWithdrawn)
