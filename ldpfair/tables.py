"""The book's one table helper: data frames as a reader should see them.

:func:`table` turns a :class:`pandas.DataFrame` into a :class:`Table` that renders in
a notebook (and in the book) as an HTML table and prints as plain text:

- **human column labels**: internal names (``auc_labels``, ``avg_sp_err_e3``) are
  replaced by :data:`LABELS` or by the ``labels`` given; other names lose their
  underscores;
- **numbers at the paper's precision**: ``digits`` decimals (per column if a mapping),
  integer-valued columns without decimals and with thousands separators, ``"g"`` for
  the shortest exact form (budgets: 0.25, 1, 100 rather than 100.000000), ``"%"``
  for shares;
- **mean ± sd on one line**: ``pm={"acc": "acc_sd"}`` joins two columns into
  ``0.812 ± 0.004`` with non-breaking spaces;
- **missing values as an em dash** (never ``nan`` / ``None``);
- **agreement as a mark with a legend**: the ``agreement`` columns show ✓ / ✗ and
  a legend under the table says what they mean; any other boolean column shows
  ``yes`` / ``no`` (never ``True`` / ``False``);
- **key columns first** (``key``), in bold, the index turned into columns;
- anything still wider than the book's column scrolls inside its own visibly
  scrollable box (``<div class="ldpfair-table">``, styled in ``_static/ldpfair.css``),
  under its caption.

:func:`checks` is :func:`table` for a frame of checks: every boolean column (also one
holding booleans and missing values) shows ✓ / ✗ / — with one legend.

:func:`comparison` formats the output of :func:`ldpfair.reporting.side_by_side` (the
paper's numbers next to ours): per metric the paper's value, ours as ``mean ± half-width``
and the agreement mark.

:func:`long` reshapes a wide frame (one column per metric) into the narrow shape
(key columns, ``metric``, ``value``) that suits a page better than 12 columns.
"""

from __future__ import annotations

import html
import math
import numbers
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = ["LABELS", "MISSING", "Table", "table", "checks", "boolean_columns", "long", "format_value",
           "comparison", "verdict_slug", "label", "show"]

_SPEC = re.compile(r"\+?,?\.\d+[eEfg%]")
#: What a missing value shows.
MISSING = "\u2014"
#: Cells of a column whose longest cell has at most this many characters never wrap.
_NOWRAP_CHARS = 24
#: Marks of agreement columns (True, False).
AGREE_MARKS = ("\u2713", "\u2717")
_NBSP = "\u00a0"

#: Labels of the internal column names that recur across chapters.
LABELS: dict[str, str] = {
    "dataset": "dataset",
    "mechanism": "protocol",
    "protocol": "protocol",
    "split": "budget split",
    "epsilon": "\u03b5",
    "eps": "\u03b5",
    "seed": "seed",
    "n_seeds": "seeds",
    "acc": "accuracy",
    "f1": "F1",
    "auc": "AUC",
    "auc_labels": "AUC (labels)",
    "auc_scores": "AUC (scores)",
    "recall": "recall",
    "agrees": "agrees",
    "share agreeing": "share agreeing",
    "checks passed": "checks passed",
    "n": "n",
    "k": "k",
    "d_s": "d\u209b",
}


def _is_missing(value: object) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, float | np.floating):
        return bool(np.isnan(value))
    return False


def _is_bool(value: object) -> bool:
    return isinstance(value, bool | np.bool_)


