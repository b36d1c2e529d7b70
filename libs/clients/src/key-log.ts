import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
import { createWriteStream, type WriteStream } from 'node:fs';

/** Appends NSS key log lines (the `keylog` event of TLS sockets) to a file, for decrypting captures. */
export class KeyLog implements Lifecycle {
  private readonly stream: WriteStream;

  constructor(readonly file: string) {
    this.stream = createWriteStream(file, { flags: 'a', mode: 0o600 });
    this.stream.on('error', () => undefined);
  }

  readonly write = (line: Buffer): void => {
    this.stream.write(line);
  };

  /** Ends the file once what was written is flushed. */
  readonly shutdown = onceShutdown('TLS key log', () => new Promise<void>((resolve) => this.stream.end(() => resolve())));
}
