/**
 * A minimal HTTP/2 client for one fixed gRPC unary request, in the spirit of h2load: the
 * request's HEADERS block (HPACK, entered into the dynamic table by the first call and
 * indexed afterwards, as real clients do) and DATA frame are encoded once; frames written
 * in the same tick go out in one write. Replies are read frame by frame without decoding
 * header blocks: a call succeeds when its stream carried a gRPC message (DATA longer than
 * the 5-byte prefix) and ended with a trailers HEADERS frame. Error statuses come back as
 * trailers-only responses (no DATA), so they count as failures; the bench checks the
 * status and reply of a call on each target with node:http2 before measuring.
 *
 * Handles SETTINGS (acknowledged), PING (answered), WINDOW_UPDATE (connection send
 * window), RST_STREAM and GOAWAY (calls failed); opens its own receive windows wide.
 */
import net from 'node:net';

type Done = (err: Error | null) => void;
interface Stream { done: Done; bytes: number; headers: number }

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
const MAX_WINDOW = 0x7fffffff;
const DEFAULT_WINDOW = 65535;
const T = { DATA: 0, HEADERS: 1, RST_STREAM: 3, SETTINGS: 4, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8 } as const;
const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;

function frameHeader(length: number, type: number, flags: number, stream: number): Buffer {
  const b = Buffer.alloc(9);
  b.writeUIntBE(length, 0, 3);
  b[3] = type;
  b[4] = flags;
  b.writeUInt32BE(stream, 5);
  return b;
}

function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  return Buffer.concat([frameHeader(payload.length, type, flags, stream), payload]);
}

/** HPACK blocks: literals with incremental indexing, then the same fields indexed from the dynamic table. */
function hpackBlocks(headers: Array<[string, string]>): { first: Buffer; indexed: Buffer } {
  const str = (s: string): Buffer => {
    const b = Buffer.from(s, 'latin1');
    if (b.length > 126) throw new Error(`header too long for this encoder: ${s}`);
    return Buffer.concat([Buffer.from([b.length]), b]);
  };
  const first = Buffer.concat(headers.flatMap(([n, v]) => [Buffer.from([0x40]), str(n), str(v)]));
  // The last field entered sits at index 62, the first at 62 + n - 1.
  const indexed = Buffer.from(headers.map((_, i) => 0x80 | (62 + headers.length - 1 - i)));
  if (62 + headers.length - 1 > 127) throw new Error('too many headers for one-byte indices');
  return { first, indexed };
}

export interface RawH2Connection {
  call(done: Done): void;
  close(): void;
}

