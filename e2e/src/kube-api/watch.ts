// Watches of the test API server: the initial ADDED events or the changes since a
// resourceVersion (an ERROR 410 Gone when that is older than the history kept), then the changes
// as they come, seen through the selectors (an object leaving the selection is DELETED, one
// entering it ADDED), BOOKMARK events when allowed, and the end after timeoutSeconds.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest, gone } from './api-error.js';
import { matcherOf } from './list.js';
import { asServed, grOf, parseRv } from './object-fields.js';
import { apiVersionOf } from './resource-types.js';
import { TooOldError, type Change, type KubeObject, type Store } from './store.js';
import { toTable, wantsTable } from './table.js';
import type { Target } from './target.js';

interface WatchStream {
  res: ServerResponse;
  close(): void;
}

export class Watches {
  private readonly streams = new Set<WatchStream>();

  constructor(
    private readonly store: Store,
    private readonly bookmarkIntervalMs: number,
  ) {}

  get size(): number {
    return this.streams.size;
  }

  /** Ends every open watch (clients see the stream end and reconnect). */
  closeAll(): void {
    for (const w of [...this.streams]) w.close();
  }

  serve(req: IncomingMessage, res: ServerResponse, url: URL, t: Target): void {
    const match = matcherOf(t, url);
    const rvParam = url.searchParams.get('resourceVersion');
    const bookmarks = url.searchParams.get('allowWatchBookmarks') === 'true';
    const timeoutRaw = url.searchParams.get('timeoutSeconds');
    const timeoutS = timeoutRaw === null ? undefined : Number(timeoutRaw);
    if (timeoutS !== undefined && (!Number.isFinite(timeoutS) || timeoutS < 0)) throw badRequest(`invalid timeoutSeconds: ${timeoutRaw}`);
    const gr = grOf(t.type);
    const table = wantsTable(req.headers.accept);
    let backlog: Change[] = [];
    let initial: KubeObject[] = [];
    let tooOld: TooOldError | undefined;
    let from = this.store.currentRv();
    if (!rvParam || rvParam === '0') initial = this.store.list(gr, t.namespace).filter(match);
    else {
      from = parseRv(rvParam);
      try {
        backlog = this.store.changesSince(gr, from);
      } catch (err) {
        if (!(err instanceof TooOldError)) throw err;
        tooOld = err;
      }
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    const write = (type: string, object: unknown): void => {
      if (!res.writableEnded) res.write(`${JSON.stringify({ type, object })}\n`);
    };
    const emit = (type: string, obj: KubeObject): void => {
      const o = asServed(t.type, obj);
      write(type, table ? toTable(t.type, [o], {}, 'Object') : o);
    };
    if (tooOld) {
      write('ERROR', gone(tooOld.message).toStatus());
      res.end();
      return;
    }
    let lastRv = from;
    const onChange = (c: Change): void => {
      if (c.rv <= lastRv) return;
      lastRv = c.rv;
      const now = match(c.object);
      const before = c.old ? match(c.old) : false;
      if (c.type === 'DELETED') {
        if (now) emit('DELETED', c.object);
      } else if (c.type === 'ADDED') {
        if (now) emit('ADDED', c.object);
      } else if (now && before) emit('MODIFIED', c.object);
      else if (now) emit('ADDED', c.object);
      else if (before) emit('DELETED', c.object);
    };
    for (const o of initial) emit('ADDED', o);
    for (const c of backlog) onChange(c);
    const unsubscribe = this.store.subscribe(gr, onChange);
    const timers: NodeJS.Timeout[] = [];
    const stream: WatchStream = {
      res,
      close: () => {
        if (!res.writableEnded) res.end();
        cleanup();
      },
    };
    const cleanup = (): void => {
      unsubscribe();
      for (const tm of timers) clearInterval(tm);
      this.streams.delete(stream);
    };
    this.streams.add(stream);
    res.on('close', cleanup);
    if (bookmarks) {
      timers.push(setInterval(() => {
        write('BOOKMARK', { apiVersion: apiVersionOf(t.type), kind: t.type.kind, metadata: { resourceVersion: String(Math.max(lastRv, this.store.currentRv())) } });
      }, this.bookmarkIntervalMs));
    }
    if (timeoutS !== undefined && timeoutS > 0) timers.push(setTimeout(() => stream.close(), timeoutS * 1000));
  }
}
