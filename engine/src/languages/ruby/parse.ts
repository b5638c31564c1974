/**
 * The facts of one Ruby file from its tree-sitter tree:
 * - `require_relative 'x'` (specified `./x`, relative to the file), `require 'x'`, `load 'x.rb'` and
 *   `autoload :X, 'x'` with a literal path, also the path forms built from the file's folder
 *   (`File.expand_path('../x', __FILE__)`, `File.expand_path('x', __dir__)`, `File.join(__dir__, 'x')`), wherever they
 *   sit: kind `require` at the top level, `conditional-import` under `if`/`unless`/`begin`, `lazy-import` in a method
 *   or for `autoload`, `include` for `load`;
 * - the constants the code refers to (`User`, `Admin::UsersController`), one `lazy-import` each that the file does not
 *   define itself and Ruby's core does not: what Zeitwerk or Rails would autoload (the resolver infers the file);
 *   specified with the nesting Ruby looks it up from, `Utils (in Rack::Request)`;
 * - classes and modules at any depth (`Request`; not a module that only wraps other definitions), methods as `Request#call` and `Util.escape`, top-level methods, and
 *   constants assigned in a class or module body, with kind and line; all public (Ruby has no private constant by
 *   default);
 * - the purpose: the comment right above the first class or module, else the file's leading comment (magic comments,
 *   the shebang and licences left out).
 */
import type { ExportRecord, ImportKind, ImportRecord, ParsedFile, SymbolKind, SymbolRecord } from '../../types.js';
import type { TsNode } from '../runtime.js';
import { firstSyntaxError, lineOf, type ParseInput } from '../types.js';

const CONDITIONAL = new Set(['if', 'unless', 'if_modifier', 'unless_modifier', 'begin', 'rescue', 'rescue_modifier', 'case', 'when', 'else', 'elsif', 'ensure', 'while', 'until', 'for', 'block', 'do_block']);

/** Constants of Ruby's core and standard library that no project file defines: never an autoload reference. */
const CORE = new Set(
  (
    'ARGV ARGF ENV STDIN STDOUT STDERR RUBY_VERSION RUBY_PLATFORM RUBY_ENGINE __FILE__ Object BasicObject Module Class Kernel Comparable Enumerable Enumerator ' +
    'String Symbol Integer Float Numeric Rational Complex Array Hash Range Regexp MatchData Proc Method UnboundMethod Struct Time Date DateTime ' +
    'NilClass TrueClass FalseClass IO File Dir FileTest Process Signal Thread Mutex Queue ConditionVariable Fiber ObjectSpace GC Marshal Math Random ' +
    'Exception StandardError RuntimeError ArgumentError TypeError NameError NoMethodError NotImplementedError KeyError IndexError StopIteration ' +
    'RangeError IOError EOFError SystemCallError Errno ZeroDivisionError FrozenError ScriptError LoadError SyntaxError SecurityError Interrupt ' +
    'SystemExit SignalException Encoding Set SortedSet JSON YAML Psych URI Net OpenSSL Digest Base64 SecureRandom Pathname FileUtils Tempfile ' +
    'StringIO Logger Benchmark Forwardable Singleton Observable OpenStruct Shellwords ERB CGI Socket TCPSocket Timeout Zlib BigDecimal ' +
    'Ractor Warning Data RbConfig Gem Bundler Rake Minitest RSpec Rails ActiveRecord ActiveSupport ActionController ActionView ActiveModel ActiveJob'
  ).split(' '),
);

