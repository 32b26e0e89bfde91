"""What can go wrong when asking a language model, each with a short sentence to say aloud.

Every failure is one ModelError subclass whose ``spoken`` text is short and specific enough to be
said in a room: what happened and, where the user can fix it, how. Shared by every model client.
"""

from __future__ import annotations


class ModelError(Exception):
    """The language model could not answer; ``spoken`` says so in one short sentence."""

    spoken = "Something went wrong with the language model."


class ModelUnreachable(ModelError):
    """Nothing answers at the model server's address."""

    spoken = "I can't reach the language model. Is its server running?"


class ReplyTimeout(ModelError):
    """The reply (or its first sentence, or its next piece) did not arrive in time."""

    spoken = "The language model took too long to answer."

    def __init__(self, message: str, spoken: str | None = None):
        super().__init__(message)
        if spoken is not None:
            self.spoken = spoken


class ModelHttpError(ModelError):
    """The model server answered with an HTTP error."""

    def __init__(self, status: int, message: str):
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.spoken = f"The language model reported an error, code {status}."


class StreamCut(ModelError):
    """The reply stopped before the server said it was done."""

    spoken = "My answer was cut off."


class MalformedReply(ModelError):
    """The server sent something that is not its wire format."""

    spoken = "The language model sent something I couldn't read."


class ToolsUnsupported(ModelError):
    """The model cannot call tools: the server refused a request that offered them."""

    spoken = "The language model can't use tools."

    def __init__(self, model: str):
        super().__init__(f"model {model!r} does not support tools")
        self.model = model
