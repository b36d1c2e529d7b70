#!/usr/bin/env node
// The demo's load generator: a few users, told apart by headers (`user`,
// `user-tier`, `user-agent`), sending requests through one or more taps in
// turn. One user (crawler-7) sends ten times as much as the others. Every
// report interval it prints one line: `counts <JSON>`, the responses so far
// per user and status (cumulative), which the demo reads to tell what a
// policy changed.
// Usage: node load.mjs <url[,url...]> [requests-per-second=36] [seconds (0 = until stopped)] [report-ms=1000]
import http from 'node:http';

const targets = (process.argv[2] ?? 'http://127.0.0.1:8081').split(',').map((u) => new URL(u));
const rps = Number(process.argv[3] ?? 36);
const seconds = Number(process.argv[4] ?? 0);
const reportMs = Number(process.argv[5] ?? 1000);
if (!(rps > 0) || !(seconds >= 0) || !(reportMs >= 100) || targets.length === 0) {
  console.error('usage: node load.mjs <url[,url...]> [requests-per-second > 0] [seconds >= 0] [report-ms >= 100]');
  process.exit(2);
}
const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });

// `weight` of every 12 requests.
const users = [
  { id: 'alice', tier: 'gold', agent: 'mobile-app/3.1', weight: 1 },
  { id: 'bob', tier: 'silver', agent: 'web/1.0', weight: 1 },
  { id: 'crawler-7', tier: 'free', agent: 'crawler/0.9', weight: 10 },
];
const schedule = users.flatMap((u) => Array.from({ length: u.weight }, () => u));
const routes = [
  (u) => ({ method: 'GET', path: `/api/users/${u.id}?verbose=1` }),
  () => ({ method: 'GET', path: '/api/orders' }),
  (u) => ({ method: 'POST', path: '/api/orders', body: JSON.stringify({ user: u.id, items: [{ sku: 'a-1', qty: 2 }] }) }),
];

/** user → status (or "error") → count */
const counts = Object.fromEntries(users.map((u) => [u.id, {}]));
const count = (user, key) => { counts[user][key] = (counts[user][key] ?? 0) + 1; };
let n = 0;
function fire() {
  const user = schedule[n % schedule.length];
  user.sent = (user.sent ?? 0) + 1;
  const route = routes[user.sent % routes.length](user);
  const target = targets[n % targets.length];
  n++;
  const headers = { user: user.id, 'user-tier': user.tier, 'user-agent': user.agent, baggage: `tenant=${user.tier === 'free' ? 'public' : 'acme'}` };
  if (route.body) { headers['content-type'] = 'application/json'; headers['content-length'] = Buffer.byteLength(route.body); }
  const req = http.request({ host: target.hostname, port: target.port, method: route.method, path: route.path, headers, agent, timeout: 5000 }, (res) => {
    res.resume();
    count(user.id, String(res.statusCode));
  });
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', () => count(user.id, 'error'));
  req.end(route.body);
}

// Requests due are sent on each 20 ms tick, so the rate holds when timers run a little late on a busy
// machine; after a longer stall, at most 100 ms worth go out at once and the rest are skipped (a burst
// would misrepresent the users' rates).
const started = Date.now();
let skipped = 0;
const timer = setInterval(() => {
  const due = Math.floor(((Date.now() - started) / 1000) * rps);
  const most = Math.max(1, Math.ceil(rps / 10));
  if (due - n > most) { skipped += due - n - most; n = due - most; }
  while (n < due) fire();
}, 20);
const report = setInterval(() => console.log(`counts ${JSON.stringify(counts)}${skipped > 0 ? ` skipped ${skipped}` : ''}`), reportMs);
function stop() {
  clearInterval(timer);
  clearInterval(report);
  console.log(`counts ${JSON.stringify(counts)}`);
  agent.destroy();
  process.exit(0);
}
if (seconds > 0) setTimeout(stop, seconds * 1000);
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, stop);
