"""Sphinx extension of the ldpfair book: the API reference's constants.

autodoc reads the ``#:`` comment of a module-level constant from the module that
documents it. The API reference documents each subpackage (``ldpfair.ldp``), whose
constants are defined in its submodules (``PROTOCOLS`` in ``ldpfair.ldp.registry``),
so autodoc would skip them and autosummary would show the docstring of their type
(``tuple``: "Built-in immutable sequence..."). Here

- the docstring of a constant is the ``#:`` comment of the module that defines it
  (the documented module itself, else the submodule holding the same object), as
  written (not parsed by napoleon, which would read ``text: more`` as ``type:
  description``), and empty when there is none;
- a constant of the documented module's ``__all__`` that has such a comment is
  documented;
- a constant's value is shown only when it is short (:data:`MAX_VALUE` characters),
  so a long table of labels does not fill a phone's screen.

Registered in ``_config.yml`` under ``sphinx: local_extensions``.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType
from typing import Any

from sphinx.application import Sphinx
from sphinx.ext.autodoc import DataDocumenter, ModuleDocumenter
from sphinx.pycode import ModuleAnalyzer
from sphinx.util.inspect import object_description, safe_getattr

#: Longest value (its repr, in characters) shown next to a constant's name.
MAX_VALUE = 80

_MISSING = object()


def _modules(package: ModuleType) -> list[ModuleType]:
    """``package`` and, for a package, its direct submodules."""
    out = [package]
    for info in pkgutil.iter_modules(getattr(package, "__path__", [])):
        out.append(importlib.import_module(f"{package.__name__}.{info.name}"))
    return out


def constant_comment(modname: str, name: str) -> list[str]:
    """The ``#:`` comment of constant ``modname.name``, from the module that defines it.

    The defining module is ``modname`` or the submodule of it that holds the same
    object under the same name; an empty list when neither has a comment.
    """
    package = importlib.import_module(modname)
    obj = safe_getattr(package, name, _MISSING)
    for module in _modules(package):
        if safe_getattr(module, name, _MISSING) is not obj:
            continue
        docs = ModuleAnalyzer.for_module(module.__name__).find_attr_docs().get(("", name))
        if docs:
            return list(docs)
    return []


def _constant_doc(app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]) -> None:
    """Make the docstring of constant ``name`` its ``#:`` comment (see the module docstring)."""
    if what != "data" or not name.startswith("ldpfair."):
        return
    modname, _, attr = name.rpartition(".")
    lines[:] = constant_comment(modname, attr)


class ConstantDocumenter(DataDocumenter):
    """autodoc's data documenter, for re-exported constants too, without long values."""

    @classmethod
    def can_document_member(cls, member: Any, membername: str, isattr: bool, parent: Any) -> bool:
        """Also a constant of the documented module's ``__all__`` defined in a submodule."""
        if super().can_document_member(member, membername, isattr, parent):
            return True
        return (isinstance(parent, ModuleDocumenter)
                and membername in safe_getattr(parent.object, "__all__", ())
                and not callable(member) and not isinstance(member, ModuleType)
                and bool(constant_comment(parent.modname, membername)))

    def should_suppress_value_header(self) -> bool:
        """Also hide a value whose repr is longer than :data:`MAX_VALUE`."""
        return super().should_suppress_value_header() or len(object_description(self.object)) > MAX_VALUE


def _keep_constants(app: Sphinx, what: str, name: str, obj: Any, skip: bool, options: Any) -> bool | None:
    """Keep a constant of the documented module's ``__all__`` that has a comment."""
    if what != "module" or not skip or callable(obj) or isinstance(obj, ModuleType):
        return None
    modname = app.env.temp_data.get("autodoc:module")  # set by autodoc before filtering
    if not modname or not modname.startswith("ldpfair"):
        return None
    if name not in safe_getattr(importlib.import_module(modname), "__all__", ()):
        return None
    return False if constant_comment(modname, name) else None


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the constant documenter and the two autodoc event handlers."""
    app.setup_extension("sphinx.ext.autodoc")
    app.add_autodocumenter(ConstantDocumenter, override=True)
    # after napoleon (priority 500): a constant's comment is prose, not a numpy docstring
    app.connect("autodoc-process-docstring", _constant_doc, priority=600)
    app.connect("autodoc-skip-member", _keep_constants)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
