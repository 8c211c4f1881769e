"""Django's ASGI handler, with the middleware and the view run in one worker thread per request.

Why: WhiteNoise's middleware is synchronous only, the other middleware can be either, and the views
are synchronous. Left to itself, Django runs the chain in both modes and switches between them at every
boundary: the event loop hands the request to a thread (Security, WhiteNoise), which hands it back to the
loop (Session ... allauth, whose synchronous hooks each go out to a thread and back again), which hands
the view to a thread once more. Under load every one of those switches costs CPU and waits. Here the
chain is built synchronous, as under WSGI, and the loop hands each request to its thread exactly once.
Nothing else changes: the same middleware run in the same order, and WebSockets do not pass here.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler


class SyncChainASGIHandler(ASGIHandler):
    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        self._middleware_chain = sync_to_async(self._middleware_chain, thread_sensitive=True)
