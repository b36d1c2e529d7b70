/** Exit codes: 1 a command failed (the controller refused, a file is bad), 2 the command line is wrong. */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** An error the user can act on: printed as `sluicectl: <message>` (no stack) with its exit code. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: number = EXIT_FAILURE) {
    super(message);
    this.name = 'CliError';
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT_USAGE);
    this.name = 'UsageError';
  }
}
