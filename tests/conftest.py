"""Settings every test shares.

Hypothesis's default deadline (200 ms an example) and its too-slow health check measure the
machine, not the code: on a busy 2-core machine an example that takes 0.2 ms alone can take
300 ms. No property test here is about time, so neither applies; tests that bound time say so
with their own clocks.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile("gamerec", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gamerec")
