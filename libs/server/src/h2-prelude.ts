import { decodeFirstHeaderBlock, isGrpcContentType } from './h2-header-block.js';
import { HTTP2_PREFACE } from './protocol-router.js';

/** HTTP/2 frame types (RFC 9113 §6). */
export const FrameType = {
  DATA: 0, HEADERS: 1, PRIORITY: 2, RST_STREAM: 3, SETTINGS: 4, PUSH_PROMISE: 5, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9,
} as const;
export const FLAG_ACK = 0x1;
export const FLAG_END_STREAM = 0x1;
export const FLAG_END_HEADERS = 0x4;
export const FLAG_PADDED = 0x8;
export const FLAG_PRIORITY = 0x20;
/** SETTINGS_MAX_FRAME_SIZE until the server raises it, which no server here has done yet. */
const MAX_FRAME_SIZE = 16_384;
const FRAME_HEADER = 9;

/** An empty SETTINGS frame: a server connection preface that leaves every setting at its default. */
export const EMPTY_SETTINGS = Buffer.from([0, 0, 0, FrameType.SETTINGS, 0, 0, 0, 0, 0]);

/** What the bytes read so far say. */
export type PreludeStep =
  | { state: 'more' }
  | { state: 'decided'; grpc: boolean }
  | { state: 'drop'; reason: string };

const MORE: PreludeStep = { state: 'more' };

/**
 * The client's side of a new HTTP/2 connection up to its first request: the preface, SETTINGS,
 * then any WINDOW_UPDATE, PRIORITY, PING or extension frames, then the HEADERS of the first stream
 * (with its CONTINUATION frames). The first request's `content-type` decides the connection.
 *
 * Every byte is kept to be replayed to the server the connection is handed to, except one frame:
 * when our side sent the server preface itself (markSettingsSent: the client waits for it before
 * its first request), the client's SETTINGS acknowledgement of it is dropped, because the chosen
 * server sends its own SETTINGS and expects its own acknowledgement. The decision waits for that
 * acknowledgement so that nothing after the hand-over needs filtering.
 *
 * Bounded: more than `maxBytes` kept before the decision, a frame larger than the default maximum
 * frame size, or a frame that is out of place in a connection's prelude is a 'drop'.
 */
export class H2Prelude {
  private pending: Buffer = Buffer.alloc(0);
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  private prefaceSeen = false;
  private clientSettingsSeen = false;
  private settingsSent = false;
  private settingsAcked = false;
  /** Fragments of the first header block while CONTINUATION frames are due. */
  private block: Buffer[] | undefined;
  private blockStream = 0;
  /** Whether the first stream is a gRPC call; undefined until its header block is complete. */
  private firstStreamGrpc: boolean | undefined;

  constructor(private readonly maxBytes: number) {}

  /** The client's preface and its SETTINGS have arrived: a server preface may now be answered. */
  get clientPrefaceDone(): boolean {
    return this.clientSettingsSeen;
  }

  /** Our server preface went out and was acknowledged, and no request has come yet. */
  get idle(): boolean {
    return this.settingsAcked && this.firstStreamGrpc === undefined && this.block === undefined;
  }

  get sentSettings(): boolean {
    return this.settingsSent;
  }

  /** Our side wrote EMPTY_SETTINGS to the client: its first SETTINGS ACK is ours and is not replayed. */
  markSettingsSent(): void {
    this.settingsSent = true;
  }

  /** The bytes to replay to the chosen server: all read so far, less our acknowledgement. */
  replay(): Buffer {
    return Buffer.concat([...this.kept, this.pending]);
  }

  push(chunk: Buffer): PreludeStep {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const step = this.parse();
    // Bytes past the decision (a first call's DATA in the same read) are the chosen server's to bound.
    if (step === MORE && this.keptBytes + this.pending.length > this.maxBytes) return drop(`more than ${this.maxBytes} bytes before the first request`);
    return step;
  }

  private parse(): PreludeStep {
    if (!this.prefaceSeen) {
      if (this.pending.length < HTTP2_PREFACE.length) return MORE;
      if (!this.pending.subarray(0, HTTP2_PREFACE.length).equals(HTTP2_PREFACE)) return drop('not an HTTP/2 connection preface');
      this.keep(this.pending.subarray(0, HTTP2_PREFACE.length));
      this.pending = this.pending.subarray(HTTP2_PREFACE.length);
      this.prefaceSeen = true;
    }
    while (this.pending.length >= FRAME_HEADER) {
      const length = this.pending.readUIntBE(0, 3);
      if (length > MAX_FRAME_SIZE) return drop(`a frame of ${length} bytes, over the maximum frame size`);
      if (this.pending.length < FRAME_HEADER + length) break;
      const raw = this.pending.subarray(0, FRAME_HEADER + length);
      this.pending = this.pending.subarray(FRAME_HEADER + length);
      const refused = this.onFrame(raw[3], raw[4], raw.readUInt32BE(5) & 0x7fff_ffff, raw.subarray(FRAME_HEADER), raw);
      if (refused !== undefined) return drop(refused);
      const step = this.verdict();
      if (step !== MORE) return step;
    }
    return MORE;
  }

