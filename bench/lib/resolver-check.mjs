// An independent arbiter for mismatches: asks the TypeScript compiler's own module resolver (for TypeScript-family
// importers: .ts .tsx .mts .cts incl. .d.*) or Node's resolver (for .js .jsx .mjs .cjs importers) where a
// specifier written in a file really goes. Used only to label mismatches; it never changes either edge set.
//
// TypeScript: ts.resolveModuleName with { module: NodeNext, moduleResolution: NodeNext, allowJs: true } and the
// file's implied module format (ts.getImpliedNodeFormatForFile: package.json "type" + extension), the settings a
// modern TypeScript project uses. Node: a relative specifier with an extension is that exact file (ESM rule, and
// CommonJS too when the file exists); anything else goes through createRequire(importer).resolve (CommonJS
// resolution: extension probing, index files, package self-reference through "exports" with the require condition).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { TOOLS_DIR } from './common.mjs';

const TS_FAMILY = /\.(?:ts|tsx|mts|cts)$/;

export function makeResolverCheck(dir) {
  const ts = createRequire(path.join(TOOLS_DIR, 'package.json'))('typescript');
  const options = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowJs: true,
    resolveJsonModule: true,
    noEmit: true,
  };
  const host = {
    fileExists: (f) => ts.sys.fileExists(f),
    readFile: (f) => ts.sys.readFile(f),
    directoryExists: (d) => ts.sys.directoryExists(d),
    realpath: (p) => ts.sys.realpath?.(p) ?? p,
    getCurrentDirectory: () => dir,
    getDirectories: (d) => ts.sys.getDirectories(d),
  };
  const cache = ts.createModuleResolutionCache(dir, (x) => x, options);
  const rel = (abs) => {
    const r = path.relative(dir, abs).split(path.sep).join('/');
    return r.startsWith('../') ? null : r;
  };
  const tsResolve = (importer, spec) => {
    const containing = path.join(dir, importer);
    const mode = ts.getImpliedNodeFormatForFile(containing, cache.getPackageJsonInfoCache(), host, options);
    const r = ts.resolveModuleName(spec, containing, options, host, cache, undefined, mode);
    return r.resolvedModule ? rel(r.resolvedModule.resolvedFileName) : null;
  };
  const nodeResolve = (importer, spec) => {
    const containing = path.join(dir, importer);
    if ((spec.startsWith('./') || spec.startsWith('../')) && path.extname(spec)) {
      const abs = path.resolve(path.dirname(containing), spec);
      if (fs.existsSync(abs)) return rel(abs);
    }
    try {
      return rel(createRequire(containing).resolve(spec));
    } catch {
      return null;
    }
  };
  const memo = new Map();
  /** Where `spec`, written in `importer` (corpus-relative), resolves: { by: 'typescript'|'node', target } */
  return (importer, spec) => {
    const k = `${importer}\t${spec}`;
    let v = memo.get(k);
    if (!v) {
      const by = TS_FAMILY.test(importer) ? 'typescript' : 'node';
      let target = null;
      try {
        target = by === 'typescript' ? tsResolve(importer, spec) : nodeResolve(importer, spec);
      } catch {}
      memo.set(k, (v = { by, target }));
    }
    return v;
  };
}
