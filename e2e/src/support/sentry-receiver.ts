// A local receiver of Sentry's envelope protocol (what @sentry/node sends to a DSN): accepts
// `POST /api/<project>/envelope/`, gunzips when asked, decodes the envelope (a header line, then
// items, each a header line and a payload of `length` bytes or up to the next newline) and keeps
// it. Loopback only; closed in t.after.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { gunzipSync } from 'node:zlib';

export interface EnvelopeItem {
  header: Record<string, unknown> & { type?: string };
  /** The payload parsed as JSON (events are JSON), or its text. */
  payload: unknown;
}

export interface Envelope {
  project: string;
  /** The request's URL (the client's key in `sentry_key=`, or in the X-Sentry-Auth header). */
  url: string;
  requestHeaders: IncomingMessage['headers'];
  header: Record<string, unknown>;
  items: EnvelopeItem[];
  /** The whole envelope as text, to look for what must not be in it. */
  raw: string;
}

/** Decodes one envelope (https://develop.sentry.dev/sdk/envelopes/). */
export function decodeEnvelope(body: Buffer): Pick<Envelope, 'header' | 'items'> {
  let at = 0;
  const line = (): Buffer => {
    const end = body.indexOf(0x0a, at);
    const out = body.subarray(at, end < 0 ? body.length : end);
    at = end < 0 ? body.length : end + 1;
    return out;
  };
  const header = JSON.parse(line().toString('utf8')) as Record<string, unknown>;
  const items: EnvelopeItem[] = [];
  while (at < body.length) {
    const headerLine = line();
    if (headerLine.length === 0) continue;
    const itemHeader = JSON.parse(headerLine.toString('utf8')) as EnvelopeItem['header'];
    let payload: Buffer;
    if (typeof itemHeader.length === 'number') {
      payload = body.subarray(at, at + itemHeader.length);
      at += itemHeader.length;
      if (body[at] === 0x0a) at++;
    } else {
      payload = line();
    }
    const text = payload.toString('utf8');
    let parsed: unknown = text;
    try { parsed = JSON.parse(text); } catch { /* not JSON: kept as text */ }
    items.push({ header: itemHeader, payload: parsed });
  }
  return { header, items };
}

export interface SentryReceiver {
  readonly port: number;
  /** A DSN pointing at this receiver: `http://<publicKey>@127.0.0.1:<port>/<project>`. */
  dsn(publicKey: string, project: string): string;
  readonly envelopes: Envelope[];
  /** Resolves with the first envelope holding an `event` item; rejects after `ms`. */
  waitForEvent(ms?: number): Promise<{ envelope: Envelope; event: Record<string, unknown> }>;
}

export async function startSentryReceiver(t: TestContext): Promise<SentryReceiver> {
  const envelopes: Envelope[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const m = /^\/api\/([^/]+)\/envelope\/?(\?.*)?$/.exec(req.url ?? '');
    if (req.method !== 'POST' || m === null) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip' || (body[0] === 0x1f && body[1] === 0x8b)) body = gunzipSync(body);
      try {
        envelopes.push({ project: m[1], url: req.url ?? '', requestHeaders: req.headers, ...decodeEnvelope(body), raw: body.toString('utf8') });
      } catch {
        res.writeHead(400).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const w of waiters) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  const port = (server.address() as AddressInfo).port;
  const findEvent = (): { envelope: Envelope; event: Record<string, unknown> } | undefined => {
    for (const envelope of envelopes) {
      const item = envelope.items.find((i) => i.header.type === 'event');
      if (item !== undefined) return { envelope, event: item.payload as Record<string, unknown> };
    }
    return undefined;
  };
  return {
    port,
    dsn: (publicKey, project) => `http://${publicKey}@127.0.0.1:${port}/${project}`,
    envelopes,
    waitForEvent: (ms = 20_000) => new Promise((resolve, reject) => {
      const check = (): void => {
        const found = findEvent();
        if (found === undefined) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => { waiters.delete(check); reject(new Error(`no event envelope within ${ms} ms (${envelopes.length} envelopes)`)); }, ms);
      waiters.add(check);
      check();
    }),
  };
}