/** `# a` lines with the margin off, without magic comments and a shebang; null when nothing is left. */
function commentText(lines: string[]): string | null {
  const text = lines
    .filter((l) => !/^#!|^#\s*-\*-|^#\s*(frozen_string_literal|encoding|coding|warn_indent|shareable_constant_value|typed|rubocop:)/i.test(l))
    .map((l) => l.replace(/^#+ ?/, ''))
    .join('\n')
    .trim();
  return text && !/copyright|licen[cs]e/i.test(text) ? text : null;
}

/** The value of a string literal without interpolation, else null. */
function stringValue(node: TsNode | null | undefined): string | null {
  if (!node || node.type !== 'string') return null;
  let out = '';
  for (const c of node.namedChildren) {
    if (c.type === 'string_content') out += c.text;
    else return null;
  }
  return out;
}

const isDirOfFile = (n: TsNode | undefined): boolean => !!n && ((n.type === 'identifier' && n.text === '__dir__') || (n.type === 'call' && n.text.replace(/\s/g, '') === 'File.dirname(__FILE__)'));

/** A path built from the file's folder, as a specifier relative to it (`./x`), else null. */
function fileRelative(node: TsNode): string | null {
  if (node.type !== 'call' || node.childForFieldName('receiver')?.text !== 'File') return null;
  const method = node.childForFieldName('method')?.text;
  const args = node.childForFieldName('arguments')?.namedChildren ?? [];
  if (method === 'expand_path' && args.length === 2) {
    const rel = stringValue(args[0]);
    if (rel === null) return null;
    if (args[1].type === 'identifier' && args[1].text === '__FILE__') return rel === '..' ? null : `./${rel.replace(/^\.\.\/?/, '')}`; // relative to the file itself: `..` is its folder
    if (isDirOfFile(args[1])) return `./${rel}`;
  }
  if (method === 'join' && args.length >= 2 && isDirOfFile(args[0])) {
    const parts = args.slice(1).map(stringValue);
    return parts.every((p) => p !== null) ? `./${parts.join('/')}` : null;
  }
  return null;
}

/** `Foo` / `Foo::Bar` / `::Foo` as written, without the leading `::`; null for anything else. */
function constantPath(node: TsNode): string | null {
  if (node.type === 'constant') return node.text;
  if (node.type !== 'scope_resolution') return null;
  const name = node.childForFieldName('name');
  const scope = node.childForFieldName('scope');
  if (!name || name.type !== 'constant') return null;
  if (!scope) return name.text;
  const head = constantPath(scope);
  return head === null ? null : `${head}::${name.text}`;
}

class Reader {
  imports: ImportRecord[] = [];
  symbols: SymbolRecord[] = [];
  private readonly seen = new Set<string>();
  /** constants this file defines (full and short names) */
  readonly defined = new Set<string>();
  /** `Path (in A::B)` → line: a constant as written, with the nesting it is looked up from */
  private readonly references = new Map<string, { path: string; nesting: string; line: number }>();
  firstTypeDoc: string | null = null;

  private symbol(name: string, kind: SymbolKind, at: TsNode): void {
    if (this.seen.has(name)) return;
    this.seen.add(name);
    this.symbols.push({ name, kind, line: lineOf(at), exported: true });
  }

  /** Walks every node: requires may sit anywhere, definitions nest in modules and classes. */
  walk(node: TsNode, nesting: string[], context: 'top' | 'conditional' | 'method'): void {
    for (const c of node.namedChildren) this.visit(c, nesting, context);
  }

  private visit(n: TsNode, nesting: string[], context: 'top' | 'conditional' | 'method'): void {
    switch (n.type) {
      case 'class':
      case 'module': {
        const nameNode = n.childForFieldName('name');
        const full = nameNode ? constantPath(nameNode) : null;
        if (!full) break;
        const short = full.slice(full.lastIndexOf(':') + 1);
        const body = n.childForFieldName('body');
        const superclass = n.childForFieldName('superclass');
        // a module (or class) that only wraps other definitions is a namespace reopened in many files: not a definition here
        const wrapper = !superclass && !!body?.namedChildren.length && body.namedChildren.every((c) => c.type === 'class' || c.type === 'module' || c.type === 'comment');
        if (!wrapper) this.symbol(short, n.type === 'class' ? 'class' : 'module', n);
        const path = [...nesting, full].join('::');
        this.defined.add(path).add(full).add(short);
        if (!this.firstTypeDoc) this.firstTypeDoc = this.commentAbove(n);
        if (superclass) this.walk(superclass, nesting, context);
        if (body) this.walk(body, [...nesting, full], context);
        return;
      }
      case 'singleton_class': {
        const body = n.childForFieldName('body');
        if (body) this.walk(body, [...nesting, '<<'], context);
        return;
      }
      case 'method':
      case 'singleton_method': {
        const name = n.childForFieldName('name')?.text;
        const owner = nesting.filter((x) => x !== '<<');
        const last = owner[owner.length - 1]?.split('::').pop();
        if (name) {
          const onClass = n.type === 'singleton_method' || nesting[nesting.length - 1] === '<<';
          this.symbol(last ? `${last}${onClass ? '.' : '#'}${name}` : name, 'function', n);
        }
        this.walk(n, nesting, 'method');
        return;
      }
      case 'assignment': {
        const left = n.childForFieldName('left');
        if (left?.type === 'constant' && context !== 'method') {
          this.symbol(left.text, 'const', n);
          this.defined.add(left.text);
        }
        const right = n.childForFieldName('right');
        if (right) this.visit(right, nesting, context);
        return;
      }
      case 'call':
        if (this.call(n, context)) return;
        break;
      case 'constant':
      case 'scope_resolution': {
        const path = constantPath(n);
        if (path !== null) {
          const absolute = n.text.startsWith('::');
          const scope = absolute ? '' : nesting.filter((x) => x !== '<<').join('::');
          const key = scope ? `${path} (in ${scope})` : path;
          if (!CORE.has(path.split('::')[0]) && !this.references.has(key)) this.references.set(key, { path, nesting: scope, line: lineOf(n) });
          return;
        }
        break;
      }
      default:
        break;
    }
    this.walk(n, nesting, CONDITIONAL.has(n.type) && context === 'top' ? 'conditional' : context);
  }

  /** A require, load or autoload call; true when it was one (its arguments need no further walk). */
  private call(n: TsNode, context: 'top' | 'conditional' | 'method'): boolean {
    if (n.childForFieldName('receiver') && n.childForFieldName('receiver')?.text !== 'Kernel') return false;
    const method = n.childForFieldName('method')?.text;
    if (method !== 'require' && method !== 'require_relative' && method !== 'load' && method !== 'autoload') return false;
    const args = n.childForFieldName('arguments')?.namedChildren ?? [];
    const arg = method === 'autoload' ? args[1] : args[0];
    if (!arg) return false;
    let spec = stringValue(arg);
    if (spec !== null && method === 'require_relative') spec = spec.startsWith('../') || spec.startsWith('./') ? spec : `./${spec}`;
    if (spec === null) spec = fileRelative(arg);
    if (!spec) return false;
    const kind: ImportKind = method === 'load' ? 'include' : method === 'autoload' || context === 'method' ? 'lazy-import' : context === 'conditional' ? 'conditional-import' : 'require';
    const names = method === 'autoload' && args[0]?.type === 'simple_symbol' ? [args[0].text.slice(1)] : ['*'];
    this.imports.push({ specifier: spec, kind, names, line: lineOf(n) });
    return true;
  }

  /** `#` comments ending right above `node`, with no blank line between. */
  private commentAbove(node: TsNode): string | null {
    const lines: string[] = [];
    let expect = node.startPosition.row - 1;
    // a comment right after `module X` sits beside the body that holds the class, not in it
    let at = node;
    const parent = node.parent;
    if (parent?.type === 'body_statement' && parent.namedChildren[0]?.startIndex === node.startIndex && parent.parent) at = parent;
    const siblings = at.parent?.namedChildren ?? [];
    for (let i = siblings.findIndex((s) => s.startIndex === at.startIndex) - 1; i >= 0; i--) {
      const s = siblings[i];
      if (s.type !== 'comment' || s.endPosition.row !== expect) break;
      lines.unshift(s.text);
      expect = s.startPosition.row - 1;
    }
    return commentText(lines);
  }

  /** One `lazy-import` per constant referred to and not defined here. */
  references_(): void {
    for (const [specifier, { path, nesting, line }] of this.references) {
      const first = path.split('::')[0];
      const scopes = nesting.split('::').map((_, i, all) => all.slice(0, all.length - i).join('::'));
      if (this.defined.has(path) || this.defined.has(first) || scopes.some((s) => s && this.defined.has(`${s}::${first}`))) continue;
      this.imports.push({ specifier, kind: 'lazy-import', names: [path.slice(path.lastIndexOf(':') + 1)], line });
    }
  }
}

/** The leading `#` comment block of the file (before any code). */
function leadingComment(root: TsNode): string | null {
  const lines: string[] = [];
  let expect = -1;
  for (const c of root.namedChildren) {
    if (c.type !== 'comment') break;
    if (expect >= 0 && c.startPosition.row !== expect) {
      if (commentText(lines)) break; // a blank line ends a block that says something
      lines.length = 0;
    }
    lines.push(c.text);
    expect = c.endPosition.row + 1;
  }
  return commentText(lines);
}

export function parseRuby({ root }: ParseInput): ParsedFile {
  const r = new Reader();
  r.walk(root, [], 'top');
  r.references_();
  const exports: ExportRecord[] = r.symbols.map((s) => ({ name: s.name, kind: s.kind, line: s.line }));
  return { imports: r.imports, exports, symbols: r.symbols, docComment: r.firstTypeDoc ?? leadingComment(root), moduleSystem: 'none', syntaxError: firstSyntaxError(root) };
}