export function connectRawH2(port: number, path: string, grpcMessage: Buffer): Promise<RawH2Connection> {
  const fields: Array<[string, string]> = [
    [':method', 'POST'], [':scheme', 'http'], [':path', path], [':authority', `127.0.0.1:${port}`],
    ['content-type', 'application/grpc'], ['te', 'trailers'], ['grpc-accept-encoding', 'identity'], ['user-agent', 'sluice-bench'],
  ];
  const blocks = hpackBlocks(fields);
  const body = Buffer.alloc(5 + grpcMessage.length);
  body.writeUInt32BE(grpcMessage.length, 1);
  grpcMessage.copy(body, 5);

  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    const streams = new Map<number, Stream>();
    const waiting: Done[] = [];
    let nextId = 1;
    let sendWindow = DEFAULT_WINDOW;
    let received = 0;
    let corked = false;
    let closed: Error | undefined;
    let buf: Buffer = Buffer.alloc(0);

    const write = (b: Buffer): void => {
      if (!corked) { corked = true; socket.cork(); process.nextTick(() => { corked = false; socket.uncork(); }); }
      socket.write(b);
    };
    const start = (done: Done): void => {
      const id = nextId;
      nextId += 2;
      sendWindow -= body.length;
      streams.set(id, { done, bytes: 0, headers: 0 });
      const block = id === 1 ? blocks.first : blocks.indexed;
      write(Buffer.concat([frameHeader(block.length, T.HEADERS, END_HEADERS, id), block, frameHeader(body.length, T.DATA, END_STREAM, id), body]));
    };
    const failAll = (err: Error, above = 0): void => {
      for (const [id, s] of streams) if (id > above) { streams.delete(id); s.done(err); }
      if (above === 0) for (const d of waiting.splice(0)) d(err);
    };
    const onFrame = (type: number, flags: number, id: number, p: Buffer): void => {
      switch (type) {
        case T.DATA: {
          received += p.length;
          if (received > MAX_WINDOW / 2) {
            const inc = Buffer.alloc(4);
            inc.writeUInt32BE(received, 0);
            write(frame(T.WINDOW_UPDATE, 0, 0, inc));
            received = 0;
          }
          const s = streams.get(id);
          if (s === undefined) return;
          s.bytes += (flags & PADDED) !== 0 ? p.length - 1 - p[0] : p.length;
          if ((flags & END_STREAM) !== 0) { streams.delete(id); s.done(new Error('stream ended without trailers')); }
          return;
        }
        case T.HEADERS: {
          const s = streams.get(id);
          if (s === undefined) return;
          s.headers++;
          if ((flags & END_STREAM) === 0) return;
          streams.delete(id);
          s.done(s.bytes > 5 && s.headers === 2 ? null : new Error(s.headers === 1 ? 'trailers-only reply (an error status)' : 'no gRPC message in the reply'));
          return;
        }
        case T.RST_STREAM: {
          const s = streams.get(id);
          if (s !== undefined) { streams.delete(id); s.done(new Error(`RST_STREAM ${p.readUInt32BE(0)}`)); }
          return;
        }
        case T.SETTINGS:
          if ((flags & ACK) === 0) write(frame(T.SETTINGS, ACK, 0, Buffer.alloc(0)));
          return;
        case T.PING:
          if ((flags & ACK) === 0) write(frame(T.PING, ACK, 0, p));
          return;
        case T.WINDOW_UPDATE:
          if (id === 0) {
            sendWindow += p.readUInt32BE(0) & MAX_WINDOW;
            while (waiting.length > 0 && sendWindow >= body.length) start(waiting.shift()!);
          }
          return;
        case T.GOAWAY:
          closed = new Error(`GOAWAY ${p.readUInt32BE(4)}`);
          failAll(closed, p.readUInt32BE(0) & MAX_WINDOW);
          return;
        default:
      }
    };
    socket.on('data', (d: Buffer) => {
      buf = buf.length === 0 ? d : Buffer.concat([buf, d]);
      let off = 0;
      while (buf.length - off >= 9) {
        const len = buf.readUIntBE(off, 3);
        if (buf.length - off < 9 + len) break;
        onFrame(buf[off + 3], buf[off + 4], buf.readUInt32BE(off + 5) & MAX_WINDOW, buf.subarray(off + 9, off + 9 + len));
        off += 9 + len;
      }
      buf = off === buf.length ? Buffer.alloc(0) : buf.subarray(off);
    });
    socket.once('connect', () => {
      // SETTINGS: ENABLE_PUSH 0, INITIAL_WINDOW_SIZE max; then open the connection window wide.
      const settings = Buffer.alloc(12);
      settings.writeUInt16BE(0x2, 0); settings.writeUInt32BE(0, 2);
      settings.writeUInt16BE(0x4, 6); settings.writeUInt32BE(MAX_WINDOW, 8);
      const inc = Buffer.alloc(4);
      inc.writeUInt32BE(MAX_WINDOW - DEFAULT_WINDOW, 0);
      socket.write(Buffer.concat([PREFACE, frame(T.SETTINGS, 0, 0, settings), frame(T.WINDOW_UPDATE, 0, 0, inc)]));
      resolve({
        call(done) {
          if (closed !== undefined) { done(closed); return; }
          if (sendWindow < body.length) waiting.push(done);
          else start(done);
        },
        close() { closed ??= new Error('closed'); socket.destroy(); },
      });
    });
    socket.on('error', (err) => { closed ??= err; failAll(err); reject(err); });
    socket.on('close', () => { closed ??= new Error('connection closed'); failAll(closed); });
  });
}
