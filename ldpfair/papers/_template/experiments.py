"""Template chapter: profiles and experiment declarations (cheap to import).

Copy this package to ``ldpfair/papers/<paper>/`` and replace the example, a
check of generalised randomised response's frequency estimates against their
analytic variance, by the paper's experiments. Keep this module free of
plotting and of result reading: the registry imports it to list the
experiments, and ``ldpfair run`` to check a reader's parameters.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...experiments import Sweep
from ...experiments.parameters import Param, epsilons, n_jobs_param, profile_param, seeds
from ...identity import versioned
from ...ldp import GRR
from ..contract import Profile

__all__ = ["PROFILES", "PARAMETERS", "declare", "estimation_error"]

#: The overridable parameters of each profile: ``quick`` is computed in CI, ``paper``
#: is the paper's setting (its results are committed under ``results/<paper>/``).
PROFILES: dict[str, Profile] = {
    "quick": Profile("quick", {"epsilons": (1.0, 4.0), "seeds": 3, "n": 2_000, "k": 10}),
    "paper": Profile("paper", {"epsilons": (0.5, 1.0, 2.0, 4.0, 8.0), "seeds": 20, "n": 10_000, "k": 10}),
}


@versioned("1", name="ldpfair.papers._template.estimation_error")
def estimation_error(k: int, epsilon: float, n: int, rng: np.random.Generator) -> dict[str, Any]:
    """One collection: ``n`` users with values uniform on ``k``, perturbed by GRR.

    Parameters
    ----------
    k, epsilon : int, float
        Domain size and privacy budget.
    n : int
        Number of users.
    rng : numpy.random.Generator
        The task's generator (given by the sweep).

    Returns
    -------
    dict
        ``mse``: mean squared error of the estimated frequencies; ``variance``:
        GRR's analytic variance per value at the true frequencies (their expected MSE).
    """
    values = rng.integers(k, size=n)
    true = np.bincount(values, minlength=k) / n
    oracle = GRR(k, epsilon)
    estimate = oracle.estimate(oracle.perturb(values, rng))
    return {"mse": float(np.mean((estimate - true) ** 2)),
            "variance": float(np.mean(oracle.variance(n, true)))}


def declare(profile: Profile) -> dict[str, Sweep]:
    """The chapter's experiments for ``profile``: name -> Grid or Sweep.

    The names of the ``paper`` profile are the committed results files; a task's
    key depends on the pinned identity of its function (``@versioned``), its
    parameters and its seed only, so refactoring keeps the committed results.
    """
    params = [{"k": int(profile["k"]), "epsilon": float(e), "n": int(profile["n"])}
              for e in profile["epsilons"]]
    return {"fig1": Sweep(estimation_error, params=params, seeds=profile["seeds"], name="fig1")}


#: The notebook's parameters (checked by ``ldpfair run`` before a kernel starts).
PARAMETERS: dict[str, Param] = {
    "profile": profile_param(),  # "paper" by default, as in every chapter: the committed results
    "epsilons": epsilons("privacy budgets", "the profile's budgets"),
    "seeds": seeds("repetitions per budget", "the profile's number"),
    "n_jobs": n_jobs_param(),
}
