/**
 * Closed-loop HTTP GET load on loopback: wrk (C, a few microseconds per request) when it
 * is installed (`make bench` installs it), else a node:http keep-alive loop in this process,
 * whose own cost is close to the server's, so that ratios then lean towards 1.
 */
import { execFile, spawnSync } from 'node:child_process';
import http from 'node:http';
import { nowMs } from './clock.js';

export interface HttpLoadResult { rps: number; errors: number }

let wrkPath: string | null | undefined;

/** wrk's path, or null when it is not installed. */
export function wrk(): string | null {
  if (wrkPath === undefined) {
    const r = spawnSync('sh', ['-c', 'command -v wrk'], { encoding: 'utf8' });
    wrkPath = r.status === 0 && r.stdout.trim() !== '' ? r.stdout.trim() : null;
  }
  return wrkPath;
}

function wrkLoad(path: string, url: string, connections: number, ms: number): Promise<HttpLoadResult> {
  const seconds = Math.max(1, Math.round(ms / 1000));
  return new Promise((resolve, reject) => {
    execFile(path, ['-t1', `-c${connections}`, `-d${seconds}s`, url], { timeout: ms + 10_000 }, (err, stdout) => {
      if (err) { reject(err); return; }
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
      if (rps === null) { reject(new Error(`wrk printed no rate: ${stdout}`)); return; }
      const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout);
      const socketErrors = /Socket errors:.*?connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
      const errors = Number(non2xx?.[1] ?? 0) + (socketErrors === null ? 0 : socketErrors.slice(1).reduce((a, b) => a + Number(b), 0));
      resolve({ rps: Number(rps[1]), errors });
    });
  });
}

function nodeLoad(url: string, connections: number, ms: number): Promise<HttpLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = nowMs() + ms;
  const start = nowMs();
  let ok = 0;
  let errors = 0;
  const once = (): Promise<void> => new Promise((resolve) => {
    http.get(url, { agent }, (res) => {
      if (res.statusCode === 200) ok++; else errors++;
      res.resume();
      res.on('end', resolve);
    }).on('error', () => { errors++; resolve(); });
  });
  return Promise.all(Array.from({ length: connections }, async () => { while (nowMs() < deadline) await once(); }))
    .then(() => { agent.destroy(); return { rps: ok / ((nowMs() - start) / 1000), errors }; });
}

/** `connections` keep-alive connections GETting `url` back to back for about `ms`. */
export function httpLoad(url: string, connections: number, ms: number): Promise<HttpLoadResult> {
  const path = wrk();
  return path === null ? nodeLoad(url, connections, ms) : wrkLoad(path, url, connections, ms);
}
