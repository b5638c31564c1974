/**
 * How tools answer: compact `structuredContent` (what Claude Code sends to the model) plus one text block for
 * other clients, every list with `total` and `truncated` (cut by the answer's token budget), and errors as `isError` results with a hint.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** A bad argument or a missing document: the caller can fix it; the message says how. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
  constructor(message: string, readonly hint?: string) {
    super(message);
  }
}

/** A path or root argument that reaches outside the session's project (or a symlink that does): refused and audited. */
export class AccessDeniedError extends ToolInputError {
  override name = 'AccessDeniedError';
}

/** A GSD document or the intel is missing or unreadable. */
export class MissingDocumentError extends ToolInputError {
  override name = 'MissingDocumentError';
}

export interface Capped<T> {
  total: number;
  truncated: boolean;
  items: T[];
}

/**
 * The hard cap of a list, for the server's own safety only: far above what the largest answer budget (25,000 tokens,
 * 100,000 characters) can hold, so that lists are cut by the answer's token budget (budget.ts), never by a count.
 */
export const SAFETY_CAP = 20_000;

export function cap<T>(items: readonly T[], limit = SAFETY_CAP): Capped<T> {
  return { total: items.length, truncated: items.length > limit, items: items.slice(0, Math.max(0, limit)) };
}

/** The zod shape of a capped list, for output schemas. */
export function cappedSchema<T extends z.ZodTypeAny>(item: T, what: string) {
  return z.object({
    total: z.number().describe(`all ${what}`),
    truncated: z.boolean().describe('true when items is cut'),
    items: z.array(item).describe(what),
  }).describe(what);
}

/**
 * The items of a ranked list rendered one by one while their JSON fits `maxTokens` (characters / 4): for lists whose
 * items cost work to render (a search hit's dependents), so that the budget, not a count, ends the list early.
 */
export function withinBudget<T, R>(items: readonly T[], maxTokens: number, render: (item: T) => R): Capped<R> {
  const out: R[] = [];
  let chars = 0;
  for (const item of items) {
    if (out.length >= SAFETY_CAP || chars > maxTokens * 4) break;
    const r = render(item);
    chars += JSON.stringify(r).length + 1;
    out.push(r);
  }
  return { total: items.length, truncated: out.length < items.length, items: out };
}

export function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

export function okResult(structured: Record<string, unknown>, meta?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
    ...(meta ? { _meta: meta } : {}),
  };
}

export function errorResult(message: string, hint?: string): CallToolResult {
  return { content: [{ type: 'text', text: hint ? `${message}\n${hint}` : message }], isError: true };
}
