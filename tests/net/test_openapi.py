"""The OpenAPI 3.1 document at /openapi.json.

It describes every route the app serves (and nothing it does not), and schemathesis,
run against a live `zashiki serve` process, finds no 5xx and no answer off the schema:
seeded (derandomized), a fixed number of examples per operation plus each operation's
fixed example, once with random room codes and once with a real room's code.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from starlette.routing import Mount, Route

from server.web.app import create_app
from server.web.openapi import document as assembled
from tests.net.conftest import ServerProcess


def seeded(examples: int) -> Any:
    """Hypothesis settings: derandomized (the same cases every run), `examples` each."""
    return settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )


api = schemathesis.pytest.from_fixture("api_schema")
api_without_coverage = schemathesis.pytest.from_fixture("api_schema_without_coverage")
# Every check but "a schema-valid request is accepted": the schema cannot say which
# option values a game takes, which seat numbers a room has or which name is a game's,
# and the server rightly answers those with 400 (bad_option, bad_seat, bad_game).
EXCLUDED = [schemathesis.checks.positive_data_acceptance]
cases: Counter[str] = Counter()


def served_operations() -> set[tuple[str, str]]:
    """(method, path) for every HTTP route of the app; the browser client's mount as GET /."""
    served = set()
    for route in create_app().routes:
        if isinstance(route, Route):
            for method in route.methods or ():
                if method != "HEAD":  # starlette adds HEAD to every GET
                    served.add((method.lower(), route.path))
        elif isinstance(route, Mount) and route.name == "client":
            served.add(("get", "/"))
    return served


def document() -> dict[str, Any]:
    """The document of the app's routes, as /openapi.json serves it."""
    return assembled(create_app().routes)


def golden() -> str:
    """The document as its golden copy keeps it: indented JSON, keys in document order."""
    return json.dumps(document(), indent=1, ensure_ascii=False) + "\n"


def test_every_served_route_is_described_and_nothing_else() -> None:
    described = {(m, p) for p, item in document()["paths"].items() for m in item}
    served = served_operations()
    assert served - described == set(), "routes served without a description (openapi.Described)"
    assert described - served == set(), "described but not served"
    assert any(path.startswith("/api/") for _, path in served)


GOLDEN = Path(__file__).with_name("openapi.golden.json")


def test_the_document_is_its_golden_copy() -> None:
    """A change to the document is meant only with its golden copy regenerated
    (`python3 -m tests.net.test_openapi > tests/net/openapi.golden.json`) and its diff read."""
    kept = GOLDEN.read_text(encoding="utf-8")
    again = "if meant: python3 -m tests.net.test_openapi > tests/net/openapi.golden.json"
    assert document() == json.loads(kept), f"the document differs from its golden copy; {again}"
    assert golden() == kept, f"the same content in another order or layout; {again}"


def test_the_document_is_served_and_valid_openapi_3_1(server: ServerProcess) -> None:
    answer = httpx.get(server.url + "/openapi.json")
    assert answer.status_code == 200
    assert answer.json() == document()
    assert answer.json()["openapi"].startswith("3.1")
    # Loading it validates it against the OpenAPI 3.1 meta-schema.
    schemathesis.openapi.from_dict(answer.json()).validate()


@pytest.fixture(scope="module")
def api_schema(server: ServerProcess) -> Any:
    """The live server's own document, as schemathesis loads it: every phase (the fixed
    examples, the coverage phase's boundary values, then generated cases)."""
    return schemathesis.openapi.from_url(server.url + "/openapi.json")


@pytest.fixture(scope="module")
def api_schema_without_coverage(server: ServerProcess) -> Any:
    """The same without the coverage phase (already run once, with random codes)."""
    schema = schemathesis.openapi.from_url(server.url + "/openapi.json")
    schema.config.phases.coverage.enabled = False
    return schema


@pytest.fixture(scope="module")
def real_room(server: ServerProcess) -> Iterator[str]:
    """A public room with an open seat, so room routes also meet an existing room."""
    answer = httpx.post(server.url + "/api/rooms", json={"game": "usunoro", "public": True})
    assert answer.status_code == 201
    yield answer.json()["code"]


@api.parametrize()
@seeded(5)
def test_random_requests_get_no_5xx_and_answers_match_the_schema(case: Any) -> None:
    cases["random"] += 1
    case.call_and_validate(excluded_checks=EXCLUDED)


@api_without_coverage.include(path_regex=r"\{code\}").parametrize()
@seeded(10)
def test_requests_for_a_real_room_get_answers_matching_the_schema(
    case: Any, real_room: str
) -> None:
    cases["real room"] += 1
    case.path_parameters["code"] = real_room
    case.call_and_validate(excluded_checks=EXCLUDED)


def test_schemathesis_ran_every_operation() -> None:
    """Reported with -s; at least one case per operation, or the run above was empty."""
    operations = sum(len(item) for item in document()["paths"].values())
    print(f"\nschemathesis: {sum(cases.values())} cases ({dict(cases)}), {operations} operations")
    assert cases["random"] >= operations


if __name__ == "__main__":
    print(golden(), end="")
