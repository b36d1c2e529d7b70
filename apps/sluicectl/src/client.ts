import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { CliError, UsageError } from './errors.js';

export interface ControllerOptions {
  /** http://host:port or https://host:port. */
  url: string;
  /** Sent as `Authorization: Bearer <token>` (the controller's `server.auth.token_file`). */
  token?: string;
  /** PEM files: the CA that signed the controller's certificate, and a client certificate and key. */
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  /** Accept any server certificate (testing only). */
  insecureSkipVerify?: boolean;
  timeoutMs: number;
}

/** An answer of the controller: its status and its JSON body (or the text when it is not JSON). */
export interface Reply {
  status: number;
  body: unknown;
}

function readPem(path: string | undefined, flag: string): Buffer | undefined {
  if (path === undefined) return undefined;
  try {
    return readFileSync(path);
  } catch (err) {
    throw new UsageError(`${flag} ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** The controller's error body `{code, message, details}` as one line, with the fields at fault. */
export function errorText(reply: Reply): string {
  const b = reply.body as { message?: unknown; details?: Array<{ field_violations?: Array<{ field?: string; description?: string }> }> } | undefined;
  if (typeof b !== 'object' || b === null || typeof b.message !== 'string') return `HTTP ${reply.status}: ${typeof reply.body === 'string' ? reply.body.slice(0, 300) : JSON.stringify(reply.body)}`;
  const fields = (b.details ?? []).flatMap((d) => d.field_violations ?? []).map((v) => `${v.field ?? '?'}: ${v.description ?? ''}`);
  const extra = fields.filter((f) => !b.message?.toString().includes(f));
  return `${b.message}${extra.length > 0 ? `\n  ${extra.join('\n  ')}` : ''} (HTTP ${reply.status})`;
}

/** The controller's HTTP API, over HTTP or HTTPS (client certificates and bearer tokens as configured). */
export class ControllerClient {
  private readonly base: URL;
  private readonly agent: http.Agent;

  constructor(private readonly opts: ControllerOptions) {
    try {
      this.base = new URL(opts.url);
    } catch {
      throw new UsageError(`--controller ${JSON.stringify(opts.url)} is not a URL (want http://host:port or https://host:port)`);
    }
    if (this.base.protocol !== 'http:' && this.base.protocol !== 'https:') throw new UsageError(`--controller ${opts.url}: the scheme must be http or https`);
    this.agent = this.base.protocol === 'https:'
      ? new https.Agent({
        ca: readPem(opts.caFile, '--ca-file'),
        cert: readPem(opts.certFile, '--cert-file'),
        key: readPem(opts.keyFile, '--key-file'),
        rejectUnauthorized: opts.insecureSkipVerify !== true,
      })
      : new http.Agent();
  }

  /** One request; a connection failure or a timeout is a CliError naming the controller. */
  request(method: string, path: string, body?: unknown): Promise<Reply> {
    const url = new URL(path, this.base);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (payload !== undefined) headers['content-type'] = 'application/json';
    if (this.opts.token !== undefined && this.opts.token !== '') headers.authorization = `Bearer ${this.opts.token}`;
    const lib = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = lib.request(url, { method, headers, agent: this.agent, timeout: this.opts.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try { parsed = text === '' ? undefined : JSON.parse(text); } catch { /* not JSON: the text */ }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
        res.on('error', (err) => reject(new CliError(`reading the answer of ${this.base.origin}: ${err.message}`)));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${this.opts.timeoutMs} ms`)));
      req.on('error', (err: NodeJS.ErrnoException) => reject(new CliError(`cannot reach the controller at ${this.base.origin}: ${err.code ?? err.message}${err.code !== undefined && err.message !== err.code ? ` (${err.message})` : ''}`)));
      req.end(payload);
    });
  }

  /** A request that must succeed (2xx): its body, or a CliError with the controller's message. */
  async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const reply = await this.request(method, path, body);
    if (reply.status < 200 || reply.status >= 300) throw new CliError(errorText(reply));
    return reply.body;
  }

  close(): void {
    this.agent.destroy();
  }
}
