"""Where a review (review.py) is made: a worker process of its own, or a thread.

A review asks the Hard CPU at every human move: seconds of pure Python CPU (Hachinin
Meri with 8 humans about 30 s). Made in a thread of the server it would hold the
interpreter lock against the event loop, and every room's moves would wait for it
(`python -m tests.bench.bench_review --latency` prints a move's latency with either). So
the server makes reviews in one worker process (`ProcessWorker`): started when first
needed, run at a lower priority (`NICE` by default, `serve --review-nice`) so the
server's own CPU comes first, given one
match at a time, and stopped when the review queue has been idle a while. It is this
module run as a program: jobs come on its stdin, progress and the review go back on its
stdout, each a length-prefixed pickle (between the server and its own child only). What
the process says on its stderr (its own log lines, one line each, never a traceback) the
server reads and logs through its own logging, one bounded line each (`STDERR_LINES` of
them at most per process); a review that fails there comes back as a one-line
`ReviewFailed`.

`ThreadWorker` makes a review in a thread of the caller (what an `Archive` made without
a worker uses: tests, tools) and is where `ProcessWorker` falls back to when its process
cannot start or dies during a job.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import struct
import sys
import traceback
from types import TracebackType
from typing import IO, Any, Protocol

from server.games.contract import Game
from server.logs import one_line
from server.rooms.history import review
from server.rooms.history.matches import MatchRecord, ReplayError

NICE = 10
HEADER = struct.Struct(">I")
STDERR_LINES = 50
"""Lines of a worker process's stderr logged at most (a fault's dump is cut there)."""
log = logging.getLogger(__name__)


class Worker(Protocol):
    """What the review queue makes reviews with."""

    async def analyse(
        self, game: Game, match: MatchRecord, progress: review.Progress
    ) -> dict[str, Any]:
        """`review.analyse(game, match, progress)`, `progress` called on the event loop."""

    async def aclose(self) -> None:
        """Stop whatever it runs (a job under way fails)."""

    async def idle(self) -> None:
        """Nothing to do for a while: let go of what it holds until the next job."""

    @property
    def alive(self) -> bool:
        """Whether a worker process runs now (for /metrics)."""


class ThreadWorker:
    """Makes each review in a thread (progress is a plain write, safe from there)."""

    async def analyse(
        self, game: Game, match: MatchRecord, progress: review.Progress
    ) -> dict[str, Any]:
        """The review, made in a worker thread."""
        return await asyncio.to_thread(review.analyse, game, match, progress)

    async def aclose(self) -> None:
        """Nothing to stop."""

    async def idle(self) -> None:
        """Nothing to let go."""

    @property
    def alive(self) -> bool:
        """No process: never."""
        return False


class WorkerGone(RuntimeError):
    """The worker process could not start or ended during a job."""


class ReviewFailed(RuntimeError):
    """The review failed in the worker process (which goes on): one line saying why."""


class ProcessWorker:
    """One worker process making reviews, one at a time (the queue's order)."""

    def __init__(self, nice: int = NICE) -> None:
        self.nice = nice  # how much lower than the server's its process's priority is
        self._proc: asyncio.subprocess.Process | None = None
        self._stderr: asyncio.Task[None] | None = None
        self.fallback = ThreadWorker()
        self.started = 0  # processes started (figures, tests)

    async def analyse(
        self, game: Game, match: MatchRecord, progress: review.Progress
    ) -> dict[str, Any]:
        """The review made by the worker process; in a thread if the process fails."""
        try:
            return await self._in_process(game, match, progress)
        except WorkerGone as exc:
            log.warning("review worker process failed (%s); making this review in a thread", exc)
            await self.aclose()
            return await self.fallback.analyse(game, match, progress)

    async def _in_process(
        self, game: Game, match: MatchRecord, progress: review.Progress
    ) -> dict[str, Any]:
        proc = await self._running()
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(frame((game, match)))
            await proc.stdin.drain()
            while True:
                (size,) = HEADER.unpack(await proc.stdout.readexactly(HEADER.size))
                kind, *rest = pickle.loads(await proc.stdout.readexactly(size))
                if kind == "progress":
                    progress(*rest)
                elif kind == "review":
                    return rest[0]
                elif kind == "replay_error":
                    raise ReplayError(*rest)
                else:
                    # A fault of the review, not of the process: a thread would fail alike.
                    raise ReviewFailed(rest[0])
        except (asyncio.IncompleteReadError, ConnectionError):
            code = await self._end(proc)
            raise WorkerGone(f"the worker process ended (exit code {code})") from None

    async def _end(self, proc: asyncio.subprocess.Process) -> int:
        """The exit code of a process whose pipe closed (killed if it lingers)."""
        try:
            return await asyncio.wait_for(proc.wait(), 10)
        except TimeoutError:
            proc.kill()
            return await proc.wait()

    async def _running(self) -> asyncio.subprocess.Process:
        if self._proc is not None and self._proc.returncode is None:
            return self._proc
        # The child imports the server as this process does (a checkout, a test's path).
        path = [p or os.getcwd() for p in sys.path]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
        try:
            self._proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                __name__,
                str(self.nice),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=env,
            )
        except OSError as exc:
            raise WorkerGone(f"cannot start the worker process: {exc}") from None
        self.started += 1
        assert self._proc.stderr is not None
        self._stderr = asyncio.create_task(
            log_stderr(self._proc.stderr, self._proc.pid), name="review-worker-stderr"
        )
        return self._proc

    @property
    def pid(self) -> int | None:
        """The worker process's id while it runs, else None."""
        return self._proc.pid if self._proc is not None and self._proc.returncode is None else None

    @property
    def alive(self) -> bool:
        """Whether the worker process runs now (started at need, stopped when idle)."""
        return self._proc is not None and self._proc.returncode is None

    async def idle(self) -> None:
        """Stop the process (its memory back) until the next review."""
        await self.aclose()

    async def aclose(self) -> None:
        """Stop the process: its stdin closed, it ends; killed if it is in a job."""
        proc, self._proc = self._proc, None
        reader, self._stderr = self._stderr, None
        if proc is not None and proc.returncode is None:
            proc.kill()
            await proc.wait()
        if reader is not None:
            await reader  # ends at the pipe's end: all it said is logged


