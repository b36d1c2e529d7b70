/**
 * The baseline proxy of tap-overhead, run as its own process: the tap's forwarding core
 * (its HTTP server settings, undici pool and forwardRequest) with no check. Prints
 * `PORT <n>` once listening on 127.0.0.1; exits on SIGTERM/SIGINT.
 *
 *   node bench/dist/servers/bare-tap-proxy.js <upstream-port>
 */
import { startBareProxy } from '@sluice/tap/testing';

const upstreamPort = Number(process.argv[2]);
if (!Number.isInteger(upstreamPort) || upstreamPort <= 0) {
  console.error('usage: bare-tap-proxy <upstream-port>');
  process.exit(2);
}
const proxy = await startBareProxy({
  listen: { host: '127.0.0.1', port: 0 },
  upstream: { host: '127.0.0.1', port: upstreamPort },
  upstreamTimeoutMs: 60_000,
  maxRequestHeaderBytes: 65_536,
  maxResponseHeaderBytes: 65_536,
  maxRequestHeaders: 100,
  maxResponseHeaders: 100,
});
process.stdout.write(`PORT ${proxy.address.port}\n`);
const stop = (): void => { void proxy.close().finally(() => process.exit(0)); };
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
