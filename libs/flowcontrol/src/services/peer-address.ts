/**
 * The IP of a grpc-js peer string: `1.2.3.4:5678`, `::ffff:1.2.3.4:5678`,
 * `[::1]:5678` or `::1:5678` (grpc-js writes IPv6 peers without brackets).
 * Anything else (a Unix socket path, `unknown`) comes back as it is.
 */
export function peerIp(peer: string): string {
  if (peer.length === 0) return peer;
  if (peer.charCodeAt(0) === 0x5b /* [ */) {
    const close = peer.indexOf(']');
    return close > 0 ? peer.slice(1, close) : peer;
  }
  const colon = peer.lastIndexOf(':');
  if (colon <= 0) return peer;
  for (let i = colon + 1; i < peer.length; i++) {
    const c = peer.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return peer;
  }
  return colon === peer.length - 1 ? peer : peer.slice(0, colon);
}
