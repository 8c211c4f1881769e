"""The chat's refusals: said to the member as they are, and nothing is stored or changed."""

from __future__ import annotations


class ChatError(Exception):
    """A line or a mute the chat refuses; the text is for the member."""

    def __init__(self, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
