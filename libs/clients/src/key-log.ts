import { createWriteStream, type WriteStream } from 'node:fs';

/** Appends NSS key log lines (the `keylog` event of TLS sockets) to a file, for decrypting captures. */
export class KeyLog {
  private readonly stream: WriteStream;

  constructor(readonly file: string) {
    this.stream = createWriteStream(file, { flags: 'a', mode: 0o600 });
    this.stream.on('error', () => undefined);
  }

  readonly write = (line: Buffer): void => {
    this.stream.write(line);
  };

  close(): Promise<void> {
    return new Promise((resolve) => this.stream.end(() => resolve()));
  }
}
