// Compares two file-to-file edge sets (ours vs a reference), restricted to files both scanned, and sorts the
// mismatches into heuristic categories.
//
// An edge set is { files: Set<path>, edges: Map<"src\ttgt", {source, target, types:Set, specifiers:Set}> }.

/** `.d.ts`, `.d.cts`, `.d.mts` or the plain extension. */
export function kindOf(p) {
  const m = p.match(/\.d\.[cm]?ts$/) || p.match(/\.[^./]+$/);
  return m ? m[0] : '(none)';
}

/** Path without its (declaration) extension: `a/b.d.ts` → `a/b`, `a/b.js` → `a/b`. */
export function stemOf(p) {
  return p.replace(/\.d\.[cm]?ts$/, '').replace(/\.[^./]+$/, '');
}

const isRelative = (s) => s.startsWith('./') || s.startsWith('../') || s === '.' || s === '..' || s.startsWith('/');

function specExt(specs) {
  for (const s of specs) {
    if (!isRelative(s)) return 'bare';
    const m = s.match(/\.(?:[cm]?[jt]sx?)$/);
    return m ? m[0] : 'extensionless';
  }
  return '?';
}

function typeLabel(types) {
  const t = [...types];
  const has = (x) => t.includes(x);
  if (t.some((x) => x.startsWith('triple-slash'))) return 'triple-slash reference';
  if (has('type-import')) return 'type-only (import("…") type / import type)';
  if (has('type-only')) return 'type-only import/export';
  if (has('dynamic-import')) return 'dynamic import()';
  if (has('jsdoc') || t.some((x) => x.startsWith('jsdoc'))) return 'JSDoc import';
  if (has('import-equals')) return 'import x = require()';
  if (has('require')) return 'require()';
  if (has('reexport') || has('export')) return 're-export (export … from)';
  if (has('import')) return 'import';
  return t.join('+') || 'unknown kind';
}

/**
 * compare(ours, ref) → { files: {...}, counts: {...}, precision, recall, categories: [{ name, count, examples }] }.
 * Only edges whose source AND target are in the common file set count.
 */
