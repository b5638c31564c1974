#!/usr/bin/env python3
"""
Reference file-to-file import edges of a Python tree, by Python's own rules, independent of the engine.

Every import statement anywhere in a file (ast.walk: module level, functions, try, if TYPE_CHECKING) is resolved with
the import system's own path finder, importlib.machinery.PathFinder, one name at a time as the import system does it
(a package's submodules are looked for in its __path__, namespace packages span path entries), without executing
anything. sys.path for a file is its own base folder (the first folder up without __init__.py, as Python puts a
script's folder and pytest a test's first non-package folder first) followed by the roots given on the command line.

An edge goes to the most specific module a statement names: `import a.b` -> a/b.py or a/b/__init__.py;
`from a.b import c` -> a/b/c.py when c is a submodule, else a/b/__init__.py. A namespace package has no file: no edge.
Relative imports resolve against the importing module's package (importlib.util.resolve_name), and not beyond its
top-level package.

Usage: python_reference.py <tree> <root> [<root> ...]   (roots relative to <tree>; '.' is the tree itself)
Prints JSON: {"edges": [[source, target], ...], "files": N, "statements": N}, paths relative to <tree>.
"""
import ast
import importlib.machinery
import importlib.util
import json
import os
import sys


def main():
    tree = os.path.realpath(sys.argv[1])
    roots = [os.path.normpath(os.path.join(tree, r)) for r in sys.argv[2:]] or [tree]
    files = []
    for d, dirs, names in os.walk(tree):
        dirs[:] = sorted(x for x in dirs if not x.startswith('.') and x not in ('__pycache__', 'node_modules'))
        for n in names:
            if n.endswith('.py'):
                files.append(os.path.join(d, n))
    files.sort()
    spec_cache = {}

    def find(fullname, path):
        """The spec of `fullname` found by the path finder on `path` (a list of folders), or None."""
        key = (fullname, tuple(path))
        if key not in spec_cache:
            try:
                spec_cache[key] = importlib.machinery.PathFinder.find_spec(fullname, list(path))
            except (ImportError, ValueError):
                spec_cache[key] = None
        return spec_cache[key]

    def find_dotted(name, sys_path):
        """The spec of a dotted module name as `import` walks it: each part in its parent's __path__."""
        parts = name.split('.')
        spec = None
        path = sys_path
        for i in range(len(parts)):
            if spec is not None and spec.submodule_search_locations is None:
                return None  # a plain module has no submodules
            spec = find('.'.join(parts[: i + 1]), path)
            if spec is None:
                return None
            path = list(spec.submodule_search_locations or [])
        return spec

    def origin(spec):
        if spec is None or not spec.origin or spec.origin in ('namespace', 'built-in', 'frozen'):
            return None
        if not spec.origin.endswith('.py'):
            return None
        return os.path.realpath(spec.origin)

    def base_dir(f):
        d = os.path.dirname(f)
        while d != tree and os.path.exists(os.path.join(d, '__init__.py')):
            d = os.path.dirname(d)
        return d

    def module_name(f, sys_path):
        """The module's dotted name under the first sys.path entry holding it (longest declared root first)."""
        for entry in sorted(roots, key=len, reverse=True) + [base_dir(f)]:
            if f.startswith(entry + os.sep):
                rel = os.path.relpath(f, entry)[:-3].split(os.sep)
                if rel[-1] == '__init__':
                    return '.'.join(rel[:-1]), True
                return '.'.join(rel), False
        return None, False

    edges = set()
    statements = 0
    for f in files:
        try:
            with open(f, 'rb') as fh:
                node = ast.parse(fh.read(), f)
        except (SyntaxError, ValueError):
            continue
        sys_path = [base_dir(f)] + [r for r in roots if r != base_dir(f)]
        name, is_package = module_name(f, sys_path)
        package = name if is_package else (name.rpartition('.')[0] if name else '')
        src = os.path.relpath(f, tree)
        for n in ast.walk(node):
            targets = []
            if isinstance(n, ast.Import):
                for alias in n.names:
                    statements += 1
                    targets.append(origin(find_dotted(alias.name, sys_path)))
            elif isinstance(n, ast.ImportFrom):
                statements += 1
                if n.level:
                    if not package or n.level - 1 > package.count('.'):
                        continue  # beyond the top-level package: ImportError
                    try:
                        mod = importlib.util.resolve_name('.' * n.level + (n.module or ''), package)
                    except (ImportError, ValueError):
                        continue
                else:
                    mod = n.module
                if mod == '__future__':
                    continue
                spec = find_dotted(mod, sys_path)
                if spec is None:
                    continue
                own = False
                for alias in n.names:
                    if alias.name != '*' and spec.submodule_search_locations is not None:
                        sub = find(mod + '.' + alias.name, list(spec.submodule_search_locations))
                        if sub is not None and origin(sub):
                            targets.append(origin(sub))
                            continue
                    own = True
                if own:
                    targets.append(origin(spec))
            for t in targets:
                if t and t.startswith(tree + os.sep) and t != os.path.realpath(f):
                    edges.add((src, os.path.relpath(t, tree)))
    json.dump({'edges': sorted(edges), 'files': len(files), 'statements': statements}, sys.stdout)


if __name__ == '__main__':
    main()
