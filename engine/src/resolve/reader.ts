import type { RelPath } from '../types.js';
import type { ResolverHost } from './host.js';
import { parseJsonc } from './jsonc.js';

/** Reads config files through the host once each, remembers which ones existed, and caches parsed JSON. */
export class ConfigReader {
  private readonly texts = new Map<string, string | null>();
  private readonly parsed = new Map<string, unknown>();
  private readonly existing = new Set<RelPath>();

  constructor(private readonly host: ResolverHost) {}

  /** The file's text, or null when it does not exist (or cannot be read). */
  text(rel: string): string | null {
    let text = this.texts.get(rel);
    if (text !== undefined) return text;
    try {
      text = this.host.readFile(rel);
    } catch {
      text = null;
    }
    if (typeof text !== 'string') text = null;
    this.texts.set(rel, text);
    if (text !== null) this.existing.add(rel);
    return text;
  }

  /**
   * The file parsed as JSON with comments and trailing commas allowed.
   * undefined when the file does not exist, null when it exists but is not valid JSON.
   */
  json(rel: string): unknown {
    if (this.parsed.has(rel)) return this.parsed.get(rel);
    const text = this.text(rel);
    const value = text === null ? undefined : parseJsonc(text);
    this.parsed.set(rel, value);
    return value;
  }

  /** Every config file that was read and existed, sorted. */
  files(): RelPath[] {
    return [...this.existing].sort();
  }
}