export function compare(ours, ref, { refName = 'depcruise', maxExamples = 30, arbiter = null } = {}) {
  const common = new Set([...ours.files].filter((f) => ref.files.has(f)));
  const onlyOurs = [...ours.files].filter((f) => !ref.files.has(f)).sort();
  const onlyRef = [...ref.files].filter((f) => !ours.files.has(f)).sort();
  const restrict = (edges) => {
    const kept = new Map();
    let dropped = 0;
    for (const [k, e] of edges) {
      if (common.has(e.source) && common.has(e.target)) kept.set(k, e);
      else dropped++;
    }
    return { kept, dropped };
  };
  const o = restrict(ours.edges);
  const r = restrict(ref.edges);
  let tp = 0;
  const fp = [];
  const fn = [];
  for (const [k, e] of o.kept) (r.kept.has(k) ? tp++ : fp.push(e));
  for (const [k, e] of r.kept) if (!o.kept.has(k)) fn.push(e);
  const precision = o.kept.size ? tp / o.kept.size : r.kept.size ? 0 : 1;
  const recall = r.kept.size ? tp / r.kept.size : 1;

  // --- categorise
  const cats = new Map();
  // arbiter(source, specifier) → { by, target }: who is right about this mismatch, by an independent resolver
  const judge = (ex) => {
    if (!arbiter || !ex.specifier) return null;
    const { by, target } = arbiter(ex.source, ex.specifier.split(' | ')[0]);
    const oursT = ex.ours ?? null;
    const refT = ex.ref ?? null;
    const side = target === oursT ? 'ours' : target === refT ? refName : 'neither';
    return { by, target, side };
  };
  const add = (name, example) => {
    let c = cats.get(name);
    if (!c) cats.set(name, (c = { name, count: 0, examples: [], arbiter: null }));
    c.count++;
    const j = judge(example);
    if (j) {
      c.arbiter ??= { by: new Set(), ours: 0, [refName]: 0, neither: 0 };
      c.arbiter.by.add(j.by);
      c.arbiter[j.side]++;
      example.arbiter = `${j.by} → ${j.target ?? 'nothing'}`;
    }
    c.examples.push(example);
  };
  // pair "resolved differently": same source, same target stem, different target file
  const fpBySrcStem = new Map();
  for (const e of fp) {
    const k = `${e.source}\t${stemOf(e.target)}`;
    if (!fpBySrcStem.has(k)) fpBySrcStem.set(k, []);
    fpBySrcStem.get(k).push(e);
  }
  const pairedFp = new Set();
  for (const e of fn) {
    const k = `${e.source}\t${stemOf(e.target)}`;
    const cands = (fpBySrcStem.get(k) ?? []).filter((x) => !pairedFp.has(x));
    if (cands.length) {
      const x = cands[0];
      pairedFp.add(x);
      const se = specExt(e.specifiers.size ? e.specifiers : x.specifiers);
      const spec = se === 'bare' ? 'a package specifier' : se === 'extensionless' ? './x' : `./x${se}`;
      add(`${kindOf(e.source)} importing ${spec}: ours→x${kindOf(x.target)}, ${refName}→x${kindOf(e.target)}`, {
        source: e.source,
        ours: x.target,
        ref: e.target,
        specifier: [...e.specifiers][0] ?? [...x.specifiers][0] ?? '',
      });
      continue;
    }
    const bare = e.specifiers.size && [...e.specifiers].every((s) => !isRelative(s));
    add(`missing in ours: ${bare ? 'bare / self-reference specifier (package name, exports field)' : typeLabel(e.types)} [${kindOf(e.source)} → ${kindOf(e.target)}]`, {
      source: e.source,
      ref: e.target,
      specifier: [...e.specifiers].join(' | '),
      types: [...e.types].join(','),
    });
  }
  for (const e of fp) {
    if (pairedFp.has(e)) continue;
    const bare = e.specifiers.size && [...e.specifiers].every((s) => !isRelative(s));
    add(`extra in ours: ${bare ? 'bare / self-reference specifier (package name, exports field)' : typeLabel(e.types)} [${kindOf(e.source)} → ${kindOf(e.target)}]`, {
      source: e.source,
      ours: e.target,
      specifier: [...e.specifiers].join(' | '),
      types: [...e.types].join(','),
    });
  }
  const categories = [...cats.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  // spread up to maxExamples examples over the categories, round robin, so every category shows at least one
  const shown = new Map(categories.map((c) => [c.name, []]));
  let left = maxExamples;
  for (let i = 0; left > 0; i++) {
    let any = false;
    for (const c of categories) {
      if (left > 0 && i < c.examples.length) {
        shown.get(c.name).push(c.examples[i]);
        left--;
        any = true;
      }
    }
    if (!any) break;
  }
  for (const c of categories) {
    c.examples = shown.get(c.name);
    if (c.arbiter) c.arbiter.by = [...c.arbiter.by].join('+');
  }

  return {
    files: { ours: ours.files.size, ref: ref.files.size, common: common.size, onlyOurs, onlyRef },
    counts: {
      oursEdges: ours.edges.size,
      refEdges: ref.edges.size,
      oursKept: o.kept.size,
      refKept: r.kept.size,
      oursDropped: o.dropped,
      refDropped: r.dropped,
      tp,
      fp: fp.length,
      fn: fn.length,
    },
    precision,
    recall,
    categories,
  };
}

/**
 * A deterministic perturbation of an edge set, for testing the comparison: drops `drop` edges, retargets
 * `retarget` edges to another file, adds `add` new edges. Returns { edges: perturbed set, expected: {tp, fp, fn} }.
 */
export function perturb(set, { drop = 10, retarget = 10, add = 10, seed = 1 } = {}) {
  let s = seed >>> 0;
  const rand = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const keys = [...set.edges.keys()].sort();
  const files = [...set.files].sort();
  const edges = new Map(set.edges);
  const picked = new Set();
  const pick = () => {
    for (;;) {
      const k = keys[Math.floor(rand() * keys.length)];
      if (!picked.has(k)) {
        picked.add(k);
        return k;
      }
    }
  };
  for (let i = 0; i < drop; i++) edges.delete(pick());
  let retargeted = 0;
  for (let i = 0; i < retarget; i++) {
    const k = pick();
    const e = edges.get(k);
    for (let tries = 0; tries < 100; tries++) {
      const t = files[Math.floor(rand() * files.length)];
      const nk = `${e.source}\t${t}`;
      if (t !== e.target && !set.edges.has(nk) && !edges.has(nk)) {
        edges.delete(k);
        edges.set(nk, { ...e, target: t });
        retargeted++;
        break;
      }
    }
  }
  let added = 0;
  for (let tries = 0; added < add && tries < add * 100; tries++) {
    const a = files[Math.floor(rand() * files.length)];
    const b = files[Math.floor(rand() * files.length)];
    const nk = `${a}\t${b}`;
    if (a !== b && !set.edges.has(nk) && !edges.has(nk)) {
      edges.set(nk, { source: a, target: b, types: new Set(['import']), specifiers: new Set(['./perturbed']) });
      added++;
    }
  }
  const n = set.edges.size;
  return {
    set: { files: set.files, edges },
    expected: { tp: n - drop - retargeted, fp: retargeted + added, fn: drop + retargeted },
  };
}
