import type { Socket } from 'node:net';

/**
 * Apply listener.keep_alive to an accepted socket: 0 enables TCP keep-alive with
 * the OS default interval, a negative value disables it, otherwise the initial delay in ms.
 */
export function applyKeepAlive(socket: Socket, keepAliveMs: number): void {
  if (keepAliveMs < 0) socket.setKeepAlive(false);
  else if (keepAliveMs === 0) socket.setKeepAlive(true);
  else socket.setKeepAlive(true, keepAliveMs);
}
