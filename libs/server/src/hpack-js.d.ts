/** The part of hpack.js (no types of its own) the server uses. */
declare module 'hpack.js' {
  interface HeaderField {
    name: string;
    value: string;
    neverIndex: boolean;
  }
  interface TableOptions {
    table: { size: number };
  }
  interface Decompressor {
    write(block: Buffer): boolean;
    /** Decodes what was written; a malformed block is an 'error' event. */
    execute(): void;
    read(): HeaderField | null;
    on(event: 'error', listener: (err: Error) => void): this;
  }
  interface Compressor {
    write(headers: Array<{ name: string; value: string; huffman?: boolean; neverIndex?: boolean }>): boolean;
    read(): Buffer | null;
  }
  const hpack: {
    decompressor: { create(options: TableOptions): Decompressor };
    compressor: { create(options: TableOptions): Compressor };
  };
  export default hpack;
}
