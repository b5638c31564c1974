/**
 * Ruby's rules over the project's files.
 *
 * - `require_relative 'x'` (and `File.expand_path('../x', __FILE__)`-style paths, specified `./x`): the file's folder
 *   + `x` (+ `.rb`), exact.
 * - `require 'x'` / `autoload :X, 'x'`: the load path, as Ruby searches `$LOAD_PATH` for `x.rb`. A gem puts its
 *   `require_paths` (its gemspec's, `lib` by default) there, and so does Bundler for a project; the project's `lib/`
 *   too. A hit there is exact for the gem's own files. The `spec/` and `test/` folders (RSpec and `rake test` add
 *   them) are searched next, inferred. A name no project folder has is the standard library (builtin) or a gem
 *   (external).
 * - `load 'x.rb'`: relative to the working directory, then the load path: inferred.
 * - A constant the code refers to (`User`, `Admin::UsersController`): where Zeitwerk / Rails autoloading would look,
 *   `app/*` and `app/*\/concerns` of a Rails application (a folder with `config/application.rb`) and the load path,
 *   `Admin::UsersController` → `admin/users_controller.rb`, the longest constant path that has a file (a constant
 *   `Foo::BAR` lives in `foo.rb`). Always inferred: Ruby has no rule that ties a constant to a file; a constant no
 *   project file matches is external.
 */
import type { ResolverHost } from '../../resolve/host.js';
import { dirOf, isOutsideRoot, joinDir, normalizeRel } from '../../resolve/paths.js';
import type { ImportRecord, RelPath, Resolution } from '../../types.js';
import { memoised } from '../memo.js';
import type { ImportTarget, LanguageResolver } from '../types.js';

export const RUBY_CONFIG_FILES = ['Gemfile'] as const;

/** Libraries that ship with Ruby: a `require` of one is builtin. */
const STDLIB = new Set(
  (
    'set json yaml psych fileutils pathname tempfile tmpdir stringio strscan securerandom digest openssl net uri open-uri time date ' +
    'logger optparse ostruct erb cgi socket timeout zlib base64 benchmark forwardable singleton observer shellwords English etc rbconfig ' +
    'pp prettyprint monitor thread delegate tsort find abbrev open3 io objspace ripper coverage bigdecimal csv racc rdoc irb bundler ' +
    'rubygems minitest test weakref fiddle readline reline resolv ipaddr matrix prime getoptlong expect pstore webrick fcntl pty syslog ' +
    'nkf kconv win32ole zlib mkmf un drb rinda english continuation fiber ractor'
  ).split(' '),
);

/** Zeitwerk's underscore: `HTMLParser::UsersController` → `html_parser/users_controller`. */
export function underscore(constant: string): string {
  return constant
    .split('::')
    .map((c) =>
      c
        .replace(/([A-Z\d]+)([A-Z][a-z])/g, '$1_$2')
        .replace(/([a-z\d])([A-Z])/g, '$1_$2')
        .toLowerCase(),
    )
    .join('/');
}

/** The folders of a gemspec's `require_paths` (`lib` when it names none). */
function requirePaths(text: string): string[] {
  const m = /\.require_paths\s*=\s*(\[[^\]]*\]|%w[[(]([^\])]*)[\])]|["'][^"']*["'])/.exec(text);
  if (!m) return ['lib'];
  if (m[2] !== undefined) return m[2].split(/\s+/).filter(Boolean);
  return [...m[1].matchAll(/["']([^"']+)["']/g)].map((x) => x[1]);
}

export class RubyResolver implements LanguageResolver {
  private read: { exact: string[]; inferred: string[]; autoload: string[]; configFiles: RelPath[] } | null = null;
  private memo = new Map<string, ImportTarget[]>();
  private readonly dirs = new Set<string>();

  constructor(private readonly host: ResolverHost) {
    for (const f of host.files) if (f.endsWith('.rb')) this.dirs.add(dirOf(f));
  }

  /** whether some indexed Ruby file sits in `dir` or below it */
  private hasDir(dir: string): boolean {
    if (this.dirs.has(dir)) return true;
    for (const d of this.dirs) if (d.startsWith(`${dir}/`)) return true;
    return false;
  }