def format_value(value: object, digits: int | str = 3) -> str:
    """One cell as text.

    Parameters
    ----------
    value : object
        The cell. Missing values (None, NaN, NA) give :data:`MISSING`; booleans
        ``yes`` / ``no``; integers (and integer-valued floats when ``digits`` is an
        int) thousands-separated without decimals; other numbers ``digits`` decimals.
    digits : int or {"g", "%", "int"} or str
        Decimals, or ``"g"`` (shortest exact form, e.g. 0.25 and 100), ``"%"``
        (a share as a whole percentage), ``"int"`` (rounded to an integer), or a
        format specification starting with a dot (``".2e"``, ``".1%"``).

    Returns
    -------
    str
    """
    if isinstance(digits, str) and digits not in ("g", "%", "int") and not _SPEC.fullmatch(digits):
        raise ValueError("digits must be a number of decimals, one of 'g', '%', 'int' or a format "
                         f"specification such as '.2e', got {digits!r}")
    if isinstance(digits, int | np.integer) and not isinstance(digits, bool) and digits < 0:
        raise ValueError(f"digits must be >= 0, got {digits}")
    if _is_missing(value):
        return MISSING
    if _is_bool(value):
        return "yes" if value else "no"
    if isinstance(value, numbers.Number) and not isinstance(value, numbers.Real):  # complex
        return str(value)
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}" if digits != "%" else f"{100 * int(value):d}%"
    if isinstance(value, numbers.Real):
        x = float(value)
        if math.isinf(x):
            return "\u221e" if x > 0 else "\u2212\u221e"
        if digits == "%":
            return f"{100 * x:.0f}%"
        if digits == "int":
            return f"{round(x):,}"
        if digits == "g":
            return f"{x:.6g}"
        if isinstance(digits, str):
            return format(x, digits)
        text = f"{x:,.{int(digits)}f}"
        return "0" + text[2:] if text.startswith("-0") and float(text.replace(",", "")) == 0 else text
    return str(value)


def verdict_slug(verdict: str) -> str:
    """CSS class suffix of a verdict word: ``"not reproduced"`` -> ``"not-reproduced"``."""
    return re.sub(r"[^a-z0-9]+", "-", str(verdict).strip().lower()).strip("-") or "not-yet"


def label(name: object, labels: Mapping[str, str] | None = None) -> str:
    """The human label of a column or metric name (``labels`` first, then :data:`LABELS`)."""
    return _label(name, labels or {})


def _label(name: object, labels: Mapping[str, str]) -> str:
    if isinstance(name, tuple):
        return " ".join(_label(part, labels) for part in name if str(part) != "")
    key = str(name)
    if key in labels:
        return labels[key]
    if key in LABELS:
        return LABELS[key]
    return key.replace("_", " ")


