import { Duplex } from 'node:stream';

/** Two connected in-memory stream ends: what one writes, the other reads; ending or destroying one ends or destroys the other. */
export function duplexPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  const make = (i: number): Duplex => new Duplex({
    read() { /* data is pushed by the other end */ },
    write(chunk: Buffer, _enc, cb) { ends[1 - i]?.push(chunk); cb(); },
    final(cb) { ends[1 - i]?.push(null); cb(); },
    destroy(err, cb) { ends[1 - i]?.destroy(); cb(err); },
  });
  ends.push(make(0), make(1));
  return [ends[0] as Duplex, ends[1] as Duplex];
}
