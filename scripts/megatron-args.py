#!/usr/bin/env python3
"""Lists the command-line flags Megatron-LM's `parse_args` accepts, from its source, without importing it.

Usage: scripts/megatron-args.py MEGATRON_CHECKOUT [COMMIT] > compiler/src/compat/megatron/megatron-args.txt

Megatron builds its parser from explicit `add_argument('--flag', ...)` calls in
`megatron/training/arguments.py` and from dataclasses through `ArgumentGroupFactory(Config,
exclude=[...])` (`megatron/training/argument_utils.py`): one `--field-name` per dataclass field
(bases included, `init=False` and excluded fields skipped), `--no-field` and `--disable-field`
for a bool that defaults to True, or the names in the field's `argparse_meta["arg_names"]`.
This script reads both with Python's `ast` (no torch needed) and prints one flag per line after
a header naming the commit. attnc's tests read the list to check `attnc tune --emit megatron`.
"""
import ast
import pathlib
import subprocess
import sys

root = pathlib.Path(sys.argv[1])
args_py = root / "megatron/training/arguments.py"
tree = ast.parse(args_py.read_text())
flags = set()

# Every class definition under megatron/, to resolve factories' dataclasses and their bases.
classes = {}
for path in (root / "megatron").rglob("*.py"):
    try:
        module = ast.parse(path.read_text())
    except SyntaxError:
        continue
    for node in module.body:
        if isinstance(node, ast.ClassDef):
            classes.setdefault(node.name, node)


def literal_strings(node, scope):
    if isinstance(node, ast.Name) and node.id in scope:
        node = scope[node.id]
    try:
        value = ast.literal_eval(node)
    except ValueError:
        return []
    return [v for v in value if isinstance(v, str)]


def fields(class_name):
    node = classes.get(class_name)
    if node is None:
        raise SystemExit(f"class {class_name} not found")
    out = []
    for base in node.bases:
        if isinstance(base, ast.Name) and base.id in classes:
            out.extend(fields(base.id))
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            out.append((stmt.target.id, stmt.annotation, stmt.value))
    return out


def field_flags(name, annotation, value):
    default = value
    meta_names = None
    init = True
    if isinstance(value, ast.Call) and getattr(value.func, "id", getattr(value.func, "attr", "")) == "field":
        default = None
        for kw in value.keywords:
            if kw.arg == "default":
                default = kw.value
            if kw.arg == "init" and isinstance(kw.value, ast.Constant) and kw.value.value is False:
                init = False
            if kw.arg == "metadata" and isinstance(kw.value, ast.Dict):
                for k, v in zip(kw.value.keys, kw.value.values):
                    if isinstance(k, ast.Constant) and k.value == "argparse_meta" and isinstance(v, ast.Dict):
                        for mk, mv in zip(v.keys, v.values):
                            if isinstance(mk, ast.Constant) and mk.value == "arg_names":
                                meta_names = ast.literal_eval(mv)
    if not init:
        return []
    if meta_names:
        return meta_names
    dashed = name.replace("_", "-")
    is_bool = isinstance(annotation, ast.Name) and annotation.id == "bool"
    if is_bool and isinstance(default, ast.Constant) and default.value is True:
        return [f"--no-{dashed}", f"--disable-{dashed}"]
    return [f"--{dashed}"]


for function in ast.walk(tree):
    if not isinstance(function, ast.FunctionDef):
        continue
    scope = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            scope[node.targets[0].id] = node.value
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        callee = node.func
        if isinstance(callee, ast.Attribute) and callee.attr == "add_argument":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("--"):
                    flags.add(arg.value)
        if isinstance(callee, ast.Name) and callee.id == "ArgumentGroupFactory":
            class_name = node.args[0].id
            exclude = set()
            for kw in node.keywords:
                if kw.arg == "exclude":
                    exclude = set(literal_strings(kw.value, scope))
            for name, annotation, value in fields(class_name):
                if name not in exclude and not name.startswith("_"):
                    flags.update(field_flags(name, annotation, value))

commit = sys.argv[2] if len(sys.argv) > 2 else subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
print(f"# Megatron-LM's command-line flags at commit {commit or 'unknown'},")
print("# read from megatron/training/arguments.py and its ArgumentGroupFactory dataclasses by scripts/megatron-args.py.")
for flag in sorted(flags):
    print(flag)