class Table:
    """A formatted table: HTML in notebooks and the book, plain text when printed.

    Build it with :func:`table`. ``frame`` holds the cells as text, with the human
    column labels; ``caption`` and ``legend`` are shown above and below.
    """

    def __init__(self, frame: pd.DataFrame, *, caption: str | None, legend: Sequence[str],
                 numeric: Sequence[str], keys: Sequence[str], text: Sequence[str],
                 badges: Sequence[str] = (), details: pd.DataFrame | None = None) -> None:
        self.frame = frame
        self.caption = caption
        self.legend = list(legend)
        self._numeric = set(numeric)
        self._keys = set(keys)
        self._text = set(text)
        self._badges = set(badges)
        self.details = details if details is not None else pd.DataFrame(index=frame.index)

    def to_html(self) -> str:
        """The table as an HTML fragment in its scroll container."""
        short = {c for c in self.frame.columns if c not in self._text
                 and max(map(len, self.frame[c]), default=0) <= _NOWRAP_CHARS}

        def cls(col: str) -> str:
            names = [c for c, on in (("num", col in self._numeric), ("key", col in self._keys),
                                     ("text", col in self._text), ("nowrap", col in short)) if on]
            return f' class="{" ".join(names)}"' if names else ""

        # the caption sits above the scroll box, so it stays in view and wraps to the column
        out = ['<div class="ldpfair-table-block">']
        if self.caption:
            out.append(f'<p class="ldpfair-caption">{html.escape(self.caption)}</p>')
        out += ['<div class="ldpfair-table" role="region" tabindex="0"'
                + (f' aria-label="{html.escape(self.caption)}"' if self.caption else "") + ">",
                "<table>"]
        out.append("<thead><tr>" + "".join(f"<th{cls(c)}>{html.escape(c)}</th>" for c in self.frame.columns)
                   + "</tr></thead>")
        out.append("<tbody>")
        for i, row in enumerate(self.frame.itertuples(index=False, name=None)):
            cells = []
            for col, value in zip(self.frame.columns, row, strict=True):
                text = html.escape(value)
                if value == AGREE_MARKS[0]:
                    text = f'<span class="mark-yes">{text}</span>'
                elif value == AGREE_MARKS[1]:
                    text = f'<span class="mark-no">{text}</span>'
                elif col in self._badges and value != MISSING:
                    text = f'<span class="verdict verdict-{verdict_slug(value)}">{text}</span>'
                cells.append(f"<td{cls(col)}>{text}</td>")
            out.append("<tr>" + "".join(cells) + "</tr>")
            for name, value in self.details.iloc[i].items():
                if value != MISSING:
                    label = html.escape(str(name))
                    out.append(f'<tr class="detail"><td colspan="{len(self.frame.columns)}">'
                               f'<div class="detail-text"><span class="detail-label">{label}:</span> '
                               f"{html.escape(value)}</div></td></tr>")
        out.append("</tbody></table>")
        out.append("</div>")
        if self.legend:
            out.append('<p class="legend">' + html.escape(" ".join(self.legend)) + "</p>")
        out.append("</div>")
        return "\n".join(out)

    def _repr_html_(self) -> str:
        return self.to_html()

    def __str__(self) -> str:
        lines = [self.caption] if self.caption else []
        lines.append(self.frame.to_string(index=False))
        for i in range(len(self.details)):
            for name, value in self.details.iloc[i].items():
                if value != MISSING:
                    lines.append(f"  {self.frame.iloc[i, 0]} - {name}: {value}")
        lines += self.legend
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def __len__(self) -> int:
        return len(self.frame)


def _check_columns(argument: str, names: Sequence[str], frame: pd.DataFrame) -> None:
    missing = [n for n in names if n not in frame.columns]
    if missing:
        raise ValueError(f"{argument}: no column {missing[0]!r} in the table; columns are "
                         f"{[str(c) for c in frame.columns]}")


