/** A part of a process with an explicit lifecycle. */
export interface Component {
  readonly name: string;
  start(): Promise<void> | void;
  /** Stop; `deadlineMs` is what is left of the process's shutdown budget. */
  shutdown(deadlineMs: number): Promise<void> | void;
}
