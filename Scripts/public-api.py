#!/usr/bin/env python3
"""Lists the public API of every library module and compares it with the committed docs/public-api.txt.

    Scripts/public-api.py            compare; exit 1 with a diff when they differ
    Scripts/public-api.py --update   rewrite docs/public-api.txt from the code
    Scripts/public-api.py --counts   print the number of public symbols per module

The public API is what an embedder sees: what the DocC articles and the sample programs use. Whatever
only the project itself uses is `package` (or internal), so it is not listed. Listing the rest in a
committed file makes a change to it deliberate: a symbol made public, removed or given another
signature shows in the diff and needs `--update` in the same commit.

How: `swift package dump-symbol-graph --minimum-access-level public` (it reuses the debug build), then
one line per symbol, sorted: `Module kind path: declaration`. Symbols of a module's extensions to
another module's types (Module@Other.symbols.json) count as the extending module's. Synthesised members
(default implementations, inherited members) are left out. Library modules are the package's library
targets under Sources/ or Shaders/ that are written in Swift (executables, tests and C modules are not
API).
"""
import collections
import difflib
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LISTING = os.path.join(ROOT, "docs", "public-api.txt")
HEADER = ("# The public API of MarbleKit's library modules, one symbol a line: module, kind, path, declaration.\n"
          "# Checked by CI (Scripts/public-api.py); after a deliberate change, Scripts/public-api.py --update.\n")


def library_modules():
    """The Swift library targets of the package (not tests, executables or system libraries)."""
    described = json.loads(subprocess.run(["swift", "package", "describe", "--type", "json"], cwd=ROOT, check=True,
                                          capture_output=True, text=True).stdout)
    return sorted(t["name"] for t in described["targets"]
                  if t.get("type") == "library" and t.get("module_type") == "SwiftTarget"
                  and not t["path"].startswith("Tests"))


def symbol_graph_directory():
    """Dumps the symbol graphs and returns the folder they were written to (the command prints it)."""
    run = subprocess.run(["swift", "package", "dump-symbol-graph", "--minimum-access-level", "public",
                          "--skip-synthesized-members"], cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        sys.stderr.write(run.stdout + run.stderr)
        sys.exit(f"public-api: swift package dump-symbol-graph failed (exit {run.returncode})")
    found = re.findall(r"Files written to (\S+)", run.stdout + run.stderr)
    if found:
        return found[-1]
    candidates = glob.glob(os.path.join(ROOT, ".build", "*", "symbolgraph"))
    if not candidates:
        sys.exit("public-api: no symbol graph folder found after dump-symbol-graph")
    return max(candidates, key=os.path.getmtime)


def declaration(symbol):
    text = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
    return " ".join(text.split())


def listing(modules, folder):
    lines = set()
    for path in glob.glob(os.path.join(folder, "*.symbols.json")):
        module = os.path.basename(path).split(".symbols.json")[0].split("@")[0]
        if module not in modules:
            continue
        graph = json.load(open(path, encoding="utf-8"))
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            name = ".".join(symbol["pathComponents"])
            lines.add(f"{module} {kind} {name}: {declaration(symbol)}")
    return sorted(lines)


def main():
    args = sys.argv[1:]
    if args and args[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if any(a not in ("--update", "--counts") for a in args):
        sys.exit(f"public-api: unknown argument {args}; see --help")
    modules = library_modules()
    lines = listing(set(modules), symbol_graph_directory())
    if "--counts" in args:
        counts = collections.Counter(line.split(" ", 1)[0] for line in lines)
        for m in modules:
            print(f"{counts.get(m, 0):6d}  {m}")
        print(f"{len(lines):6d}  total")
        return 0
    text = HEADER + "".join(line + "\n" for line in lines)
    if "--update" in args:
        os.makedirs(os.path.dirname(LISTING), exist_ok=True)
        open(LISTING, "w", encoding="utf-8").write(text)
        print(f"public-api: wrote {len(lines)} symbols to docs/public-api.txt")
        return 0
    committed = open(LISTING, encoding="utf-8").read() if os.path.exists(LISTING) else ""
    if committed == text:
        print(f"public-api: {len(lines)} public symbols, as listed in docs/public-api.txt")
        return 0
    sys.stdout.writelines(difflib.unified_diff(committed.splitlines(True), text.splitlines(True),
                                               "docs/public-api.txt (committed)", "the code's public API"))
    print("public-api: the public API differs from docs/public-api.txt. If the change is deliberate, run "
          "Scripts/public-api.py --update and commit the listing with it.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