def table(
    frame: pd.DataFrame,
    *,
    caption: str | None = None,
    key: str | Sequence[str] = (),
    labels: Mapping[str, str] | None = None,
    digits: int | str | Mapping[str, int | str] = 3,
    pm: Mapping[str, str] | None = None,
    agreement: str | Sequence[str] = (),
    agreement_legend: str = "\u2713 agrees, \u2717 does not (within the 95% interval).",
    columns: Sequence[str] | None = None,
    text: str | Sequence[str] = (),
    legend: str | Sequence[str] = (),
    badges: str | Sequence[str] = (),
    details: str | Sequence[str] = (),
) -> Table:
    """Format ``frame`` for the book (see the module docstring).

    Parameters
    ----------
    frame : pandas.DataFrame
        The data. A named or multi-level index becomes leading columns;
        multi-level column labels are joined with spaces.
    caption : str, optional
        Shown above the table.
    key : str or sequence of str
        Columns that identify a row: shown first, in bold.
    labels : mapping, optional
        Column name -> label shown, on top of :data:`LABELS`.
    digits : int, {"g", "%", "int"} or mapping
        Precision of numeric columns (see :func:`format_value`); a mapping gives it
        per column (``"default"`` for the others, else 3). Integer-valued float
        columns are shown as integers unless a precision is given for them.
    pm : mapping, optional
        Mean column -> spread column, shown as one ``mean ± spread`` cell (the
        spread column is dropped), both at the mean's precision.
    agreement : str or sequence of str
        Boolean columns shown as ✓ / ✗, explained by ``agreement_legend``.
    agreement_legend : str
        The legend line of the agreement marks.
    columns : sequence of str, optional
        The columns to show and their order (after ``key``); default all.
    text : str or sequence of str
        Columns of prose (claims, evidence): allowed to wrap.
    legend : str or sequence of str
        Further lines under the table.
    badges : str or sequence of str
        Columns of verdict words (reproduced, partly, ...), shown as the book's
        verdict badges (``<span class="verdict verdict-<slug>">``).
    details : str or sequence of str
        Columns of long prose (a claim's statement, its evidence): shown as
        full-width lines under their row instead of as narrow columns.

    Returns
    -------
    Table
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    df = frame.copy()
    if isinstance(df.columns, pd.MultiIndex):
        df.columns = [" ".join(str(p) for p in c if str(p) != "") for c in df.columns]
    df.columns = [str(c) for c in df.columns]
    if df.index.nlevels > 1 or df.index.name is not None:
        df = df.reset_index()
        df.columns = [str(c) for c in df.columns]
    key = [key] if isinstance(key, str) else list(key)
    agreement = [agreement] if isinstance(agreement, str) else list(agreement)
    text = [text] if isinstance(text, str) else list(text)
    badges = [badges] if isinstance(badges, str) else list(badges)
    details = [details] if isinstance(details, str) else list(details)
    legend = [legend] if isinstance(legend, str) else list(legend)
    pm = dict(pm or {})
    labels = dict(labels or {})
    _check_columns("key", key, df)
    _check_columns("agreement", agreement, df)
    _check_columns("text", text, df)
    _check_columns("badges", badges, df)
    _check_columns("details", details, df)
    _check_columns("pm", list(pm) + list(pm.values()), df)
    if columns is not None:
        _check_columns("columns", list(columns), df)
    if isinstance(digits, Mapping):
        _check_columns("digits", [c for c in digits if c != "default"], df)
        default_digits: int | str = digits.get("default", 3)
        per_column = {c: d for c, d in digits.items() if c != "default"}
    else:
        default_digits, per_column = digits, {}
    for d in [default_digits, *per_column.values()]:
        format_value(0.0, d)  # validates

    order = key + [c for c in (columns if columns is not None else df.columns) if c not in key]
    order = [c for c in order if c not in pm.values() and c not in details]

    shown: dict[str, list[str]] = {}
    numeric: list[str] = []
    for col in order:
        values = df[col]
        if col in agreement:
            shown[col] = [MISSING if _is_missing(v) else AGREE_MARKS[0] if bool(v) else AGREE_MARKS[1]
                          for v in values]
            continue
        is_num = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
        d = per_column.get(col, default_digits)
        if is_num and col not in per_column and pd.api.types.is_float_dtype(values):
            finite = values.dropna().to_numpy(dtype=float)
            finite = finite[np.isfinite(finite)]
            if finite.size and np.all(finite == np.round(finite)) and np.all(np.abs(finite) < 1e15):
                d = "int"
        cells = [format_value(v, d) for v in values]
        if col in pm:
            spread = [format_value(v, d) for v in df[pm[col]]]
            cells = [c if s == MISSING or c == MISSING else f"{c}{_NBSP}\u00b1{_NBSP}{s}"
                     for c, s in zip(cells, spread, strict=True)]
        if is_num or col in pm:
            numeric.append(col)
        shown[col] = cells

    out = pd.DataFrame(shown, index=range(len(df)))
    names = {c: _label(c, labels) for c in order}
    if len(set(names.values())) < len(names):  # two columns with the same label: keep the names
        names = {c: (names[c] if list(names.values()).count(names[c]) == 1 else c) for c in order}
    out.columns = [names[c] for c in order]
    detail_frame = pd.DataFrame({_label(c, labels): [format_value(v) for v in df[c]] for c in details},
                                index=range(len(df)))
    lines = ([agreement_legend] if agreement else []) + legend
    return Table(out, caption=caption, legend=lines, numeric=[names[c] for c in numeric],
                 keys=[names[c] for c in key], text=[names[c] for c in text],
                 badges=[names[c] for c in badges], details=detail_frame)


def boolean_columns(frame: pd.DataFrame) -> list[str]:
    """The columns of ``frame`` that hold only booleans and missing values (at least one boolean).

    Parameters
    ----------
    frame : pandas.DataFrame

    Returns
    -------
    list of str
        Column names, in the frame's order.
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    out = []
    for col in frame.columns:
        values = frame[col]
        if pd.api.types.is_bool_dtype(values):
            if len(values):
                out.append(col)
            continue
        if values.dtype != object:
            continue
        present = [v for v in values if not _is_missing(v)]
        if present and all(_is_bool(v) for v in present):
            out.append(col)
    return out


