"""Which registered data files each chapter of the book reads.

A chapter reads only the files of the datasets it uses (its experiments, its data
cards, its checks and its verdict box, which judges only its own paper when it runs
alone): ``ldpfair data list --paper P`` prints them with whether each is present, so
an offline reader of one chapter knows which files to copy. The table was measured
by recording every file fetched while the chapter's experiments (both profiles),
its scoreboard and claims, and its notebook's dataset loads ran (26 November 2026);
``tests/test_cli.py`` loads a chapter's datasets from a folder that holds only
these files.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["CHAPTER_FILES", "chapter_files"]

_ADULT = ("uci-adult/adult.data", "uci-adult/adult.test")
_ARCOLEZI = ("arcolezi2023/bar_pass_prediction.csv", "arcolezi2023/db_ACSCoverage.csv",
             "arcolezi2023/db_adult_processed_26k.csv")
_COMPAS = "propublica-compas/compas-scores-two-years.csv"

#: chapter -> the registered data files (collection ``data``) it reads.
CHAPTER_FILES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "arcolezi2023": _ARCOLEZI,
    "makhlouf2024": ("makhlouf2024/S1_0.44.csv", "makhlouf2024/S1_0.52.csv", "makhlouf2024/S1_0.6.csv",
                     "makhlouf2024/adult_10000.csv", "makhlouf2024/adult_27260.csv",
                     "makhlouf2024/adult_50000.csv", _COMPAS),
    "ghoukasian2025": ("arcolezi2023/bar_pass_prediction.csv", "arcolezi2023/db_LSAC.csv",
                       "arcolezi2023/db_adult_processed_26k.csv", "fairness-datasets/bank-full.csv", _COMPAS,
                       *_ADULT, "uci-german/german.data", "uci-student/student-mat.csv"),
    "hamman2023": (*_ADULT, "uci-german/german.data"),
    "xu2019": (*_ADULT, "fairness-datasets/dutch.csv"),
    "synthesis": (*_ARCOLEZI, "fairness-datasets/bank-full.csv", "fairness-datasets/dutch.csv", _COMPAS,
                  "uci-german/german.data", "uci-student/student-mat.csv"),
})


def chapter_files(paper: str) -> tuple[str, ...]:
    """The registered data files that chapter ``paper`` reads (ValueError naming the chapters).

    A chapter not in :data:`CHAPTER_FILES` (a new one) declares its files itself:
    ``PaperSpec(data_files=...)``, empty for a chapter that reads no data set.
    """
    from .._validation import did_you_mean

    if paper in CHAPTER_FILES:
        return CHAPTER_FILES[paper]
    from ..papers import PAPERS, spec

    if paper in PAPERS:
        return tuple(spec(paper).data_files)
    raise ValueError(f"unknown paper {paper!r}{did_you_mean(paper, PAPERS)}; valid: {', '.join(PAPERS)}")
