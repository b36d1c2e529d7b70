import { writeSync } from 'node:fs';
import { parseCliArgs, usage } from './args.js';
import { oldEnvNotices } from './env.js';
import { loadConfig, type LoadConfigOptions, type LoadedConfig } from './load.js';
import { maskSecrets } from './mask.js';
import { ConfigError } from './problem.js';
import { PROCESSES, type ProcessName } from './process.js';
import { releaseValidators } from './validator.js';

/** Where the CLI writes and how it ends; the real process by default. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  exit(code: number): never;
}

const processIo: CliIo = {
  stdout: (text) => { writeSync(1, text); },
  stderr: (text) => { writeSync(2, text); },
  exit: (code) => process.exit(code),
};

export interface LoadConfigOrExitOptions<P extends ProcessName> extends LoadConfigOptions<P> {
  io?: CliIo;
}

/**
 * The start of a process: loads the configuration or prints every problem
 * (one line each) to stderr and exits 2, before anything binds a port.
 * `--help` prints usage and exits 0; `--print-config` prints the effective
 * configuration as JSON, secrets masked, and exits 0. Old names of variables that were read are
 * told on stderr. A process validates its configuration
 * once: the compiled validators are released here, whatever the outcome.
 */
export function loadConfigOrExit<P extends ProcessName>(opts: LoadConfigOrExitOptions<P>): LoadedConfig<P> {
  const io = opts.io ?? processIo;
  const spec = PROCESSES[opts.process];
  const service = `sluice-${opts.process}`;
  const cli = parseCliArgs(opts.argv, opts.flags);
  if (cli.args.help && cli.problems.length === 0) {
    io.stdout(usage(opts.process, spec.envPrefix, opts.defaultConfigFile ?? spec.defaultConfigFile, opts.flags));
    return io.exit(0);
  }
  let loaded: LoadedConfig<P>;
  try {
    loaded = loadConfig(opts);
  } catch (err) {
    releaseValidators();
    if (!(err instanceof ConfigError)) throw err;
    const lines = [`${service}: invalid configuration (${err.problems.length} problem${err.problems.length === 1 ? '' : 's'}); nothing was started:`];
    for (const p of err.problems) lines.push(`${service}: ${p.message}`);
    io.stderr(`${lines.join('\n')}\n`);
    return io.exit(2);
  }
  releaseValidators();
  // Variables of settings that became keys: read until the next release, and said once at start.
  const notices = oldEnvNotices(spec, opts.env);
  if (notices.length > 0) io.stderr(notices.map((n) => `${service}: ${n}\n`).join(''));
  if (loaded.args.printConfig) {
    io.stdout(`${JSON.stringify(maskSecrets(spec.schema, loaded.config), null, 2)}\n`);
    return io.exit(0);
  }
  return loaded;
}
