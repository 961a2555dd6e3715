"""Security headers on every HTTP answer: what the browser may run, frame and send.

The page runs only its own script files (the client has no inline scripts or handler
attributes: `components.el` adds listeners), so the Content-Security-Policy allows
scripts from this origin alone and an injected inline script or handler does not run.
Styles may be inline (the tables set a few style attributes); that runs no code.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        # The websocket is this origin's: 'self' covers ws: and wss: to it.
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        # The table opens the rules pages in a frame of its own; no other site may.
        "frame-ancestors 'self'",
    ]
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    # frame-ancestors' older form, for browsers that predate it.
    (b"x-frame-options", b"SAMEORIGIN"),
    # Room codes live in the page's address; other sites learn nothing of it.
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]


class SecurityHeaders:
    """ASGI middleware adding `HEADERS` to every HTTP response (not websockets)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
