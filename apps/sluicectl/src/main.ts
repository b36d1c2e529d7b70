#!/usr/bin/env node
// sluicectl: the operator's command line. Wiring only; the commands are in commands.ts.
import { CommanderError } from 'commander';
import { buildProgram } from './commands.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE } from './errors.js';

const io = { out: (s: string) => process.stdout.write(s), err: (s: string) => process.stderr.write(s), env: process.env };

async function main(): Promise<number> {
  try {
    await buildProgram(io).parseAsync(process.argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit 0; the rest (an unknown command, a missing argument, no command at
      // all) is a usage error, which commander has printed.
      return err.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    if (err instanceof CliError) {
      io.err(`sluicectl: ${err.message}\n`);
      return err.exitCode;
    }
    io.err(`sluicectl: ${err instanceof Error ? err.message : String(err)}\n`);
    return EXIT_FAILURE;
  }
}

process.exitCode = await main();
