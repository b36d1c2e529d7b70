/** Where a non-blocking buffer hands its entries. */
export interface BufferSink<T> {
  /** Writes one entry; false when the sink is backed up and the buffer should wait. */
  write(entry: T): boolean;
  /** Calls `resume` once when a backed-up sink can take entries again. */
  onceDrained(resume: () => void): void;
}

/**
 * A fixed-size ring buffer between the callers and a sink, drained on a later
 * turn of the event loop. When it is full, new entries are dropped and
 * counted: callers never wait and memory stays bounded.
 */
export class NonBlockingBuffer<T> {
  private readonly slots: (T | undefined)[];
  private head = 0;
  private size = 0;
  private dropped = 0;
  private scheduled = false;
  private waitingForSink = false;
  private flushWaiters: (() => void)[] = [];

  constructor(
    readonly capacity: number,
    private readonly sink: BufferSink<T>,
    private readonly onDrop: () => void = () => {},
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`buffer capacity must be a positive integer, got ${capacity}`);
    this.slots = new Array<T | undefined>(capacity);
  }

  /** Queues an entry; false (and counted) when the buffer is full. */
  push(entry: T): boolean {
    if (this.size === this.capacity) {
      this.dropped++;
      this.onDrop();
      return false;
    }
    this.slots[(this.head + this.size) % this.capacity] = entry;
    this.size++;
    this.schedule();
    return true;
  }

  /** Entries dropped because the buffer was full. */
  droppedCount(): number {
    return this.dropped;
  }

  /** Entries waiting to be written. */
  pending(): number {
    return this.size;
  }

  /** Resolves once every entry queued so far has been handed to the sink. */
  flush(): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.flushWaiters.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.waitingForSink) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain();
    });
  }

  private drain(): void {
    while (this.size > 0) {
      const entry = this.slots[this.head] as T;
      this.slots[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
      this.size--;
      if (!this.sink.write(entry)) {
        this.waitingForSink = true;
        this.sink.onceDrained(() => {
          this.waitingForSink = false;
          this.drain();
        });
        return;
      }
    }
    const waiters = this.flushWaiters;
    this.flushWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
