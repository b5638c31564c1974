import picomatch from 'picomatch';

/** One predicate for a list of globs over root-relative `/` paths (dot files included), e.g. the MCP server's denied paths. */
export function globMatcher(globs: readonly string[]): (rel: string) => boolean {
  return picomatch([...globs], { dot: true });
}
