import picomatch from 'picomatch';

/**
 * A literal every path a glob matches holds: for a glob made only of names, `.`, `-`, `_`, `/` and `*` (the built-in
 * exclusions are), its longest run without `*`, less the slashes at its ends (`**\/x/**` matches `x`, `a/**` matches
 * `a`). Null for any other glob (braces, classes, `?`, negation, escapes, `.` or `..` parts): no shortcut is taken for it.
 */
function requiredLiteral(glob: string): string | null {
  if (!/^[\w.\-/*]+$/.test(glob) || glob.split('/').some((part) => part === '.' || part === '..')) return null;
  let best = '';
  for (const run of glob.split('*')) {
    const literal = run.replace(/^\/+|\/+$/g, '');
    if (literal.length > best.length) best = literal;
  }
  return best || null;
}

/**
 * One predicate for a list of globs over root-relative `/` paths (dot files included), e.g. the MCP server's denied
 * paths and the scan's include and exclude lists. The same answer as `picomatch(globs, { dot: true })`, whose
 * matcher, for a path other than '', is "equals a glob, or its regular expression matches": here the expressions are
 * made once and tried without the result objects picomatch builds on every call, and not at all on a path without
 * the glob's required literal (the scan asks for each file).
 */
export function globMatcher(globs: readonly string[]): (rel: string) => boolean {
  const literal = new Set(globs);
  const tests = globs.map((g) => ({ re: picomatch.makeRe(g, { dot: true }), needs: requiredLiteral(g) }));
  return (rel) => {
    if (rel === '') return false;
    if (literal.has(rel)) return true;
    for (const t of tests) if ((t.needs === null || rel.includes(t.needs)) && t.re.test(rel)) return true;
    return false;
  };
}
