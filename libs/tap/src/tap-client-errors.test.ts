import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';

/** Sends `first` on a raw connection (then `then.send` once the reply has `then.after`); all it received, once the tap closed it. */
async function raw(port: number, first: string, then?: { after: string; send: string }): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  let text = '';
  let sent = false;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (d: Buffer) => {
    text += d.toString('latin1');
    if (then !== undefined && !sent && text.includes(then.after)) {
      sent = true;
      socket.write(then.send);
    }
  });
  socket.write(first);
  const outcome = await Promise.race([closed.then(() => 'closed'), sleep(3000, 'open')]);
  socket.destroy();
  assert.equal(outcome, 'closed', `the tap left the connection open after ${JSON.stringify(text)}`);
  return text;
}

test('headers too large: 431, the connection closed, nothing reaches the agent or the workload', async (t) => {
  let reached = 0;
  const upstream = await startUpstream(t, (_req, res) => { reached++; res.end('ok'); });
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, upstream, agent.address);
  const reply = await raw(tap.address.port, `GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
  assert.match(reply, /^HTTP\/1\.1 431 /);
  assert.equal(reached, 0);
  assert.equal(agent.requests.length, 0);
});

test('a malformed request: 400 and the connection closed', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, upstream, agent.address);
  assert.match(await raw(tap.address.port, 'NOT HTTP AT ALL\r\n\r\n'), /^HTTP\/1\.1 400 /);
});

test('a malformed request behind one whose answer is streaming: the answer is cut, never spliced with a 400', async (t) => {
  const upstream = await startUpstream(t, (_req, res) => {
    res.writeHead(200, { 'content-length': '10' });
    res.write('hello');
    setTimeout(() => res.end('world'), 300);
  });
  const agent = await startTestAgent(t);
  const { tap } = await startTestTap(t, upstream, agent.address);
  const reply = await raw(tap.address.port, 'GET /slow HTTP/1.1\r\nHost: a\r\n\r\n', { after: 'hello', send: 'NOT HTTP AT ALL\r\n\r\n' });
  assert.match(reply, /^HTTP\/1\.1 200 /);
  assert.doesNotMatch(reply, /400 Bad Request/);
});
