/** A sleep that another part of the client can end early (a kick), or that ends at once when stopped. */
export class WakeableSleep {
  private wake: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private kicked = false;

  /** Resolves after `ms`, on `kick()`, or on `cancel()`. A kick that came before the sleep ends it at once. */
  sleep(ms: number): Promise<void> {
    if (this.kicked) {
      this.kicked = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.wake = () => {
        clearTimeout(this.timer);
        this.timer = undefined;
        this.wake = undefined;
        resolve();
      };
      this.timer = setTimeout(this.wake, ms);
    });
  }

  /** Ends the sleep under way, if any; unlike kick, nothing is kept for a later sleep. */
  interrupt(): void {
    this.wake?.();
  }

  kick(): void {
    if (this.wake !== undefined) this.wake();
    else this.kicked = true;
  }

  cancel(): void {
    this.kicked = true;
    this.wake?.();
  }
}
