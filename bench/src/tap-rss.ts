/**
 * What the separate tap (daemonset mode) holds at idle: bin/sluice-tap started against a real
 * agent (bin/sluice-agent), its VmRSS and RssAnon read from /proc/<pid>/status 5 s after it
 * logged "tap started" (no traffic). The agent's are printed beside it for scale. A figure, not
 * an assertion: the target is at most 60 MB of VmRSS.
 * Last line: `RESULT tap-rss tap_rss_mb=.. tap_rss_anon_mb=.. agent_rss_mb=..`.
 *
 *   npx tsc -p bench && node scripts/run-bench.mjs tap-rss
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './support/bench-paths.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { printResult } from './support/result-line.js';

const IDLE_MS = 5000;

/** A field of /proc/<pid>/status in MB. */
function statusMb(pid: number, field: 'VmRSS' | 'RssAnon' | 'RssFile'): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m === null ? NaN : Number(m[1]) / 1024;
}

async function main(): Promise<void> {
  const children: ChildServer[] = [];
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sluice-tap-rss-'));
  try {
    const agent = await startChildServer({
      name: 'sluice-agent',
      command: path.join(ROOT, 'bin', 'sluice-agent'),
      args: [],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp,
        SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:2379"]', SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:0',
        SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '127.0.0.1:0', SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: '127.0.0.1:0',
      },
      portPattern: /"msg":"server listening".*?"port":(\d+)/,
      startTimeoutMs: 60_000,
    });
    children.push(agent);
    const tap = await startChildServer({
      name: 'sluice-tap',
      // As shipped: bin/sluice-tap execs node (same pid).
      command: path.join(ROOT, 'bin', 'sluice-tap'),
      args: ['--listen', '127.0.0.1:0', '--admin', '127.0.0.1:0', '--upstream', 'http://127.0.0.1:9', '--agent', `127.0.0.1:${agent.port}`],
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp },
      portPattern: /"tap started".*?"listen":\{"host":"[^"]*","port":(\d+)\}/,
      startTimeoutMs: 60_000,
    });
    children.push(tap);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const rss = statusMb(tap.pid, 'VmRSS');
    const anon = statusMb(tap.pid, 'RssAnon');
    const file = statusMb(tap.pid, 'RssFile');
    const agentRss = statusMb(agent.pid, 'VmRSS');
    console.log(`sluice-tap idle ${IDLE_MS / 1000} s after start: VmRSS ${rss.toFixed(1)} MB (RssAnon ${anon.toFixed(1)} MB, RssFile ${file.toFixed(1)} MB); target <= 60 MB: ${rss <= 60 ? 'met' : 'NOT met'}`);
    console.log(`sluice-agent beside it: VmRSS ${agentRss.toFixed(1)} MB; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    printResult('tap-rss', { tap_rss_mb: rss.toFixed(1), tap_rss_anon_mb: anon.toFixed(1), tap_rss_file_mb: file.toFixed(1), agent_rss_mb: agentRss.toFixed(1) });
  } finally {
    for (const c of children.reverse()) await c.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(err);
  process.exit(1);
});
