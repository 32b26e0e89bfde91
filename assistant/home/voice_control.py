"""Home control by voice: a request about the home goes to Home Assistant, and its answer is said.

The brain asks :meth:`HomeControl.take` before its own commands and the model: a request that
:func:`is_home_request` recognises is sent to Home Assistant's conversation agent, which acts and
answers; what it says (or what went wrong: unreachable, too slow, the token refused, an error) is
the reply. :meth:`HomeControl.request` is the same call for a model's tool: text in, the answer
out.
"""

from __future__ import annotations

from assistant.home.conversation import HomeAnswer, HomeAssistantConversation
from assistant.home.home_requests import is_home_request
from assistant.reply import HeardUtterance, Note, ReplyPart, Sentence


class HomeControl:
    """Requests about the home, carried out by Home Assistant."""

    def __init__(self, conversation: HomeAssistantConversation):
        self._conversation = conversation

    def take(self, heard: HeardUtterance) -> list[ReplyPart] | None:
        """The reply to ``heard`` if it is about the home, else None (not Home Assistant's)."""
        if not is_home_request(heard.text):
            return None
        answer = self._conversation.process(heard.text)
        fields = {"request": heard.text, "speech": answer.speech, "done": answer.done}
        if answer.problem is not None:
            fields["problem"] = answer.problem.value
        return [Note("home", fields), Sentence(answer.speech)]

    def ask(self, request: str) -> str:
        """Ask Home Assistant to act on ``request``; the words to say (its answer, or what went
        wrong). Never raises: for a language model's tool as much as for the voice."""
        return self.request(request).speech

    def request(self, request: str) -> HomeAnswer:
        """Ask Home Assistant to act on ``request``: its whole answer (the words, and whether it
        did it or what went wrong). Never raises."""
        return self._conversation.process(request)

    def close(self) -> None:
        """Close the connection to Home Assistant."""
        self._conversation.close()
