#!/usr/bin/env node
// The demo workload: a small JSON API that the tap sits in front of.
// Usage: node demo-app.mjs <port>
import http from 'node:http';

const port = Number(process.argv[2] ?? 3000);
const orders = [];

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://demo');
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => { if (body.length < 65536) body += chunk; });
  req.on('end', () => {
    const send = (status, payload) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (url.pathname === '/healthz') return send(200, { ok: true });
    if (url.pathname === '/api/orders' && req.method === 'POST') {
      orders.push(body.length);
      return send(201, { id: orders.length });
    }
    if (url.pathname === '/api/orders') return send(200, { count: orders.length });
    if (url.pathname.startsWith('/api/users/')) return send(200, { user: url.pathname.slice('/api/users/'.length) });
    return send(404, { error: 'not found' });
  });
});
server.keepAliveTimeout = 30_000;
server.listen(port, '127.0.0.1', () => console.log(`demo-app: listening on 127.0.0.1:${port}`));
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => server.close(() => process.exit(0)));
