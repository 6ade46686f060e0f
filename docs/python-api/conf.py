# SPDX-License-Identifier: MIT
# Sphinx configuration of the Python package's API reference (docs/python.md is the guide).
#   PYTHONPATH=build/python python3 -m sphinx -b html docs/python-api build/python-docs/html
# ctest's python_docs builds it and runs every example in it (-b doctest).
import sosrep

project = "sosrep"
release = version = sosrep.__version__
extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx.ext.doctest"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
autodoc_member_order = "groupwise"
autodoc_default_options = {"members": True, "inherited-members": True,
                           "exclude-members": "get_params, set_params, set_output, offset_, "
                                              "decision_scores_, threshold_, labels_"}
# (The fitted properties are in each class's Attributes section, from its docstring.)
html_theme = "alabaster"
html_static_path = []
exclude_patterns = []


def _estimator_sections(app, docname, source):
    """One section per class of the registry (a new plug-in appears here without editing)."""
    marker = ".. sosrep-estimators::"
    if marker not in source[0]:
        return
    parts = []
    for name in sosrep.estimators():
        cls = sosrep._by_name[name]
        title = f"{cls.__name__} (``{name}``)"
        parts.append(f"{title}\n{'-' * len(title)}\n\n.. autoclass:: sosrep.{cls.__name__}\n")
    source[0] = source[0].replace(marker, "\n".join(parts))


def setup(app):
    app.connect("source-read", _estimator_sections)
