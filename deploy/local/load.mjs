#!/usr/bin/env node
// The demo's load generator: a few kinds of users, told apart by headers,
// sending requests through the tap. Prints a summary line every few seconds.
// Usage: node load.mjs <target-url> [requests-per-second] [seconds (0 = until stopped)]
import http from 'node:http';

const target = new URL(process.argv[2] ?? 'http://127.0.0.1:8081');
const rps = Number(process.argv[3] ?? 40);
const seconds = Number(process.argv[4] ?? 0);
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

const users = [
  { id: 'alice', tier: 'gold', agent: 'mobile-app/3.1' },
  { id: 'bob', tier: 'silver', agent: 'web/1.0' },
  { id: 'crawler-7', tier: 'free', agent: 'crawler/0.9' },
  { id: 'crawler-9', tier: 'free', agent: 'crawler/0.9' },
];
const routes = [
  (u) => ({ method: 'GET', path: `/api/users/${u.id}?verbose=1` }),
  () => ({ method: 'GET', path: '/api/orders' }),
  (u) => ({ method: 'POST', path: '/api/orders', body: JSON.stringify({ user: u.id, items: [{ sku: 'a-1', qty: 2 }] }) }),
];

const stats = new Map();
let n = 0;
function fire() {
  const user = users[n % users.length];
  const route = routes[Math.floor(n / users.length) % routes.length](user);
  n++;
  const headers = { 'user-id': user.id, 'user-tier': user.tier, 'user-agent': user.agent, baggage: `tenant=${user.tier === 'free' ? 'public' : 'acme'}` };
  if (route.body) { headers['content-type'] = 'application/json'; headers['content-length'] = Buffer.byteLength(route.body); }
  const req = http.request({ host: target.hostname, port: target.port, method: route.method, path: route.path, headers, agent, timeout: 5000 }, (res) => {
    res.resume();
    const key = `${user.id}:${res.statusCode}`;
    stats.set(key, (stats.get(key) ?? 0) + 1);
  });
  req.on('error', () => stats.set(`${user.id}:error`, (stats.get(`${user.id}:error`) ?? 0) + 1));
  req.end(route.body);
}

const timer = setInterval(fire, 1000 / rps);
const report = setInterval(() => {
  const line = [...stats.entries()].sort().map(([k, v]) => `${k}=${v}`).join(' ');
  console.log(`load: ${line}`);
}, 5000);
function stop() { clearInterval(timer); clearInterval(report); agent.destroy(); process.exit(0); }
if (seconds > 0) setTimeout(stop, seconds * 1000);
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, stop);
