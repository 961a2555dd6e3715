"""The installable app's shell: the list of the browser client's files its service
worker (client/web/sw.js) stores at install, so the lobby and "Your rooms" open without
the network.

Made once per process from the files the server serves: every file under client/web but
the service worker itself, the icons' SVG sources and the vendored libraries' licences,
"/" standing for index.html.
"""

from __future__ import annotations

import functools
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from server.web.openapi import Described, json_answer

LEFT_OUT = (".txt", ".md", ".py")


@functools.cache
def shell(root: Path) -> dict[str, list[str]]:
    """{"files": [path, ...]}: the shell of the client under `root`.

    >>> files = shell(Path(__file__).parents[2] / "client" / "web")["files"]
    >>> "/" in files and "/app.js" in files and "/sw.js" not in files
    True
    """
    files = []
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        source = relative.startswith("icons/") and path.suffix == ".svg"
        if path.is_file() and path.suffix not in LEFT_OUT and not source and relative != "sw.js":
            files.append("/" if relative == "index.html" else "/" + relative)
    return {"files": files}


def route(root: Path) -> Described:
    """GET /app-shell.json for the client under `root`."""

    async def app_shell(request: Request) -> Response:
        """The files the service worker stores (the browser asks afresh every time)."""
        return JSONResponse(shell(root), headers={"Cache-Control": "no-cache"})

    files = {
        "type": "object",
        "required": ["files"],
        "properties": {"files": {"type": "array", "items": {"type": "string"}}},
    }
    operations = {
        "get": {
            "operationId": "appShell",
            "summary": "The browser client's files the service worker keeps for offline use",
            "responses": {"200": json_answer("every file's path", files)},
        }
    }
    return Described("/app-shell.json", app_shell, operations)
