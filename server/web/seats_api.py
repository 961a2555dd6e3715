"""HTTP routes for what players and hosts do with seats: leave, take back from the CPU,
rename, the host's re-issue and hand-over, and "your rooms". See PROTOCOL.md.

Tokens travel only in request bodies (never in a path or query string, which proxies
and servers log).
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from server.rooms.errors import RoomError
from server.rooms.seats.seat import normalize_code
from server.rooms.seats.your_rooms import MAX_ENTRIES
from server.web.api import body, field, spend, translated


def _seat(request: Request) -> int:
    raw = request.path_params["seat"]
    if not raw.isdigit() or len(raw) > 3:
        raise RoomError("bad_seat", "no such seat")
    return int(raw)


async def _summary(request: Request, code: str) -> Response:
    return JSONResponse(await request.app.state.services.manager.room_summary(code))


async def leave_seat(request: Request) -> Response:
    """Leave one's seat (open again in the lobby, a CPU's in a match); the summary."""
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    await request.app.state.services.manager.leave_seat(code, field(data, "token", str))
    return await _summary(request, code)


async def take_back(request: Request) -> Response:
    """Play one's seat again after a CPU covered it; the summary."""
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    await request.app.state.services.manager.take_back_seat(code, field(data, "token", str))
    return await _summary(request, code)


async def rename(request: Request) -> Response:
    """Change the display name at one's seat; the summary."""
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    manager = request.app.state.services.manager
    await manager.rename_seat(code, field(data, "token", str), field(data, "name", str))
    return await _summary(request, code)


async def reissue(request: Request) -> Response:
    """The host makes a new token for a human seat; the old one stops working."""
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    seat = _seat(request)
    manager = request.app.state.services.manager
    token = await manager.reissue_seat(code, field(data, "token", str), seat)
    return JSONResponse({"code": code, "seat": seat, "token": token})


async def hand_to_cpu(request: Request) -> Response:
    """The host has a CPU play a human seat now; the summary."""
    data = await body(request)
    code = normalize_code(request.path_params["code"])
    manager = request.app.state.services.manager
    await manager.hand_to_cpu(code, field(data, "token", str), _seat(request))
    return await _summary(request, code)


async def your_rooms(request: Request) -> Response:
    """Each held seat's room, as far as that seat may know it; a lookup per room asked."""
    data = await body(request)
    held = field(data, "seats", list)
    if len(held) > MAX_ENTRIES:
        raise RoomError("bad_request", f"ask about at most {MAX_ENTRIES} seats at once")
    pairs = []
    for entry in held:
        if not isinstance(entry, dict):
            raise RoomError("bad_request", 'each of "seats" must be {"code", "token"}')
        code, token = field(entry, "code", str), field(entry, "token", str)
        if len(code) > 16 or len(token) > 64:
            raise RoomError("bad_request", "a room code or token is far too long")
        pairs.append((code, token))
    # A lookup per room asked, as GET /api/rooms/{code} would spend (a room is read with
    # its journal, about as dear as loading it).
    spend(request, "lookups", len({normalize_code(code) for code, _ in pairs}))
    rooms = await request.app.state.services.manager.your_rooms(pairs)
    return JSONResponse({"rooms": rooms})


routes = [
    Route("/api/rooms/{code}/leave", translated(leave_seat), methods=["POST"]),
    Route("/api/rooms/{code}/back", translated(take_back), methods=["POST"]),
    Route("/api/rooms/{code}/name", translated(rename), methods=["POST"]),
    Route("/api/rooms/{code}/seats/{seat}/reissue", translated(reissue), methods=["POST"]),
    Route("/api/rooms/{code}/seats/{seat}/cpu", translated(hand_to_cpu), methods=["POST"]),
    Route("/api/your-rooms", translated(your_rooms), methods=["POST"]),
]
