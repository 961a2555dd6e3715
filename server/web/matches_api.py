"""HTTP routes of a room's match history: the list with standings, a match's file, and
pages of replay steps for the browser's replay viewer. See PROTOCOL.md.

A player proves their seat with `Authorization: Bearer TOKEN` (never in the path or the
query string, which proxies log); without it the caller is a spectator.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from server.rooms.errors import RoomError
from server.web.api import spend, translated

MAX_NUMBER_DIGITS = 6


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
        raise RoomError("bad_token", "send a seat token as 'Authorization: Bearer TOKEN'")
    return token.strip()


def _number(text: str, name: str) -> int:
    if not text.isdigit() or len(text) > MAX_NUMBER_DIGITS:
        raise RoomError("bad_request", f"{name} must be a whole number")
    return int(text)


async def list_matches(request: Request) -> Response:
    """The room's finished matches (number, dates, seats, places, winners, scores) and
    the standings across its play-again series."""
    spend(request, "lookups")
    return JSONResponse(
        await request.app.state.services.archive.listing(request.path_params["code"])
    )


async def match_file(request: Request) -> Response:
    """Match n's file: the full file for a player of the room, the spectator file else."""
    spend(request, "lookups")
    code = request.path_params["code"]
    number = _number(request.path_params["n"], "the match number")
    data = await request.app.state.services.archive.match_file(code, number, _bearer(request))
    filename = f"zashiki-{code.upper()[:6]}-match-{number}.json"
    headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
    if "download" not in request.query_params:
        headers = {}
    return JSONResponse(data, headers=headers)


async def match_steps(request: Request) -> Response:
    """A page of replay steps from one perspective (?seat=N|open|spectator, ?from, ?count)."""
    spend(request, "lookups")
    code = request.path_params["code"]
    number = _number(request.path_params["n"], "the match number")
    query = request.query_params
    start = _number(query.get("from", "0"), "from")
    count = _number(query.get("count", "50"), "count")
    archive = request.app.state.services.archive
    steps = await archive.steps(code, number, _bearer(request), query.get("seat"), start, count)
    return JSONResponse(steps)


routes = [
    Route("/api/rooms/{code}/matches", translated(list_matches), methods=["GET"]),
    Route("/api/rooms/{code}/matches/{n}", translated(match_file), methods=["GET"]),
    Route("/api/rooms/{code}/matches/{n}/steps", translated(match_steps), methods=["GET"]),
]
