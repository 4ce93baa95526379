#!/usr/bin/env python3
"""Checks that every target's dependencies in Package.swift are exactly the modules its Swift files import.

    Scripts/check-imports.py

SwiftPM lets a target import any module built before it (a dependency's dependency, or one another
target happened to build), so an undeclared import compiles until the build order changes, and the
module graph in Package.swift stops telling the truth. This reads the manifest (`swift package
dump-package`, with MARBLE_FUZZ=1 so the fuzz harnesses count too), finds every `import X` (any
attributes or access level) in each target's .swift files, and compares, per target:
  - missing: a module of this package or of a dependency product imported but not declared;
  - unused: a declared dependency no file imports. Executable targets are exempt (tests run the built
    programs, they do not import them), and so is a product a target only links (LINK_ONLY, with why).
System modules (Foundation, Testing, Glibc, ...) are not dependencies and are ignored. A product's
module is assumed to have the product's name (true of every product the package uses).
Prints one line per problem and exits 1 if there is any; prints a summary and exits 0 otherwise.
"""
import json
import os
import re
import subprocess
import sys

# Declared on purpose without an import: (target, dependency) → why.
LINK_ONLY = {}

IMPORT = re.compile(
    r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)",
    re.M)


def manifest(root):
    env = dict(os.environ, MARBLE_FUZZ="1")
    out = subprocess.run(["swift", "package", "dump-package"], cwd=root, env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def target_folder(target):
    if target.get("path"):
        return target["path"]
    return ("Tests/" if target["type"] == "test" else "Sources/") + target["name"]


def dependency_name(dependency):
    # {"byName": [name, condition]}, {"target": [name, condition]}, {"product": [name, package, ...]}
    return next(iter(dependency.values()))[0]


def imports(root, target):
    folder = os.path.join(root, target_folder(target))
    excluded = [os.path.join(folder, e) for e in target.get("exclude", [])]
    found = {}
    for parent, _, files in os.walk(folder):
        if any(parent == e or parent.startswith(e + os.sep) for e in excluded):
            continue
        for name in files:
            path = os.path.join(parent, name)
            if not name.endswith(".swift") or path in excluded:
                continue
            with open(path, encoding="utf-8") as f:
                for module in IMPORT.findall(f.read()):
                    found.setdefault(module, os.path.relpath(path, root))
    return found


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    package = manifest(root)
    targets = package["targets"]
    kinds = {t["name"]: t["type"] for t in targets}
    products = {dependency_name(d) for t in targets for d in t["dependencies"] if "product" in d}
    known = set(kinds) | products
    problems = []
    for target in targets:
        if target["type"] == "system":
            continue
        name = target["name"]
        declared = {dependency_name(d) for d in target["dependencies"]}
        used = {m: f for m, f in imports(root, target).items() if m in known and m != name}
        for module in sorted(set(used) - declared):
            problems.append(f"{name}: imports {module} ({used[module]}) without declaring it")
        for module in sorted(declared - set(used)):
            if kinds.get(module) == "executable" or (name, module) in LINK_ONLY:
                continue
            problems.append(f"{name}: declares {module} but no file imports it")
    for line in problems:
        print(line)
    if problems:
        return 1
    checked = sum(1 for t in targets if t["type"] != "system")
    print(f"check-imports: the dependencies of {checked} targets match their imports")
    return 0


if __name__ == "__main__":
    sys.exit(main())
