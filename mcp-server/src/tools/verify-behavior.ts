import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { searchIntel, type IntelReader } from '../../../engine/src/index.js';
import { contentWords, similarity } from '../adapters/markdown.js';
import type { Project, ServerContext } from '../context.js';
import { cap, cappedSchema, SAFETY_CAP } from '../result.js';
import { defineTool } from './define.js';
import { testTitles } from './verify-artifact.js';

const STATUS = ['evidence_found', 'partial', 'no_evidence'] as const;
const loc = z.object({ path: z.string().describe('file'), line: z.number().describe('line'), detail: z.string().describe('what matched') });

export function behaviorEvidence(project: Project, reader: IntelReader, mustHave: string, checkType: 'any' | 'test' | 'code') {
  const words = [...new Set(contentWords(mustHave))];
  const tests =
    checkType === 'code' || !words.length
      ? []
      : testTitles(project, reader, (t) => similarity(words, contentWords(t)) >= Math.min(0.6, 2 / words.length))
          .map((l) => ({ ...l, s: similarity(words, contentWords(l.detail)) }))
          .sort((a, b) => b.s - a.s)
          .map(({ s: _s, ...l }) => l);
  const code: Array<{ path: string; line: number; detail: string }> = [];
  if (checkType !== 'test' && words.length) {
    const hits = searchIntel(reader, words.slice(0, 12).join(' '), { limit: SAFETY_CAP }).results.filter((h) => h.type !== 'test');
    const top = hits[0]?.score ?? 0;
    for (const h of hits) {
      if (h.score < top * 0.5 || h.matches.length === 0) continue;
      const node = reader.nodes.get(h.id)!;
      const exp = h.matches.find((m) => m.startsWith('export:'))?.slice(7);
      const line = node.exports.find((e) => e.name === exp)?.line ?? node.exports[0]?.line ?? 1;
      code.push({ path: h.path, line, detail: `${exp ? `export ${exp}` : 'file'} (${h.matches.slice(0, 3).join(', ')})` });
    }
  }
  const wantTests = checkType !== 'code';
  const wantCode = checkType !== 'test';
  const haveAll = (!wantTests || tests.length > 0) && (!wantCode || code.length > 0);
  const haveAny = tests.length > 0 || code.length > 0;
  const status: (typeof STATUS)[number] = haveAll ? 'evidence_found' : haveAny ? 'partial' : 'no_evidence';
  return { words, tests, code, status };
}

export function registerVerifyBehaviorTool(server: McpServer, ctx: ServerContext) {
  return defineTool(server, ctx, {
    name: 'verify_behavior',
    input: {
      must_have: z.string().min(1).max(2000).describe('the behaviour, e.g. "user can reset password"'),
      check_type: z.enum(['any', 'test', 'code']).default('any').describe('evidence wanted'),
    },
    output: {
      must_have: z.string().describe('behaviour checked'),
      status: z.enum(STATUS).describe('evidence_found|partial|no_evidence'),
      terms: z.array(z.string()).describe('terms searched'),
      tests: cappedSchema(loc, 'test titles naming it'),
      code: cappedSchema(loc, 'code paths implementing it'),
      note: z.string().describe('what the status means'),
    },
    async run(project, args) {
      const reader = await project.intel.open();
      const r = behaviorEvidence(project, reader, args.must_have, args.check_type);
      return {
        must_have: args.must_have,
        status: r.status,
        terms: r.words.slice(0, 12),
        tests: cap(r.tests),
        code: cap(r.code),
        note: 'Lexical evidence only (names of tests and code); nothing was run. Read the locations to confirm.',
      };
    },
  });
}