def checks(frame: pd.DataFrame, *, marks: str | Sequence[str] | None = None,
           legend_marks: str = "\u2713 holds, \u2717 does not, \u2014 not checked.",
           **kwargs: object) -> Table:
    """Format a frame of checks: boolean columns as ✓ / ✗, missing values as —.

    Parameters
    ----------
    frame : pandas.DataFrame
        The checks; its index is handled as in :func:`table`.
    marks : str or sequence of str, optional
        The columns shown as marks; default every column of booleans and missing values
        (:func:`boolean_columns`, after the index is turned into columns).
    legend_marks : str
        The legend line of the marks (shown once under the table).
    **kwargs
        Any other argument of :func:`table` (``key``, ``caption``, ``labels``, ``digits``,
        ``text``, ``legend``, ...), except ``agreement`` and ``agreement_legend``.

    Returns
    -------
    Table
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    for name in ("agreement", "agreement_legend"):
        if name in kwargs:
            raise ValueError(f"checks: give the mark columns as marks=, not {name}=")
    df = frame
    if df.index.nlevels > 1 or df.index.name is not None:
        df = df.reset_index()
    if marks is None:
        marks = [str(c) for c in boolean_columns(df)]
    marks = [marks] if isinstance(marks, str) else list(marks)
    return table(df, agreement=marks, agreement_legend=legend_marks, **kwargs)  # type: ignore[arg-type]


def comparison(sbs: pd.DataFrame, on: str | Sequence[str], metrics: str | Sequence[str], *,
               labels: Mapping[str, str] | None = None, digits: int | str | Mapping[str, int | str] = 3,
               diff: bool = False, extra: Sequence[str] = (), caption: str | None = None,
               legend: str | Sequence[str] = (),
               agreement_legend: str = "\u2713 the paper's value lies in our 95% interval (widened by the "
                                       "printed precision), \u2717 it does not, \u2014 no result of ours.",
               ) -> Table:
    """Format a :func:`ldpfair.reporting.side_by_side` frame: paper, ours ± CI, agreement.

    Parameters
    ----------
    sbs : pandas.DataFrame
        Columns ``on`` and, per metric ``m``, ``m (paper)``, ``m (ours)``, ``m ±``,
        ``m diff`` and ``m agrees``.
    on : str or sequence of str
        The key columns (shown first).
    metrics : str or sequence of str
        The metrics, in the order shown.
    labels : mapping, optional
        Labels of the key columns and of the metrics (a metric's three columns read
        ``<label> paper``, ``<label> ours``, ``<label> agrees``).
    digits : int, str or mapping
        Precision of the metrics (a mapping: per metric, ``"default"`` for the others)
        and of the key columns (by their names); see :func:`format_value`.
    diff : bool
        Also show ``ours − paper`` per metric.
    extra : sequence of str
        Further columns of ``sbs`` shown after the metrics (labels and digits by name).
    caption, legend, agreement_legend : str
        As in :func:`table`.

    Returns
    -------
    Table
    """
    on = [on] if isinstance(on, str) else list(on)
    metrics = [metrics] if isinstance(metrics, str) else list(metrics)
    labels = dict(labels or {})
    needed = [f"{m} {part}" for m in metrics for part in ("(paper)", "(ours)", "\u00b1", "diff", "agrees")]
    extra = list(extra)
    _check_columns("sbs", on + needed + extra, sbs)
    per = dict(digits) if isinstance(digits, Mapping) else {"default": digits}
    default = per.pop("default", 3)
    names: dict[str, str] = {c: _label(c, labels) for c in on}
    cols: dict[str, pd.Series] = {c: sbs[c] for c in on}
    dig: dict[str, int | str] = {c: per[c] for c in on if c in per}
    dig["default"] = default
    pm: dict[str, str] = {}
    agree: list[str] = []
    for m in metrics:
        lab = _label(m, labels)
        d = per.get(m, default)
        cols[f"{m} (paper)"], names[f"{m} (paper)"] = sbs[f"{m} (paper)"], f"{lab} paper"
        cols[f"{m} (ours)"], names[f"{m} (ours)"] = sbs[f"{m} (ours)"], f"{lab} ours"
        cols[f"{m} \u00b1"], names[f"{m} \u00b1"] = sbs[f"{m} \u00b1"], f"{lab} \u00b1"
        pm[f"{m} (ours)"] = f"{m} \u00b1"
        dig.update({f"{m} (paper)": d, f"{m} (ours)": d})
        if diff:
            cols[f"{m} diff"], names[f"{m} diff"] = sbs[f"{m} diff"], f"{lab} ours \u2212 paper"
            dig[f"{m} diff"] = d
        cols[f"{m} agrees"], names[f"{m} agrees"] = sbs[f"{m} agrees"], f"{lab} agrees"
        agree.append(f"{m} agrees")
    for c in extra:
        cols[c], names[c] = sbs[c], _label(c, labels)
        if c in per:
            dig[c] = per[c]
    frame = pd.DataFrame(cols).reset_index(drop=True)
    return table(frame, key=on, labels=names, digits=dig, pm=pm, agreement=agree,
                 agreement_legend=agreement_legend, caption=caption, legend=legend)


def long(frame: pd.DataFrame, key: str | Sequence[str], values: Sequence[str] | None = None, *,
         name: str = "metric", value_name: str = "value") -> pd.DataFrame:
    """Reshape a wide frame into key columns + ``name`` + ``value_name`` (one row per cell).

    Parameters
    ----------
    frame : pandas.DataFrame
    key : str or sequence of str
        The identifying columns, kept.
    values : sequence of str, optional
        The columns to stack; default all others.
    name, value_name : str
        Names of the new columns.

    Returns
    -------
    pandas.DataFrame
        One row per (row of ``frame``, column of ``values``), in that order.
    """
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"frame must be a pandas DataFrame, got {type(frame).__name__}")
    key = [key] if isinstance(key, str) else list(key)
    _check_columns("key", key, frame)
    values = [c for c in frame.columns if c not in key] if values is None else list(values)
    _check_columns("values", values, frame)
    rows = frame.reset_index(drop=True)
    out = rows.assign(_row=np.arange(len(rows))).melt(id_vars=[*key, "_row"], value_vars=values,
                                                       var_name=name, value_name=value_name)
    out["_col"] = out[name].map({c: i for i, c in enumerate(values)})
    out = out.sort_values(["_row", "_col"], kind="stable").drop(columns=["_row", "_col"])
    return out.reset_index(drop=True)


def show(*items: object) -> None:
    """Display each of ``items`` in a notebook: a string as Markdown, anything else as itself.

    ``None`` and empty strings are skipped, so a chapter's table or finding function
    can return ``None`` / ``""`` when the profile has no results for it.
    """
    from IPython.display import Markdown, display

    for item in items:
        if item is None or (isinstance(item, str) and not item.strip()):
            continue
        display(Markdown(item) if isinstance(item, str) else item)
