/**
 * `http.flavor` of a request line protocol: HTTP/1.0 → 1.0, HTTP/1.1 → 1.1,
 * HTTP/2 → 2.0, HTTP/3 → 3.0 (case-insensitive; bare `2`, `1.1` accepted);
 * undefined when the protocol is unknown.
 */
export function httpFlavor(protocol: string): string | undefined {
  switch (protocol) {
    case 'HTTP/1.1': return '1.1';
    case 'HTTP/2': case 'HTTP/2.0': return '2.0';
    case 'HTTP/1.0': return '1.0';
    case 'HTTP/3': case 'HTTP/3.0': return '3.0';
    default: break;
  }
  let p = protocol.trim().toUpperCase();
  if (p.startsWith('HTTP/')) p = p.slice(5);
  switch (p) {
    case '1': case '1.0': return '1.0';
    case '1.1': return '1.1';
    case '2': case '2.0': return '2.0';
    case '3': case '3.0': return '3.0';
    default: return undefined;
  }
}
