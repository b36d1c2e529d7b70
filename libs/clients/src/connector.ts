import net from 'node:net';
import tls from 'node:tls';
import type { buildConnector } from 'undici';
import type { ClientTlsMaterial } from './tls-files.js';
import { undici } from './undici-module.js';

export interface ConnectorOptions {
  /** TCP connect timeout (network_timeout); 0 = none. */
  connectTimeoutMs: number;
  /** TLS handshake timeout, counted from TCP connect; 0 = none. */
  handshakeTimeoutMs: number;
  /** TCP keep-alive probe delay (network_keep_alive); negative disables keep-alive probes. */
  keepAliveMs: number;
  /** Socket read / write buffer (stream high-water marks) in bytes. */
  readBufferSize: number;
  writeBufferSize: number;
  tls: ClientTlsMaterial;
  /** Receives NSS key log lines of every TLS connection. */
  keyLog?: (line: Buffer) => void;
}

/**
 * An undici connector with Go-transport semantics: a TCP connect timeout and a
 * separate TLS handshake timeout, TCP keep-alive, socket buffer sizes, and TLS
 * key logging (undici's own connector has one timeout for both phases and no key-log hook).
 */
export function createConnector(o: ConnectorOptions): buildConnector.connector {
  return (opts, callback) => {
    const host = opts.hostname.startsWith('[') ? opts.hostname.slice(1, -1) : opts.hostname;
    const secure = opts.protocol === 'https:';
    const port = Number(opts.port) || (secure ? 443 : 80);
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (err: Error | null, socket?: net.Socket): void => {
      if (done) return;
      done = true;
      if (timer !== undefined) clearTimeout(timer);
      if (err !== null) callback(err, null);
      else callback(null, socket as net.Socket);
    };
    const arm = (ms: number, socket: net.Socket, message: string): void => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (ms > 0) {
        timer = setTimeout(() => {
          socket.destroy();
          finish(new (undici().errors.ConnectTimeoutError)(message));
        }, ms);
      }
    };
    const startTls = (raw: net.Socket): void => {
      const servername = opts.servername || (net.isIP(host) === 0 ? host : undefined);
      // node:tls documents `highWaterMark` for tls.connect; @types/node omits it.
      const options: tls.ConnectionOptions & { highWaterMark: number } = {
        socket: raw,
        servername,
        ALPNProtocols: ['http/1.1'],
        highWaterMark: o.readBufferSize,
        ca: o.tls.ca,
        cert: o.tls.cert,
        key: o.tls.key,
        rejectUnauthorized: o.tls.rejectUnauthorized,
        ...(o.tls.checkServerIdentity === undefined ? {} : { checkServerIdentity: o.tls.checkServerIdentity }),
      };
      const secureSocket = tls.connect(options);
      if (o.keyLog !== undefined) secureSocket.on('keylog', o.keyLog);
      arm(o.handshakeTimeoutMs, secureSocket, `TLS handshake timeout after ${o.handshakeTimeoutMs}ms with ${host}:${port}`);
      secureSocket.once('secureConnect', () => finish(null, secureSocket));
      secureSocket.once('error', (err) => finish(err));
    };
    if (opts.httpSocket !== undefined) {
      if (secure) startTls(opts.httpSocket);
      else finish(null, opts.httpSocket);
      return;
    }
    const raw = net.connect({
      host,
      port,
      ...(opts.localAddress ? { localAddress: opts.localAddress } : {}),
      noDelay: true,
      readableHighWaterMark: o.readBufferSize,
      writableHighWaterMark: o.writeBufferSize,
    } as net.NetConnectOpts);
    if (o.keepAliveMs >= 0) raw.setKeepAlive(true, o.keepAliveMs);
    arm(o.connectTimeoutMs, raw, `connect timeout after ${o.connectTimeoutMs}ms to ${host}:${port}`);
    raw.once('error', (err) => finish(err));
    raw.once('connect', () => {
      if (secure) startTls(raw);
      else finish(null, raw);
    });
  };
}
