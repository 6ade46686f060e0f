# SPDX-License-Identifier: MIT
"""Issue 37: the generated classes' docs (numpydoc from the option tables) and type stubs."""
import pathlib
import pydoc

import sosrep
from sosrep._estimators import keyword_of
from sosrep._stubs import stubs

STUB = pathlib.Path(__file__).resolve().parents[2] / "app" / "python" / "sosrep" / "__init__.pyi"


def test_every_option_is_documented_with_its_choices_and_default():
    for name in sosrep.estimators():
        cls = sosrep._by_name[name]
        doc = cls.__doc__
        for section in ("Parameters\n----------", "Attributes\n----------",
                        "Examples\n--------"):
            assert section in doc, (name, section)
        for spec in cls._option_specs.values():
            keyword = keyword_of(spec["name"])
            head = next((line for line in doc.splitlines() if line.startswith(keyword + " : ")),
                        None)
            assert head is not None, (name, keyword)
            for choice in spec.get("choices") or []:
                assert f'"{choice}"' in head, (name, keyword, choice, head)
            assert "default=" in head, head
        # scikit-learn's and PyOD's keywords beside the options.
        for extra in ("n_jobs : ",):
            assert extra in doc, (name, extra)


def test_help_shows_the_choices_of_scale():
    text = pydoc.render_doc(sosrep.SOSREP, renderer=pydoc.plaintext)
    assert 'scale : {"auto", "minmax", "zscore", "robust", "quantile", "rank", "none"}' in text
    assert "Returns" in pydoc.render_doc(sosrep.SOSREP.score_samples, renderer=pydoc.plaintext)


def test_the_committed_stubs_are_the_generated_ones():
    assert STUB.read_text(encoding="utf-8") == stubs(), (
        "app/python/sosrep/__init__.pyi is stale: regenerate it with "
        "`PYTHONPATH=build/python python3 -m sosrep._stubs > app/python/sosrep/__init__.pyi`")


def test_the_stubs_name_every_keyword_of_every_class():
    text = STUB.read_text(encoding="utf-8")
    for name in sosrep.estimators():
        cls = sosrep._by_name[name]
        block = text.split(f"class {cls.__name__}(", 1)[1].split("\nclass ", 1)[0]
        for p in cls.__init__.__signature__.parameters:
            if p != "self":
                assert f"        {p}: " in block, (cls.__name__, p)
