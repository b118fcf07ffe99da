"""Structural rules: views reach case data only through policy; forms list their fields."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

from django import forms as django_forms

import caseflow
from caseflow.accounts.models import Agency

ROOT = Path(caseflow.__file__).parent


def _view_modules() -> list[Path]:
    return sorted(p for p in ROOT.rglob("views*.py")) + sorted(ROOT.rglob("views/*.py"))


def test_views_never_use_model_managers_directly():
    offenders = []
    scanned = 0
    for path in _view_modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("objects", "_default_manager"):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
        scanned += 1
    assert scanned >= 2
    assert offenders == [], "views must fetch through caseflow.policy or a selector"


def test_there_are_views_to_check():
    assert len(_view_modules()) >= 2


# --- Forms list their fields ---------------------------------------------------------------

FORM_FACTORIES = {"modelform_factory", "modelformset_factory", "inlineformset_factory"}


def _unlisted_fields(source: str) -> tuple[list[int], int]:
    """Lines of ``source`` that give a form every field of a model, and how many ``Meta`` classes
    it has: ``fields = "__all__"`` anywhere, ``exclude`` in a ``Meta`` class, and a form factory
    called with ``fields="__all__"`` or ``exclude=``."""
    lines = []
    metas = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == "Meta":
            metas += 1
            lines += [s.lineno for s in node.body if "exclude" in _assigned_names(s)]
        if "fields" in _assigned_names(node) and _is_all(node.value):
            lines.append(node.lineno)
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            for keyword in node.keywords:
                if (keyword.arg == "fields" and _is_all(keyword.value)) or (
                    keyword.arg == "exclude" and name in FORM_FACTORIES
                ):
                    lines.append(node.lineno)
    return sorted(set(lines)), metas


def _is_all(value: ast.AST | None) -> bool:
    return isinstance(value, ast.Constant) and value.value == "__all__"


def _assigned_names(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    return set()


def test_the_field_scan_finds_what_it_looks_for():
    source = (
        "from django import forms\n"
        "class A(forms.ModelForm):\n"
        "    class Meta:\n"
        "        model = M\n"
        '        fields = "__all__"\n'
        "class B(forms.ModelForm):\n"
        "    class Meta:\n"
        "        model = M\n"
        "        exclude = ['secret']\n"
        "C = forms.modelform_factory(M, exclude=['secret'])\n"
        'D = forms.modelform_factory(M, fields="__all__")\n'
        "class E(forms.ModelForm):\n"
        "    class Meta:\n"
        "        model = M\n"
        "        fields = ['name']\n"
    )
    assert _unlisted_fields(source) == ([5, 9, 10, 11], 3)


def test_no_form_uses_all_fields_or_exclude():
    offenders = []
    scanned = metas = 0
    for path in sorted(ROOT.rglob("*.py")):
        lines, found = _unlisted_fields(path.read_text())
        offenders += [f"{path.relative_to(ROOT)}:{line}" for line in lines]
        scanned += 1
        metas += found
    assert scanned >= 100  # every Python file under caseflow/
    assert metas >= 10  # the models' Meta classes at least: the scan reads class bodies
    assert offenders == [], "forms list their fields: no fields='__all__', no exclude"


def _form_classes() -> list[type]:
    """Every form class defined in caseflow, after importing each of its modules."""
    for module in pkgutil.walk_packages([str(ROOT)], "caseflow."):
        if ".migrations" not in module.name:
            importlib.import_module(module.name)
    found: set[type] = set()
    pending = [django_forms.BaseForm]
    while pending:
        for cls in pending.pop().__subclasses__():
            pending.append(cls)
            if cls.__module__.startswith("caseflow."):
                found.add(cls)
    return sorted(found, key=lambda cls: (cls.__module__, cls.__qualname__))


def _form_problem(cls: type) -> str:
    """Why the form class ``cls`` does not list its fields explicitly; "" when it does."""
    meta = getattr(cls, "Meta", None)
    if getattr(meta, "exclude", None) is not None:
        return "Meta.exclude"
    fields = getattr(meta, "fields", None)
    if fields == "__all__":
        return 'Meta.fields = "__all__"'
    # (Django itself refuses a Meta.fields name that is not a field of the model.)
    if issubclass(cls, django_forms.BaseModelForm) and not (
        isinstance(fields, list | tuple) and fields
    ):
        return "a model form without a Meta.fields list"
    return ""


def test_the_form_check_finds_what_it_looks_for():
    def model_form(**meta):
        return type("Bad", (django_forms.ModelForm,), {"Meta": type("Meta", (), meta)})

    assert _form_problem(model_form(model=Agency, fields="__all__")) != ""
    assert _form_problem(model_form(model=Agency, exclude=["slug"])) != ""
    assert _form_problem(model_form(model=Agency, fields=["name", "slug"])) == ""


def test_every_form_lists_its_fields():
    classes = _form_classes()
    modules = {cls.__module__ for cls in classes}
    forms_modules = {
        "caseflow." + ".".join(p.relative_to(ROOT).with_suffix("").parts)
        for p in ROOT.rglob("forms.py")
    }
    assert forms_modules and forms_modules <= modules  # every app's forms were found
    assert len(classes) >= 40
    problems = [f"{c.__module__}.{c.__qualname__}: {p}" for c in classes if (p := _form_problem(c))]
    assert problems == []


# --- One registry: the features of a case ---------------------------------------------------
#
# A part of caseflow joins the case through caseflow.cases.features.register_feature, nothing
# else. Django's own registration calls (register_converter, checks.register, a template
# library's register.filter, admin.register) are calls into the framework, not registries of
# ours: the rule looks at the functions caseflow defines.

REGISTRY_NAME = re.compile(r"_*register(_.*)?$")
ALLOWED_REGISTRIES = {
    "caseflow/cases/features.py: register_feature",
    # Django's own admin registry, overridden so that every model admin is audited.
    "caseflow/accounts/admin_site.py: register",
}


def _registry_functions(source: str, name: str) -> list[str]:
    return [
        f"{name}: {node.name}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and REGISTRY_NAME.match(node.name)
    ]


def test_the_registry_rule_finds_what_it_looks_for():
    source = (
        "def register_panel(p): ...\n"
        "def _register_providers(): ...\n"
        "def register(): ...\n"
        "def registered_sources(): ...\n"
        "class A:\n    def register_kind(self): ...\n"
    )
    assert _registry_functions(source, "x.py") == [
        "x.py: register_panel",
        "x.py: _register_providers",
        "x.py: register",
        "x.py: register_kind",
    ]


def test_no_registry_but_the_features_one():
    found = []
    scanned = 0
    for path in sorted(ROOT.rglob("*.py")):
        name = str(path.relative_to(ROOT.parent))
        found += _registry_functions(path.read_text(), name)
        scanned += 1
    assert scanned >= 200
    assert set(found) == ALLOWED_REGISTRIES, "a feature joins the case as a CaseFeature member"


# --- The cache is read only through caseflow.lib.softcache -----------------------------------


def _cache_importers() -> list[str]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            if any(n == "django.core.cache" or n.startswith("django.core.cache.") for n in names):
                found.append(str(path.relative_to(ROOT)))
    return found


def test_only_softcache_touches_the_cache():
    """Everything else would fail with the cache (a Redis that is down): see softcache."""
    assert sorted(set(_cache_importers())) == ["lib/softcache.py"]


# --- No import cycle anywhere in caseflow ---------------------------------------------------
#
# import-linter checks between apps; a circle inside one app (the journey and the case services
# importing each other) it does not see. Imports made only for type checking are not cycles.


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_anywhere_in_caseflow():
    import sys

    import grimp

    sys.path.insert(0, str(ROOT.parent))
    try:
        graph = grimp.build_graph("caseflow", exclude_type_checking_imports=True)
    finally:
        sys.path.remove(str(ROOT.parent))
    modules = {m for m in graph.modules if ".migrations" not in m}
    edges = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
    assert len(modules) >= 200 and sum(len(e) for e in edges.values()) >= 500
    assert _cycles(edges) == []