async def log_stderr(stream: asyncio.StreamReader, pid: int) -> None:
    """Log each line worker process `pid` writes on its stderr (up to STDERR_LINES of
    them, each cut to one bounded line) until the pipe ends."""
    said = 0
    while True:
        try:
            line = await stream.readline()
        except ValueError:  # a line past the stream's limit: its start is gone, skip it
            line = b"(a line too long to read)\n"
        if not line:
            return
        said += 1
        if said <= STDERR_LINES:
            text = line.decode(errors="replace").rstrip("\n")
            log.warning("review worker %d: %s", pid, one_line(text))
        elif said == STDERR_LINES + 1:
            log.warning("review worker %d: more on its stderr, not logged", pid)


def frame(message: Any) -> bytes:
    """One message as sent on the pipe: its length, then its pickle."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(data)) + data


def read_frame(stream: IO[bytes]) -> Any:
    """The next message on `stream`, or None at its end."""
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    data = stream.read(HEADER.unpack(head)[0])
    return pickle.loads(data)


def failure(exc: BaseException) -> str:
    """One line for a failure: the exception and where it was raised (no traceback)."""
    where = traceback.extract_tb(exc.__traceback__)[-1:]
    place = f" (at {os.path.basename(where[0].filename)}:{where[0].lineno})" if where else ""
    return one_line(exc) + place


class OneLine(logging.Formatter):
    """The worker's log lines on its stderr: level, logger, message; one line, no
    traceback (the server logs each line it reads as one of its own)."""

    def format(self, record: logging.LogRecord) -> str:
        """`LEVEL logger message`, any exception as one line after it."""
        line = f"{record.levelname} {record.name} {record.getMessage()}"
        if record.exc_info and record.exc_info[1] is not None:
            line += ": " + failure(record.exc_info[1])
        return one_line(line)


def uncaught(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    """`sys.excepthook` of the worker: an exception that ends it, said as one line."""
    exc.__traceback__ = tb
    print("worker ended by " + failure(exc), file=sys.stderr, flush=True)


def main() -> None:
    """The worker process: make the review of each (game, match) read from stdin."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    sys.excepthook = uncaught
    nice = int(sys.argv[1]) if len(sys.argv) > 1 else NICE
    with contextlib.suppress(OSError):  # a priority it may not lower: it runs at the server's
        os.nice(nice)
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed goes to stderr, never into the pipe
    sys.stdout = sys.stderr
    jobs = sys.stdin.buffer
    while True:
        job = read_frame(jobs)
        if job is None:
            return
        game, match = job

        def progress(done: int, total: int) -> None:
            out.write(frame(("progress", done, total)))
            out.flush()

        try:
            made = review.analyse(game, match, progress)
        except ReplayError as exc:
            answer: tuple[Any, ...] = ("replay_error", exc.step, exc.entry, exc.reason)
        except Exception as exc:  # noqa: BLE001 - told to the server, which logs it
            answer = ("error", failure(exc))
        else:
            answer = ("review", made)
        out.write(frame(answer))
        out.flush()


if __name__ == "__main__":
    main()
