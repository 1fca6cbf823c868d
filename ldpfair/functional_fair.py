"""PFLR* (xu2019 Algorithm 2) and the non-private FairLR baseline (Zafar et al. 2017).

Built on :mod:`ldpfair.functional` (the layer below: it never imports this module); see its
docstring for the functional mechanism and the remedies.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.linalg
import scipy.optimize
import scipy.special

from ._validation import check_choice, check_epsilon, check_probability
from .functional import (
    FAIRLR_OBJECTIVES,
    STAR_LINEAR_NOISE,
    PrivLR,
    _check_binary,
    _check_nonneg,
    _laplace,
    _LinearModel,
    _null_space,
    _rng_of,
    lr_sensitivity,
    minimize_quadratic,
    shift_sensitivity,
    taylor_coefficients,
)

__all__ = ["FairLR", "PFLRStar", "STAR_SHIFTS"]

#: How PFLR* uses the noisy shift ``mu``: ``"mean"`` as the mean of the degree-1 noise, weight
#: ``alpha`` (Algorithm 2); ``"constraint"`` as the constraint ``mu^T w = 0`` on the noisy objective
#: (what Sec. 3.2 says the shift ensures; ``alpha`` is then unused).
STAR_SHIFTS = ("mean", "constraint")


class PFLRStar(PrivLR):
    """Private and fair LR with shifted-mean Laplace noise (xu2019 Algorithm 2).

    ``mu = sum_i (s_i - s_bar) x_i + Lap(2B / epsilon_g)`` (``epsilon_g = (1 -
    eps_f_ratio) epsilon``), then the functional mechanism on the plain LR
    objective with ``epsilon_f = eps_f_ratio * epsilon``, the degree-1 noise
    having mean ``mu``.

    Parameters
    ----------
    epsilon : float
        Total budget ``epsilon_f + epsilon_g`` (``inf`` = no noise).
    eps_f_ratio : float
        ``epsilon_f / epsilon`` in (0, 1); the paper's default is 1/2.
    alpha : float
        Weight (and sign) of the shift: the mean is ``alpha * mu``, its noise
        ``Lap(2 |alpha| B / epsilon_g)`` (the sensitivity of ``alpha * mu``). The
        paper's Algorithm 2 has ``alpha = 1``, the weight of the PFLR penalty.
    linear_noise : {"f", "g"}
        Scale of the degree-1 noise (:data:`STAR_LINEAR_NOISE`): ``Delta_f / epsilon_f``
        (Algorithm 2, line 5) or ``Delta_g / epsilon_g`` (the text of Sec. 3.2). With
        ``"g"`` the mechanism is not ``epsilon``-DP as Theorem 3.2 states: the degree-1
        coefficients (sensitivity ``B``) then cost ``epsilon_g / 2`` more, a total
        of at most ``epsilon_f + 1.5 epsilon_g``.
    shift : {"mean", "constraint"}
        Use of the noisy shift (:data:`STAR_SHIFTS`). ``"constraint"`` minimises the
        noisy objective (degree-1 noise of mean 0) in the orthogonal complement of the
        noisy ``mu`` (``alpha = 1`` for its noise): ``g_D(w) = 0`` with ``mu`` in place
        of the data's shift. Post-processing of the released coefficients and ``mu``,
        so the privacy is that of ``"mean"``.
    row_sum_bound, regularization, remedy, lam2_noise, random_state
        As in :class:`PrivLR`.
    """

    def __init__(self, epsilon: float = 1.0, *, eps_f_ratio: float = 0.5, alpha: float = 1.0,
                 linear_noise: str = "f", shift: str = "mean", row_sum_bound: float | None = None,
                 regularization: float = 0.0, remedy: str = "trim", lam2_noise: str = "full",
                 random_state: object = None) -> None:
        super().__init__(epsilon, row_sum_bound=row_sum_bound, regularization=regularization,
                         remedy=remedy, lam2_noise=lam2_noise, random_state=random_state)
        self.eps_f_ratio = eps_f_ratio
        self.alpha = alpha
        self.linear_noise = linear_noise
        self.shift = shift

    def fit(self, X: object, y: object, *, sensitive_features: object | None = None) -> PFLRStar:
        """Fit on ``X``, ``y`` with the protected attribute ``sensitive_features`` (0/1)."""
        eps = check_epsilon(self.epsilon, "epsilon", allow_inf=True)
        ratio = check_probability(self.eps_f_ratio, "eps_f_ratio", open_interval=True)
        rng = _rng_of(self.random_state)
        X, y = self._validate(X, y)
        if sensitive_features is None:
            raise ValueError("PFLRStar.fit needs sensitive_features (the 0/1 protected attribute)")
        s = _check_binary(sensitive_features, X.shape[0], "sensitive_features")
        lam1, lam2 = taylor_coefficients(X, y)
        bound = self._bound(X)
        alpha = self.alpha
        if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not np.isfinite(alpha):
            raise ValueError(f"alpha must be a finite real number (weight and sign of the shift), "
                             f"got {alpha!r}")
        eps_f, eps_g = ratio * eps, (1.0 - ratio) * eps
        self.shift_sensitivity_ = abs(float(alpha)) * shift_sensitivity(bound)
        self.mu_ = alpha * (X.T @ (s - s.mean())) + _laplace(rng, self.shift_sensitivity_ / eps_g, X.shape[1])
        check_choice(self.linear_noise, STAR_LINEAR_NOISE, "linear_noise")
        self.sensitivity_ = lr_sensitivity(bound)
        scale1 = None
        if self.linear_noise == "g":
            scale1 = shift_sensitivity(bound) / eps_g
        check_choice(self.shift, STAR_SHIFTS, "shift")
        if self.shift == "mean":
            self._noisy_fit(lam1, lam2, self.sensitivity_ / eps_f, rng, mean1=self.mu_, scale1=scale1)
            return self
        if not np.any(self.mu_):
            raise ValueError("shift='constraint' needs a non-zero mu (both groups present)")
        basis = _null_space(self.mu_)
        self._noisy_fit(lam1, lam2, self.sensitivity_ / eps_f, rng, scale1=scale1, basis=basis)
        return self


class FairLR(_LinearModel):
    """Logistic regression under the decision-boundary covariance constraint (Zafar et al. 2017).

    Minimises ``sum_i log(1 + exp(x_i^T w)) - y_i x_i^T w + ||w||^2 / (2 C)``
    subject to ``|(1/n) sum_i (s_i - s_bar) x_i^T w| <= tau`` (xu2019 Eq. 10-11).
    ``tau = 0`` is solved exactly by optimising in the orthogonal complement of
    the covariance direction; ``tau > 0`` with SLSQP. Not private.

    Parameters
    ----------
    tau : float
        Covariance threshold (>= 0).
    C : float
        Inverse L2 penalty (as scikit-learn's ``LogisticRegression``; the exact objective only).
    objective : {"exact", "taylor"}
        ``"exact"``: the logistic loss above. ``"taylor"``: its second-order Taylor form
        (Eq. 5, no penalty), minimised exactly in the orthogonal complement of the
        covariance direction (``tau = 0`` only): the noiseless limit of the paper's
        private models under the hard constraint.
    """

    def __init__(self, tau: float = 0.0, C: float = 1.0, objective: str = "exact") -> None:
        self.tau = tau
        self.C = C
        self.objective = objective

    def fit(self, X: object, y: object, *, sensitive_features: object | None = None) -> FairLR:
        """Fit on ``X``, ``y`` with the protected attribute ``sensitive_features`` (0/1)."""
        tau = _check_nonneg(self.tau, "tau")
        C = _check_nonneg(self.C, "C")
        if C == 0:
            raise ValueError("C must be > 0")
        X, y = self._validate(X, y)
        if sensitive_features is None:
            raise ValueError("FairLR.fit needs sensitive_features (the 0/1 protected attribute)")
        s = _check_binary(sensitive_features, X.shape[0], "sensitive_features")
        c = X.T @ (s - s.mean()) / X.shape[0]
        check_choice(self.objective, FAIRLR_OBJECTIVES, "objective")
        if self.objective == "taylor":
            if tau != 0.0:
                raise ValueError(f"tau must be 0 with objective='taylor' (the hard constraint), got {tau!r}")
            B = scipy.linalg.null_space(c[None, :]) if np.any(c) else np.eye(X.shape[1])
            lam1, lam2 = taylor_coefficients(X, y)
            sol = minimize_quadratic(B.T @ lam1, B.T @ lam2 @ B)
            self.converged_ = True
            self.coef_ = B @ sol.w
            self.covariance_ = float(c @ self.coef_)
            return self
        sign = 2.0 * y - 1.0

        def loss(w: np.ndarray, A: np.ndarray) -> tuple[float, np.ndarray]:
            z = A @ w
            val = np.logaddexp(0.0, -sign * z).sum() + w @ w / (2.0 * C)
            grad = A.T @ (-sign * scipy.special.expit(-sign * z)) + w / C
            return float(val), grad

        if tau == 0.0:
            B = scipy.linalg.null_space(c[None, :]) if np.any(c) else np.eye(X.shape[1])
            A = X @ B
            res = scipy.optimize.minimize(loss, np.zeros(B.shape[1]), args=(A,), jac=True,
                                          method="L-BFGS-B", options={"maxiter": 2000})
            w = B @ res.x
        else:
            cons = [{"type": "ineq", "fun": lambda w: tau - c @ w, "jac": lambda w: -c},
                    {"type": "ineq", "fun": lambda w: tau + c @ w, "jac": lambda w: c}]
            res = scipy.optimize.minimize(loss, np.zeros(X.shape[1]), args=(X,), jac=True,
                                          method="SLSQP", constraints=cons, options={"maxiter": 500})
            w = res.x
        if not res.success and not np.all(np.isfinite(w)):
            raise RuntimeError(f"FairLR optimisation failed: {res.message}")
        self.converged_ = bool(res.success)
        self.coef_ = w
        self.covariance_ = float(c @ w)
        return self
