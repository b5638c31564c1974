import picomatch from 'picomatch';

/**
 * One predicate for a list of globs over root-relative `/` paths (dot files included), e.g. the MCP server's denied
 * paths and the scan's include and exclude lists. The same answer as `picomatch(globs, { dot: true })`, whose
 * matcher, for a path other than '', is "equals a glob, or its regular expression matches": here the expressions are
 * made once and tried without the result objects picomatch builds on every call (the scan asks for each file).
 */
export function globMatcher(globs: readonly string[]): (rel: string) => boolean {
  const literal = new Set(globs);
  const expressions = globs.map((g) => picomatch.makeRe(g, { dot: true }));
  return (rel) => {
    if (rel === '') return false;
    if (literal.has(rel)) return true;
    for (const re of expressions) if (re.test(rel)) return true;
    return false;
  };
}