  private verdict(): PreludeStep {
    if (this.firstStreamGrpc === undefined || (this.settingsSent && !this.settingsAcked)) return MORE;
    return { state: 'decided', grpc: this.firstStreamGrpc };
  }

  private keep(raw: Buffer): void {
    this.kept.push(raw);
    this.keptBytes += raw.length;
  }

  /** One whole frame; a reason when it is out of place. */
  private onFrame(type: number, flags: number, stream: number, payload: Buffer, raw: Buffer): string | undefined {
    if (this.block !== undefined) {
      if (type !== FrameType.CONTINUATION || stream !== this.blockStream) return 'a header block interrupted before its end';
      this.keep(raw);
      this.block.push(payload);
      return (flags & FLAG_END_HEADERS) !== 0 ? this.endBlock() : undefined;
    }
    if (type === FrameType.SETTINGS && (flags & FLAG_ACK) !== 0) return this.onSettingsAck(stream, payload);
    if (this.firstStreamGrpc !== undefined) {
      // Decided, awaiting the acknowledgement of our SETTINGS: the chosen server checks the rest.
      this.keep(raw);
      return undefined;
    }
    if (!this.clientSettingsSeen && type !== FrameType.SETTINGS) return 'the connection preface is not followed by SETTINGS';
    switch (type) {
      case FrameType.SETTINGS:
        if (stream !== 0 || payload.length % 6 !== 0) return 'a malformed SETTINGS frame';
        this.clientSettingsSeen = true;
        break;
      case FrameType.HEADERS: {
        if (stream % 2 === 0) return 'a request on an even stream';
        const fragment = headerFragment(flags, payload);
        if (fragment === undefined) return 'a malformed HEADERS frame';
        this.keep(raw);
        this.block = [fragment];
        this.blockStream = stream;
        return (flags & FLAG_END_HEADERS) !== 0 ? this.endBlock() : undefined;
      }
      case FrameType.PING:
        if (stream !== 0 || payload.length !== 8) return 'a malformed PING frame';
        break;
      case FrameType.WINDOW_UPDATE:
        // A stream's window cannot be updated before the stream exists.
        if (stream !== 0 || payload.length !== 4) return 'a WINDOW_UPDATE frame out of place';
        break;
      case FrameType.PRIORITY:
        if (stream === 0 || payload.length !== 5) return 'a malformed PRIORITY frame';
        break;
      case FrameType.GOAWAY:
        return 'the client went away before its first request';
      case FrameType.DATA:
      case FrameType.RST_STREAM:
      case FrameType.PUSH_PROMISE:
      case FrameType.CONTINUATION:
        return `a frame of type ${type} before the first request`;
      default:
        // Frames of unknown types are ignored by HTTP/2 peers (RFC 9113 §4.1): passed on.
    }
    this.keep(raw);
    return undefined;
  }

  private onSettingsAck(stream: number, payload: Buffer): string | undefined {
    if (stream !== 0 || payload.length !== 0) return 'a malformed SETTINGS acknowledgement';
    if (!this.settingsSent || this.settingsAcked) return 'a SETTINGS acknowledgement of SETTINGS never sent';
    this.settingsAcked = true;
    return undefined;
  }

  private endBlock(): string | undefined {
    const block = Buffer.concat(this.block ?? []);
    this.block = undefined;
    let fields: Array<{ name: string; value: string }>;
    try {
      fields = decodeFirstHeaderBlock(block);
    } catch (err) {
      return (err as Error).message;
    }
    this.firstStreamGrpc = isGrpcContentType(fields.find((f) => f.name === 'content-type')?.value);
    return undefined;
  }
}

/** The header block fragment of a HEADERS frame, without its padding and priority fields. */
function headerFragment(flags: number, payload: Buffer): Buffer | undefined {
  let start = 0;
  let padding = 0;
  if ((flags & FLAG_PADDED) !== 0) {
    if (payload.length < 1) return undefined;
    padding = payload[0];
    start = 1;
  }
  if ((flags & FLAG_PRIORITY) !== 0) start += 5;
  if (start + padding > payload.length) return undefined;
  return payload.subarray(start, payload.length - padding);
}

function drop(reason: string): PreludeStep {
  return { state: 'drop', reason };
}
