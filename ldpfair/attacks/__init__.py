"""Bias queries that leak protected attributes, and how to answer them privately (hamman2023).

- :mod:`~ldpfair.attacks.queries`: statistical-parity and equal-opportunity
  queries of many binary or probabilistic classifiers at once (``SP = H v``);
- :mod:`~ldpfair.attacks.reveal`: *Attribute-Reveal*: single and double
  queries (Examples 1-2), the exact linear system (Algorithm 1, Theorem 1),
  compressed sensing by basis pursuit (Algorithm 2, Theorem 2) and the
  absolute-SP partition (Theorem 3);
- :mod:`~ldpfair.attacks.conceal`: *Attribute-Conceal*: sensitivities of SP
  (global, local, beta-smooth) and the Cauchy (Theorem 5, Algorithm 3),
  smooth-Laplace (Theorem 6) and global-Laplace (Theorem 4) mechanisms;
- :mod:`~ldpfair.attacks.leakage`: the leakage metric (Definition 5.1).
"""

from .conceal import (
    MECHANISMS,
    NOISE_READINGS,
    answer_queries,
    attribute_conceal,
    global_sensitivity_abs_sp,
    global_sensitivity_sp,
    laplace_mechanism,
    local_sensitivity_sp,
    noise_scale,
    smooth_laplace_mechanism,
    smooth_sensitivity_abs_sp,
    smooth_sensitivity_sp,
)
from .leakage import leakage, recovered
from .queries import eo_queries, group_sizes, query_weights, sp_queries
from .reveal import (
    RevealResult,
    absolute_sp_partition,
    basis_pursuit,
    double_query_models,
    flip_models,
    perturbed_models,
    random_binary_models,
    reveal_compressed,
    reveal_double,
    reveal_linear,
    reveal_single,
    single_query_model,
    solve_basis_pursuit,
)

__all__ = [
    "MECHANISMS",
    "NOISE_READINGS",
    "RevealResult",
    "absolute_sp_partition",
    "answer_queries",
    "attribute_conceal",
    "basis_pursuit",
    "solve_basis_pursuit",
    "double_query_models",
    "eo_queries",
    "flip_models",
    "global_sensitivity_abs_sp",
    "global_sensitivity_sp",
    "group_sizes",
    "laplace_mechanism",
    "leakage",
    "local_sensitivity_sp",
    "noise_scale",
    "perturbed_models",
    "query_weights",
    "random_binary_models",
    "recovered",
    "reveal_compressed",
    "reveal_double",
    "reveal_linear",
    "reveal_single",
    "single_query_model",
    "smooth_laplace_mechanism",
    "smooth_sensitivity_abs_sp",
    "smooth_sensitivity_sp",
    "sp_queries",
]
