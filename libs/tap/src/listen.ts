import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HostPort } from './options.js';

/** Binds `server` to `addr` ('' host: every interface). */
export function listen(server: Server, addr: HostPort): Promise<HostPort> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error): void => reject(err);
    server.once('error', onError);
    const done = (): void => {
      server.off('error', onError);
      const a = server.address() as AddressInfo;
      resolve({ host: a.address, port: a.port });
    };
    if (addr.host === '') server.listen(addr.port, done);
    else server.listen(addr.port, addr.host, done);
  });
}

/** Resolves when `server` has closed (or at once when it was not listening). */
export function closed(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
  });
}
