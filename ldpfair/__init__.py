"""ldpfair: (local) differential privacy and fairness, reproduced.

The package behind the ldpfair executable book. Its sub-packages hold

- :mod:`ldpfair.datasets`: checksummed loaders for every dataset of the five papers;
- :mod:`ldpfair.ldp`: local differential privacy mechanisms (frequency oracles,
  multidimensional collection, the optimal fairness mechanism);
- :mod:`ldpfair.metrics`: fairness and utility metrics with explicit conventions;
- :mod:`ldpfair.experiments`: the deterministic, parallel, cached experiment engine.
"""

from __future__ import annotations

from .config import select_blas_kernels

__version__ = "0.1.0"

# Before anything imports numpy: one OpenBLAS kernel set on every AVX2 processor, so that
# results sensitive to the last bit are the same on every machine (see ldpfair.config).
select_blas_kernels()

__all__ = ["__version__"]
