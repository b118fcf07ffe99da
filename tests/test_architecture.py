"""Structural rules: views reach case data only through policy; forms list their fields."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from django import forms as django_forms

import caseflow

ROOT = Path(caseflow.__file__).parent


def _view_modules() -> list[Path]:
    return sorted(p for p in ROOT.rglob("views*.py")) + sorted(ROOT.rglob("views/*.py"))


def test_views_never_use_model_managers_directly():
    offenders = []
    for path in _view_modules():
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("objects", "_default_manager"):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == [], "views must fetch through caseflow.policy or a selector"


def test_there_are_views_to_check():
    assert len(_view_modules()) >= 2


def test_no_form_uses_all_fields_or_exclude():
    offenders = []
    for path in ROOT.rglob("*.py"):
        text = path.read_text()
        if '"__all__"' in text and "fields" in text:
            tree = ast.parse(text)
            for node in ast.walk(tree):
                if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id in ("fields", "exclude") for t in node.targets
                ):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []


def test_model_forms_declare_explicit_fields():
    import importlib

    for path in ROOT.rglob("forms.py"):
        module = importlib.import_module(
            "caseflow." + ".".join(path.relative_to(ROOT).with_suffix("").parts)
        )
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, django_forms.ModelForm) and cls is not django_forms.ModelForm:
                meta = getattr(cls, "Meta", None)
                assert getattr(meta, "exclude", None) is None, cls
                assert isinstance(getattr(meta, "fields", None), list | tuple), cls
