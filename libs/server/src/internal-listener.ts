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
  private readonly dir = mkdtempSync(join(tmpdir(), 'sluice-gw-'));
  readonly path = join(this.dir, 'grpc.sock');
  private readonly sockets = new Set<net.Socket>();
  private readonly server: net.Server;

  constructor(injector: () => grpc.ConnectionInjector, firstBytesTimeoutMs: number) {
    this.server = net.createServer((socket) => {
      socket.on('error', () => {});
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
      void sniffProtocol(socket, firstBytesTimeoutMs).then((protocol) => {
        if (protocol === 'h2') injector().injectConnection(socket);
        else socket.destroy();
      });
    });
  }

  /** grpc-js target for this entrance. */
  get target(): string {
    return `unix:${this.path}`;
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.path, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server.listening) {
        rmSync(this.dir, { recursive: true, force: true });
        resolve();
        return;
      }
      this.server.close(() => {
        rmSync(this.dir, { recursive: true, force: true });
        resolve();
      });
    });
  }

  destroyAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }
}