  private get config(): NonNullable<RubyResolver['read']> {
    if (this.read) return this.read;
    const exact: string[] = [];
    const inferred: string[] = [];
    const autoload: string[] = [];
    const configFiles: RelPath[] = [];
    const add = (list: string[], dir: string) => {
      if (!isOutsideRoot(dir) && !list.includes(dir) && this.hasDir(dir)) list.push(dir);
    };
    const files = [...this.host.files].sort();
    for (const f of files) {
      if (!f.endsWith('.gemspec')) continue;
      const text = this.host.readFile(f);
      if (text === null) continue;
      configFiles.push(f);
      for (const p of requirePaths(text)) add(exact, normalizeRel(joinDir(dirOf(f), p)));
    }
    add(exact, 'lib');
    for (const f of files) {
      if (!f.endsWith('config/application.rb')) continue;
      const app = dirOf(dirOf(f));
      add(exact, joinDir(app, 'lib'));
      for (const d of [...this.dirs].sort()) {
        const under = joinDir(app, 'app');
        if (!d.startsWith(`${under}/`)) continue;
        const parts = d.slice(under.length + 1).split('/');
        add(autoload, joinDir(under, parts[0]));
        if (parts[1] === 'concerns') add(autoload, joinDir(under, `${parts[0]}/concerns`));
      }
    }
    for (const d of [...exact]) for (const t of ['spec', 'test']) add(inferred, joinDir(dirOf(d), t));
    for (const t of ['spec', 'test']) add(inferred, t);
    for (const name of RUBY_CONFIG_FILES) if (this.host.readFile(name) !== null) configFiles.push(name);
    this.read = { exact, inferred, autoload, configFiles };
    return this.read;
  }

  configFiles(): RelPath[] {
    return [...this.config.configFiles];
  }

  forgetResults(): void {
    this.memo.clear();
  }

  resolve(imp: ImportRecord, from: RelPath): ImportTarget[] {
    const relative = imp.specifier.startsWith('./') || imp.specifier.startsWith('../') || imp.kind === 'include';
    const key = `${imp.kind === 'lazy-import' && /^[A-Z]/.test(imp.specifier) ? 'C' : 'R'}\u0000${relative ? dirOf(from) : ''}\u0000${imp.specifier}`;
    return memoised(this.memo, key, () => [this.compute(imp, from)]);
  }

  private rb(dir: string, name: string): RelPath | null {
    const path = normalizeRel(joinDir(dir, name.endsWith('.rb') ? name : `${name}.rb`));
    return !isOutsideRoot(path) && this.host.files.has(path) ? path : null;
  }

  private compute(imp: ImportRecord, from: RelPath): ImportTarget {
    const spec = imp.specifier;
    if (imp.kind === 'lazy-import' && /^[A-Z]/.test(spec)) return this.constant(spec);
    if (spec.startsWith('./') || spec.startsWith('../')) {
      const path = this.rb(dirOf(from), spec);
      if (path) return { resolved: { kind: 'file', path } };
      return { resolved: unresolved(isOutsideRoot(normalizeRel(joinDir(dirOf(from), spec))) ? `${spec}: outside the project` : `${spec}: no such Ruby file beside ${from}`) };
    }
    if (spec.startsWith('/')) return { resolved: unresolved(`${spec}: an absolute path, outside the project`) };
    const { exact, inferred } = this.config;
    if (imp.kind === 'include') {
      for (const dir of ['', ...exact, ...inferred]) {
        const path = this.rb(dir, spec);
        if (path) return { resolved: { kind: 'file', path }, inferred: true };
      }
    } else {
      for (const dir of exact) {
        const path = this.rb(dir, spec);
        if (path) return { resolved: { kind: 'file', path } };
      }
      for (const dir of inferred) {
        const path = this.rb(dir, spec);
        if (path) return { resolved: { kind: 'file', path }, inferred: true };
      }
    }
    const first = spec.split('/')[0].replace(/\.rb$/, '');
    return { resolved: STDLIB.has(first) ? { kind: 'builtin', module: spec } : { kind: 'external', package: first } };
  }

  /** `Utils (in Rack::Request)`: `Rack::Request::Utils`, `Rack::Utils`, `Utils`, Ruby's lexical lookup order. */
  private constant(spec: string): ImportTarget {
    const { exact, inferred, autoload } = this.config;
    const m = /^(\S+)(?: \(in (\S+)\))?$/.exec(spec);
    const written = m?.[1] ?? spec;
    const nesting = m?.[2]?.split('::') ?? [];
    const roots = [...autoload, ...exact, ...inferred];
    for (let depth = nesting.length; depth >= 0; depth--) {
      const parts = [...nesting.slice(0, depth), ...written.split('::')];
      // a trailing SCREAMING_CASE name is a value constant: it lives in its namespace's file
      let n = parts.length;
      while (n > 1 && /^[A-Z][A-Z\d_]*$/.test(parts[n - 1]) && parts[n - 1].length > 1) n--;
      const rel = underscore(parts.slice(0, n).join('::'));
      for (const dir of roots) {
        const path = this.rb(dir, rel);
        if (path) return { resolved: { kind: 'file', path }, inferred: true };
      }
    }
    return { resolved: { kind: 'external', package: written.split('::')[0] } };
  }
}

function unresolved(reason: string): Resolution {
  return { kind: 'unresolved', reason };
}
