"""The engine stays pure: only the standard library and rules.engine itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import rules.engine

ENGINE = Path(rules.engine.__file__).parent


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                names.append("rules.engine")  # relative imports stay inside the package
            elif node.module:
                names.append(node.module)
    return names


def test_engine_imports_only_the_stdlib_and_itself() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert len(files) > 5
    offenders = []
    for path in files:
        for name in imported_modules(path):
            top = name.split(".")[0]
            if top == "__future__" or top in sys.stdlib_module_names:
                continue
            if name == "rules.engine" or name.startswith("rules.engine."):
                continue
            offenders.append(f"{path.relative_to(ENGINE.parent.parent)} imports {name}")
    assert offenders == []


def test_the_check_catches_an_outside_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import django\nfrom tables import models\nfrom rules import views\n")
    assert imported_modules(bad) == ["django", "tables", "rules"]
