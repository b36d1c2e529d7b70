// Types of the `hashring` package (it ships none): only what ring.ts uses.
declare module 'hashring' {
  type Servers = Record<string, { vnodes: number }>;
  class HashRing {
    constructor(servers: Servers, algorithm?: string, options?: Record<string, unknown>);
    get(key: string): string | undefined;
    range(key: string, size: number, unique?: boolean): string[];
    add(servers: Servers): this;
    remove(server: string): this;
    has(server: string): boolean;
    /** Each server's points on the continuum (unsigned 32-bit hash values). */
    points(servers?: string[]): Record<string, number[]>;
  }
  export default HashRing;
}
