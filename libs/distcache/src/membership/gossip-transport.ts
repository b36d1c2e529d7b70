import dgram from 'node:dgram';
import net from 'node:net';
import { FrameDecoder, encodeFrame } from '../transport/frame.js';
import { splitHostPort } from '../address.js';

export interface GossipTransportOptions {
  host: string;
  port: number;
  /** A packet arrived (UDP datagram, or one TCP frame for the full-state sync). */
  onPacket: (bytes: Buffer) => void;
  /** A TCP stream that broke the framing. */
  onMalformed: () => void;
  /** Full-state sync connections served at once (more are closed as they come). Default 1024. */
  maxConnections?: number;
}

/** Largest full-state sync accepted over TCP. */
const MAX_SYNC_BYTES = 1024 * 1024;

/**
 * The membership's sockets: UDP for probes and gossip, TCP on the same port
 * number for the full-state sync (one frame per connection).
 */
export class GossipTransport {
  private udp: dgram.Socket | undefined;
  private tcp: net.Server | undefined;
  private readonly conns = new Set<net.Socket>();
  port = 0;

  constructor(private readonly opts: GossipTransportOptions) {}

  async start(): Promise<number> {
    for (let attempt = 0; ; attempt++) {
      const udp = dgram.createSocket(this.opts.host.includes(':') ? 'udp6' : 'udp4');
      udp.on('message', (msg) => this.opts.onPacket(msg));
      udp.on('error', () => undefined);
      try {
        await new Promise<void>((resolve, reject) => {
          udp.once('error', reject);
          udp.bind(this.opts.port, this.opts.host, () => {
            udp.off('error', reject);
            resolve();
          });
        });
      } catch (e) {
        try {
          udp.close();
        } catch {
          // never bound: nothing to close
        }
        throw e;
      }
      const port = udp.address().port;
      const tcp = net.createServer((s) => this.accept(s));
      tcp.maxConnections = this.opts.maxConnections ?? 1024;
      try {
        await new Promise<void>((resolve, reject) => {
          tcp.once('error', reject);
          tcp.listen(port, this.opts.host, () => {
            tcp.off('error', reject);
            resolve();
          });
        });
      } catch (e) {
        udp.close();
        // an ephemeral UDP port whose TCP twin is taken: try another
        if (this.opts.port === 0 && attempt < 10) continue;
        throw e;
      }
      this.udp = udp;
      this.tcp = tcp;
      this.port = port;
      return port;
    }
  }

  sendUdp(to: string, bytes: Buffer): void {
    if (this.udp === undefined) return;
    try {
      const { host, port } = splitHostPort(to);
      this.udp.send(bytes, port, host, () => undefined);
    } catch {
      // an unparsable address from gossip: nothing to send to
    }
  }

  sendTcp(to: string, bytes: Buffer): void {
    let target: { host: string; port: number };
    try {
      target = splitHostPort(to);
    } catch {
      return;
    }
    const s = net.connect(target);
    s.setTimeout(2000, () => s.destroy());
    s.on('error', () => s.destroy());
    s.end(encodeFrame(bytes));
  }

  async close(): Promise<void> {
    for (const s of this.conns) s.destroy();
    await Promise.all([
      new Promise<void>((resolve) => (this.udp ? this.udp.close(() => resolve()) : resolve())),
      new Promise<void>((resolve) => (this.tcp ? this.tcp.close(() => resolve()) : resolve())),
    ]);
    this.udp = undefined;
    this.tcp = undefined;
  }

  private accept(s: net.Socket): void {
    this.conns.add(s);
    const dec = new FrameDecoder(MAX_SYNC_BYTES);
    s.setTimeout(5000, () => s.destroy());
    s.on('close', () => this.conns.delete(s));
    s.on('error', () => s.destroy());
    s.on('data', (chunk: Buffer) => {
      try {
        for (const f of dec.push(chunk)) this.opts.onPacket(f);
      } catch {
        this.opts.onMalformed();
        s.destroy();
      }
    });
  }
}
