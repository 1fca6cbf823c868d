"""Data cards: what a loaded dataset holds, in numbers and words.

>>> from ldpfair.datasets.cards import data_card, data_cards_table
>>> data_card("lsac")["n"]  # doctest: +SKIP
20427
>>> data_cards_table(["adult26k", ("compas_makhlouf", {"threshold": 1})])  # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .core import Dataset, info, load

__all__ = ["card_of", "card_markdown", "data_card", "data_cards_table"]


def card_of(ds: Dataset) -> dict[str, Any]:
    """Return the data card of an already loaded :class:`Dataset`.

    Parameters
    ----------
    ds : Dataset
        A loaded dataset.

    Returns
    -------
    dict
        Keys: ``name, options, paper, n, target, protected, attributes`` (domain
        size of every categorical column), ``numeric``, ``sensitive``,
        ``base_rate`` (P(target = 1)), ``base_rate_by_group`` (P(target = 1) per
        protected-group label), ``group_sizes``, ``description, source, license,
        citation, files``.
    """
    # A dataset may have no target (hamman2023's synthetic sets are an attribute
    # vector only): then base rates are NaN and only the group sizes are reported.
    y = ds.y if ds.target else None
    a = ds.a
    labels = ds.categories.get(ds.protected, {})
    by_group: dict[str, float] = {}
    sizes: dict[str, int] = {}
    for g in np.unique(a):
        mask = a == g
        lab = f"{ds.protected}={labels.get(int(g), str(int(g)))}"
        by_group[lab] = float(y[mask].mean()) if y is not None else float("nan")
        sizes[lab] = int(mask.sum())
    try:
        paper = list(info(ds.name).paper)
    except ValueError:
        paper = []
    return {
        "name": ds.name,
        "options": dict(ds.options),
        "paper": paper,
        "n": ds.n,
        "target": ds.target,
        "protected": ds.protected,
        "attributes": dict(ds.domains),
        "numeric": list(ds.numeric),
        "sensitive": dict(ds.sensitive),
        "base_rate": float(y.mean()) if y is not None and len(y) else float("nan"),
        "base_rate_by_group": by_group,
        "group_sizes": sizes,
        "description": ds.description,
        "source": ds.source,
        "license": ds.license,
        "citation": ds.citation,
        "files": list(ds.files),
    }


def data_card(name: str, **options: Any) -> dict[str, Any]:
    """Load dataset ``name`` with ``options`` and return its data card (see :func:`card_of`)."""
    return card_of(load(name, **options))


def _parse_spec(spec: Any) -> tuple[str, dict[str, Any]]:
    if isinstance(spec, str):
        return spec, {}
    if isinstance(spec, Mapping):
        if "name" not in spec:
            raise ValueError(f"a dataset spec mapping needs a 'name' key, got {dict(spec)!r}")
        rest = {k: v for k, v in spec.items() if k != "name"}
        opts = rest.pop("options", {})
        return str(spec["name"]), {**rest, **opts}
    if isinstance(spec, tuple | list) and len(spec) == 2 and isinstance(spec[1], Mapping):
        return str(spec[0]), dict(spec[1])
    raise TypeError(
        f"each spec must be a dataset name, a (name, options) pair or a mapping with 'name', got {spec!r}"
    )


def data_cards_table(specs: Iterable[Any]) -> pd.DataFrame:
    """Tabulate the data cards of several datasets, one row each.

    Parameters
    ----------
    specs : iterable
        Each a dataset name, a ``(name, options)`` pair, or a mapping with key
        ``name`` and options (either inline or under ``options``).

    Returns
    -------
    pandas.DataFrame
        Columns ``dataset, options, paper, n, attributes, sensitive, target,
        protected, P(Y=1), P(Y=1) by group, source, license, citation``.
    """
    rows = []
    for spec in specs:
        name, opts = _parse_spec(spec)
        c = data_card(name, **opts)
        rows.append(
            {
                "dataset": name,
                "options": ", ".join(f"{k}={v}" for k, v in opts.items()),
                "paper": ", ".join(c["paper"]),
                "n": c["n"],
                "attributes": len(c["attributes"]) + len(c["numeric"]) - 1,
                "sensitive": ", ".join(f"{k} ({v})" for k, v in c["sensitive"].items()),
                "target": c["target"] or "(none)",
                "protected": c["protected"],
                "P(Y=1)": round(c["base_rate"], 3),
                "P(Y=1) by group": "; ".join(f"{g}: {r:.3f}" for g, r in c["base_rate_by_group"].items()),
                "source": c["source"],
                "license": c["license"],
                "citation": c["citation"],
            }
        )
    return pd.DataFrame(rows)


def card_markdown(card: Mapping[str, Any], *, heading_level: int = 2) -> str:
    """Render a data card (from :func:`data_card`) as a Markdown section.

    Parameters
    ----------
    card : mapping
        A data card.
    heading_level : int
        Markdown heading level of the section title.

    Returns
    -------
    str
        A heading, the description, a table of the attributes (domain size, or
        "numeric"; sensitive and protected attributes marked), the base rate per
        protected group, and the source, licence and citation lines.
    """
    opts = ", ".join(f"{k}={v!r}" for k, v in card["options"].items())
    title = f"`{card['name']}`" + (f" ({opts})" if opts else "")
    lines = [f"{'#' * heading_level} {title}", "", card["description"].strip(), ""]
    lines += [
        f"**Rows:** {card['n']:,}. **Target:** `{card['target'] or '(none)'}`. "
        f"**Protected:** `{card['protected']}`. "
        f"**Paper(s):** {', '.join('{cite:t}`' + p + '`' for p in card['paper']) or '(none)'}.",
        "",
        "| attribute | domain size | role |",
        "|---|---|---|",
    ]
    roles = {}
    for col in card["sensitive"]:
        roles[col] = "sensitive"
    roles[card["protected"]] = "protected"
    if card["target"]:
        roles[card["target"]] = "target"
    for col, k in card["attributes"].items():
        lines.append(f"| `{col}` | {k} | {roles.get(col, '')} |")
    for col in card["numeric"]:
        lines.append(f"| `{col}` | numeric | {roles.get(col, '')} |")
    lines += ["", "| group | rows | P(Y=1) |", "|---|---|---|"]
    for g, size in card["group_sizes"].items():
        rate = card["base_rate_by_group"].get(g, float("nan"))
        shown = "n/a" if rate != rate else f"{rate:.3f}"
        lines.append(f"| `{g}` | {size:,} | {shown} |")
    base = card["base_rate"]
    lines += [
        f"| all | {card['n']:,} | {'n/a' if base != base else f'{base:.3f}'} |",
        "",
        f"**Source:** {card['source']}  ",
        f"**Licence:** {card['license']}  ",
        "**Cite:** " + ", ".join("{cite:p}`" + key.strip() + "`" for key in card["citation"].split(",")),
        "",
    ]
    return "\n".join(lines)
