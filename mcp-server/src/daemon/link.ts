/**
 * One MCP session with the daemon over Streamable HTTP, in node built-ins only (the shim's hot path loads no SDK, no
 * zod, no fetch): POSTs of JSON-RPC messages over one kept-alive `node:http` Agent, answers read as JSON (what the
 * daemon sends) or as an event stream (what the protocol also allows), the session's GET event stream for what the
 * server sends on its own (requests such as `roots/list`, `list_changed` notifications), and a DELETE to end it.
 */
import http from 'node:http';

export type Message = Record<string, unknown> & { jsonrpc: '2.0'; id?: string | number; method?: string };

/** An answer the daemon refused with an HTTP status (`status`), or a network error (no `status`). */
export class LinkError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface LinkOptions {
  url: string;
  /** sent with every request: authorization, x-gsd-root, x-gsd-session */
  headers: Record<string, string>;
  /** every message the daemon sends: answers, and its own requests and notifications */
  onmessage: (m: Message) => void;
  /** the session's event stream ended without `close()`: the daemon is gone or restarting */
  onlost: (reason: string) => void;
}

/** Parses `text/event-stream` chunks; calls `onData` with each event's data. */
function sseParser(onData: (data: string) => void): (chunk: string) => void {
  let buf = '';
  let data: string[] = [];
  return (chunk) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl).replace(/\r$/, '');
      buf = buf.slice(nl + 1);
      if (line === '') {
        if (data.length) onData(data.join('\n'));
        data = [];
      } else if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
      // event:, id:, retry: and comments carry nothing the relay needs
    }
  };
}

export class DaemonLink {
  sessionId: string | null = null;
  protocolVersion: string | null = null;
  private readonly agent = new http.Agent({ keepAlive: true });
  private events: http.ClientRequest | null = null;
  private closed = false;

  constructor(private readonly options: LinkOptions) {}

  private headers(extra: Record<string, string>): Record<string, string> {
    return {
      ...this.options.headers,
      ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}),
      ...(this.protocolVersion ? { 'mcp-protocol-version': this.protocolVersion } : {}),
      ...extra,
    };
  }

  private emit(text: string): void {
    const parsed = JSON.parse(text) as Message | Message[];
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) this.options.onmessage(m);
  }

  /** An event of a stream: one that is not JSON is dropped (the stream goes on). */
  private readonly emitEvent = (data: string): void => {
    try {
      this.emit(data);
    } catch {
      // not JSON-RPC: nothing to relay
    }
  };

  /**
   * POSTs one message; resolves once its answer (if any) went to `onmessage`. Rejects with a LinkError: `status` set
   * when the daemon refused it, unset on a network error. A kept-alive socket the daemon closed meanwhile is retried
   * once on a new one (the request never reached it).
   */
  post(m: Message): Promise<void> {
    const body = JSON.stringify(m);
    const attempt = (retry: boolean): Promise<void> =>
      new Promise((resolve, reject) => {
        const req = http.request(this.options.url, {
          method: 'POST',
          agent: this.agent,
          headers: this.headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': String(Buffer.byteLength(body)) }),
        });
        let answered = false;
        req.on('response', (res) => {
          answered = true;
          const sid = res.headers['mcp-session-id'];
          if (typeof sid === 'string' && sid) this.sessionId = sid;
          const status = res.statusCode ?? 0;
          const type = String(res.headers['content-type'] ?? '');
          res.setEncoding('utf8');
          let text = '';
          const feed = status === 200 && type.startsWith('text/event-stream') ? sseParser(this.emitEvent) : (c: string) => (text += c);
          res.on('data', feed);
          res.on('error', (e) => reject(new LinkError(e.message)));
          res.on('aborted', () => reject(new LinkError('the daemon closed the connection mid-answer')));
          res.on('end', () => {
            if (status === 202 || (status === 200 && !type.startsWith('application/json'))) return resolve();
            if (status === 200) {
              try {
                if (text.trim()) this.emit(text);
                return resolve();
              } catch (error) {
                return reject(new LinkError(`the daemon's answer is not JSON-RPC: ${(error as Error).message}`, 502));
              }
            }
            let detail = text.slice(0, 300);
            try {
              detail = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? detail;
            } catch {
              // not JSON: the text itself
            }
            reject(new LinkError(`HTTP ${status}: ${detail}`, status));
          });
        });
        req.on('error', (error: NodeJS.ErrnoException) => {
          if (!answered && retry && req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) resolve(attempt(false));
          else reject(new LinkError(error.message));
        });
        req.end(body);
      });
    return attempt(true);
  }

  /**
   * Opens the session's GET event stream (after `notifications/initialized`); resolves once the daemon answered it
   * (so that a request the daemon sends right after, such as `roots/list`, finds it open) or after `waitMs`. A daemon
   * without one (405) is fine.
   */
  openEvents(waitMs = 1000): Promise<void> {
    if (this.closed || this.events) return Promise.resolve();
    const req = http.request(this.options.url, { method: 'GET', agent: this.agent, headers: this.headers({ accept: 'text/event-stream' }) });
    this.events = req;
    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
      setTimeout(resolve, waitMs).unref();
    });
    const lost = (reason: string) => {
      opened();
      if (this.events !== req) return;
      this.events = null;
      if (!this.closed) this.options.onlost(reason);
    };
    req.on('response', (res) => {
      opened();
      if (res.statusCode === 405) return void res.resume();
      if (res.statusCode !== 200) {
        res.resume();
        return lost(`the event stream was refused (HTTP ${res.statusCode})`);
      }
      res.setEncoding('utf8');
      res.on('data', sseParser(this.emitEvent));
      res.on('end', () => lost('the event stream ended'));
      res.on('aborted', () => lost('the event stream ended'));
      res.on('error', (e) => lost(e.message));
    });
    req.on('error', (e) => lost(e.message));
    req.end();
    return open;
  }

  /** Ends the session on the daemon (DELETE), best effort. */
  terminate(timeoutMs = 1000): Promise<void> {
    if (!this.sessionId) return Promise.resolve();
    return new Promise((resolve) => {
      const req = http.request(this.options.url, { method: 'DELETE', agent: this.agent, headers: this.headers({}), timeout: timeoutMs });
      req.on('response', (res) => res.resume().on('end', resolve).on('error', resolve));
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve());
      req.end();
    });
  }

  close(): void {
    this.closed = true;
    this.events?.destroy();
    this.events = null;
    this.agent.destroy();
  }
}
