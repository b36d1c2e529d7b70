import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import { sniffProtocol } from './protocol-router.js';

/**
 * A private plaintext gRPC entrance on a Unix socket in a fresh 0700 directory, used by the
 * gateway to reach this server's own gRPC services when the public listener speaks TLS
 * (with client certificates the gateway could not present). Only HTTP/2 is accepted.
 */
export class InternalListener {
  /** Made by listen(), removed by close(): a server that never starts leaves nothing behind. */
  private dir: string | undefined;
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  constructor(injector: () => grpc.ConnectionInjector, firstBytesTimeoutMs: number) {
    this.server = net.createServer((socket) => {
      socket.on('error', () => {});
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      sniffProtocol(socket, firstBytesTimeoutMs).then((protocol) => {
        if (protocol === 'h2') injector().injectConnection(socket);
        else socket.destroy();
      }).catch(() => socket.destroy());
    });
  }

  /** The socket's path (after listen()). */
  get path(): string {
    if (this.dir === undefined) throw new Error('internal listener is not listening');
    return join(this.dir, 'grpc.sock');
  }

  /** grpc-js target for this entrance (after listen()). */
  get target(): string {
    return `unix:${this.path}`;
  }

  listen(): Promise<void> {
    this.dir ??= mkdtempSync(join(tmpdir(), 'sluice-gw-'));
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.path, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  close(): Promise<void> {
    const removeDir = (): void => {
      if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
      this.dir = undefined;
    };
    return new Promise((resolve) => {
      if (!this.server.listening) {
        removeDir();
        resolve();
        return;
      }
      this.server.close(() => {
        removeDir();
        resolve();
      });
    });
  }

  destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }
}
