"""Power of the door's audit: the excess over epsilon refused with probability 0.8 (issue #44).

A GRR sampler at ``epsilon + delta`` claims ``epsilon`` with no channel (and the
declared ``p``, ``q`` of ``epsilon``), at ``k = 2`` with the door's sample size; the
refusal rate over seeds is printed for each ``delta``. The smallest ``delta``
refused in at least 80% of seeds is :data:`ldpfair.ldp.audit.DETECTABLE_EXCESS`.
Run: ``python benchmarks/bench_audit_power.py [--seeds 20]``.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from ldpfair.ldp import GRR, FrequencyOracle
from ldpfair.ldp.audit import DEFAULT_SAMPLES, PrivacyAuditError, audit


class _Leaky(FrequencyOracle):
    """GRR at ``epsilon + delta`` declaring ``p``, ``q`` of ``epsilon``."""

    delta = 0.0
    name = "leaky"

    @property
    def p(self) -> float:
        return math.exp(self.epsilon) / (math.exp(self.epsilon) + self.k - 1)

    @property
    def q(self) -> float:
        return 1 / (math.exp(self.epsilon) + self.k - 1)

    def perturb(self, values: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return GRR(self.k, self.epsilon + self.delta).perturb(values, rng)

    def support(self, reports: np.ndarray) -> np.ndarray:
        return np.eye(self.k, dtype=bool)[np.asarray(reports)]


def main() -> None:
    """Print the refusal rate per (epsilon, delta)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--eps", type=float, nargs="+", default=[0.5, 1.0, 4.0])
    ap.add_argument("--deltas", type=float, nargs="+", default=[0.005, 0.01, 0.02, 0.05, 0.1])
    args = ap.parse_args()
    for eps in args.eps:
        for delta in args.deltas:
            refused = 0
            for s in range(args.seeds):
                mech = _Leaky(2, eps)
                mech.delta = delta
                try:
                    audit(mech, eps, samples=DEFAULT_SAMPLES, rng=np.random.default_rng([44, s]))
                except PrivacyAuditError:
                    refused += 1
            print(f"epsilon={eps:g} delta={delta:g}: refused {refused}/{args.seeds}", flush=True)


if __name__ == "__main__":
    main()
