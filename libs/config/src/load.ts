import { parseCliArgs, type AppFlag, type CliArgs } from './args.js';
import { readConfigFile } from './file.js';
import { PROCESSES, type ConfigByProcess, type ProcessName } from './process.js';
import { resolveConfig } from './resolve.js';

export interface LoadConfigOptions<P extends ProcessName> {
  process: P;
  /** Command-line arguments after the script name (`process.argv.slice(2)`). */
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** Key paths that must be set; defaults to the process's list (agent: etcd.endpoints; controller: etcd.endpoints, prometheus.address). */
  requireKeys?: readonly string[];
  /** File read when `--config` is not given; defaults to /etc/sluice/<service>/config/<service>.yaml. */
  defaultConfigFile?: string;
  /** The app's own command-line flags; their values land in `args.flags`. */
  flags?: Readonly<Record<string, AppFlag>>;
}

export interface LoadedConfig<P extends ProcessName> {
  process: P;
  config: ConfigByProcess[P];
  /** The file that was read, if any. */
  configFile: string | undefined;
  args: CliArgs;
}

/**
 * Loads the configuration of a process from its command line, its YAML file
 * and its environment. Throws a ConfigError that lists every problem.
 */
export function loadConfig<P extends ProcessName>(opts: LoadConfigOptions<P>): LoadedConfig<P> {
  const spec = PROCESSES[opts.process];
  const cli = parseCliArgs(opts.argv, opts.flags);
  const explicit = cli.args.configFile !== undefined && cli.args.configFile !== '';
  const name = explicit ? (cli.args.configFile as string) : (opts.defaultConfigFile ?? spec.defaultConfigFile);
  const read = readConfigFile(name, explicit);
  const config = resolveConfig({
    process: opts.process,
    env: opts.env,
    file: read.file,
    problems: [...cli.problems, ...read.problems],
    requireKeys: opts.requireKeys,
  });
  return { process: opts.process, config, configFile: read.file?.name, args: cli.args };
}
