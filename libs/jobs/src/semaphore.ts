/** FIFO counting semaphore; `limit` 0 or less means unlimited. */
export class Semaphore {
  private active = 0;
  private readonly waiters: Array<(granted: boolean) => void> = [];

  constructor(private readonly limit: number) {}

  /** Resolves true when a slot is held, false when the wait was cancelled by `cancelAll`. */
  acquire(): Promise<boolean> {
    if (this.limit <= 0 || this.active < this.limit) {
      this.active++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next !== undefined) {
      next(true);
      return;
    }
    this.active = Math.max(0, this.active - 1);
  }

  /** Refuse every pending acquire (used at shutdown). */
  cancelAll(): void {
    for (const waiter of this.waiters.splice(0)) waiter(false);
  }

  get running(): number {
    return this.active;
  }

  get waiting(): number {
    return this.waiters.length;
  }
}
