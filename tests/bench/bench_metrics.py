"""How long rendering the process figures of /metrics takes: ours against
prometheus_client's ProcessCollector (which must be installed for the comparison).

    python3 -m tests.bench.bench_metrics [--rounds N]

Both run only when /metrics is scraped; neither touches the move path.
"""

from __future__ import annotations

import argparse
import time

from server.web import process_metrics


def per_call_us(run, rounds: int) -> float:  # type: ignore[no-untyped-def]
    """Mean microseconds of one call of `run`."""
    started = time.perf_counter()
    for _ in range(rounds):
        run()
    return (time.perf_counter() - started) / rounds * 1e6


def main() -> None:
    """Print both figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2000)
    rounds = parser.parse_args().rounds
    print(f"ours (process_metrics.lines): {per_call_us(process_metrics.lines, rounds):.1f} µs")
    try:
        from prometheus_client import CollectorRegistry, ProcessCollector, generate_latest
    except ImportError:
        print("prometheus_client is not installed: no comparison")
        return
    registry = CollectorRegistry()
    ProcessCollector(registry=registry)
    theirs = per_call_us(lambda: generate_latest(registry), rounds)
    print(f"prometheus_client ProcessCollector: {theirs:.1f} µs")


if __name__ == "__main__":
    main()
