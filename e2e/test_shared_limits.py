"""Two `latchkey serve` processes sharing rate limits through one Redis (LATCHKEY_REDIS_URL)."""
import subprocess

import pytest
import requests

from conftest import ROOT

SCRIPT = ROOT / "scripts" / "redis-test-server.sh"


@pytest.fixture
def redis_url(tmp_path):
    """A throwaway Redis of this test's own; stopped afterwards."""
    directory = tmp_path / "redis"
    url = subprocess.run([str(SCRIPT), "start", str(directory)], check=True, capture_output=True, text=True).stdout.strip()
    yield url
    subprocess.run([str(SCRIPT), "stop", str(directory)], check=True)


def test_two_instances_share_one_budget_and_refuse_when_redis_is_gone(make_server, redis_url, tmp_path):
    settings = {"LATCHKEY_REDIS_URL": redis_url, "LATCHKEY_RESET_VALIDATE_IP_LIMIT": "5/600"}
    first, second = make_server(**settings), make_server(**settings)

    statuses = [(first if i % 2 == 0 else second).post("/auth/password/validate", {"token": "x" * 43}).status_code
                for i in range(6)]
    # Five requests share one budget of five, whichever instance answers; the sixth is over it.
    assert statuses[:5] == [400] * 5
    assert statuses[5] == 429

    subprocess.run([str(SCRIPT), "stop", str(tmp_path / "redis")], check=True)
    response = second.post("/auth/password/validate", {"token": "x" * 43})
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert "rate_limiter_unavailable" in second.log()
    metrics = requests.get(second.base + "/metrics", timeout=10).text
    assert "latchkey_rate_limiter_unavailable_total 1\n" in metrics
