/**
 * A loopback mock of the Anthropic Messages API for driving the real `claude` CLI offline (../shared/claude-code.md
 * §6.4): it answers every turn of the main conversation with the next scripted tool call, then with a final text,
 * and keeps every request body so a test can look for hook context in them. Streams SSE when asked to.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ScriptedStep {
  /** a tool name announced in the request's `tools` (Write, Edit, Read, …) */
  name: string;
  input: Record<string, unknown>;
}

interface Plan {
  tool?: string;
  input?: Record<string, unknown>;
  text?: string;
}

interface RequestBody {
  model?: string;
  stream?: boolean;
  tools?: Array<{ name: string }>;
  messages?: Array<{ role: string; content: unknown }>;
}

export interface MessagesMock {
  url: string;
  /** raw bodies of every POST /v1/messages, in arrival order */
  bodies: string[];
  /** what the mock answered, in order */
  replies: Plan[];
  close(): Promise<void>;
}

function toolUses(messages: RequestBody['messages']): string[] {
  const names: string[] = [];
  for (const m of messages ?? []) {
    if (m.role !== 'assistant' || !Array.isArray(m.content)) continue;
    for (const b of m.content as Array<{ type?: string; name?: string }>) if (b.type === 'tool_use' && b.name) names.push(b.name);
  }
  return names;
}

function plan(body: RequestBody, steps: ScriptedStep[], scriptedSearch: boolean): Plan {
  const tools = (body.tools ?? []).map((t) => t.name);
  if (!tools.includes('Write')) return { text: 'ok' }; // side requests (titles, summaries)
  // ToolSearch calls the CLI makes on its own are not steps, unless the script calls ToolSearch itself
  const called = toolUses(body.messages).filter((t) => scriptedSearch || t !== 'ToolSearch');
  const step = steps[called.length];
  if (!step) return { text: `DONE: ${called.join(',')}` };
  return { tool: step.name, input: step.input };
}

function message(p: Plan, model: string, id: number) {
  const content = p.tool ? [{ type: 'tool_use', id: `toolu_mock_${id}`, name: p.tool, input: p.input }] : [{ type: 'text', text: p.text }];
  return {
    id: `msg_mock_${id}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: p.tool ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

function sse(res: http.ServerResponse, m: ReturnType<typeof message>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const ev = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  ev('message_start', { message: { ...m, content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 1 } } });
  const b = m.content[0] as { type: string; text?: string; input?: unknown };
  if (b.type === 'tool_use') {
    ev('content_block_start', { index: 0, content_block: { ...b, input: {} } });
    ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
  } else {
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: b.text } });
  }
  ev('content_block_stop', { index: 0 });
  ev('message_delta', { delta: { stop_reason: m.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } });
  ev('message_stop', {});
  res.end();
}

/** Starts the mock on 127.0.0.1 (a free port). */
export async function startMessagesMock(steps: ScriptedStep[]): Promise<MessagesMock> {
  const scriptedSearch = steps.some((s) => s.name === 'ToolSearch');
  const bodies: string[] = [];
  const replies: Plan[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = ++n;
      const url = req.url ?? '';
      if (req.method === 'POST' && url.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"input_tokens":10}');
        return;
      }
      if (req.method === 'POST' && url.startsWith('/v1/messages')) {
        const raw = Buffer.concat(chunks).toString('utf8');
        bodies.push(raw);
        let body: RequestBody = {};
        try {
          body = JSON.parse(raw) as RequestBody;
        } catch {
          // answered with text below
        }
        const p = plan(body, steps, scriptedSearch);
        replies.push(p);
        const m = message(p, body.model ?? 'claude-mock', id);
        if (body.stream) {
          sse(res, m);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(m));
        return;
      }
      res.writeHead(req.method === 'HEAD' ? 200 : 404);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    replies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The environment for driving the real `claude` CLI offline against the mock (claude-code.md §6.1): a private HOME,
 * the mock as the API, a dummy key, and every kind of non-essential traffic off.
 */
export function offlineClaudeEnv(options: { home: string; mockUrl: string; path?: string }): NodeJS.ProcessEnv {
  return {
    PATH: options.path ?? process.env.PATH,
    HOME: options.home,
    TERM: 'dumb',
    ANTHROPIC_BASE_URL: options.mockUrl,
    ANTHROPIC_API_KEY: 'sk-ant-dummy-for-the-mock',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
}
