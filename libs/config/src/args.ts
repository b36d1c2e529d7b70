import { parseArgs } from 'node:util';
import { problem, type ConfigProblem } from './problem.js';

/** What the command line asks for. */
export interface CliArgs {
  /** `--config PATH`: a file that must exist. */
  configFile?: string;
  printConfig: boolean;
  help: boolean;
  /** Values of the app's own flags (see AppFlag), by flag name; absent when not given. */
  flags?: Record<string, string | boolean>;
}

/** A flag of the app's own beside --config, --print-config and --help (`--local-limiters FILE`). */
export interface AppFlag {
  type: 'string' | 'boolean';
  /** One line for --help. */
  description: string;
  /** Placeholder of the value in --help (`FILE`). */
  value?: string;
}

/** Parses `--config PATH`, `--print-config`, `--help`; anything else is a problem. */
export function parseCliArgs(argv: readonly string[], appFlags: Readonly<Record<string, AppFlag>> = {}): { args: CliArgs; problems: ConfigProblem[] } {
  try {
    const own: Record<string, { type: 'string' | 'boolean' }> = {};
    for (const [name, flag] of Object.entries(appFlags)) own[name] = { type: flag.type };
    const { values } = parseArgs({
      args: [...argv],
      options: {
        ...own,
        config: { type: 'string', short: 'c' },
        'print-config': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
    const problems: ConfigProblem[] = [];
    if (values.config === '') {
      problems.push(problem({ path: '(argv)', env: '', rule: 'cli', value: '' }, '--config needs a file path'));
    }
    const flags: Record<string, string | boolean> = {};
    for (const name of Object.keys(appFlags)) {
      const v = (values as Record<string, string | boolean | undefined>)[name];
      if (v === '') problems.push(problem({ path: '(argv)', env: '', rule: 'cli', value: '' }, `--${name} needs a value`));
      else if (v !== undefined) flags[name] = v;
    }
    const args: CliArgs = { configFile: values.config as string | undefined, printConfig: values['print-config'] === true, help: values.help === true };
    if (Object.keys(appFlags).length > 0) args.flags = flags;
    return { args, problems };
  } catch (err) {
    const message = (err as Error).message.split('\n')[0];
    return {
      args: { printConfig: false, help: false },
      problems: [problem({ path: '(argv)', env: '', rule: 'cli', value: [...argv] }, `${message} (see --help)`)],
    };
  }
}

export function usage(service: string, envPrefix: string, defaultConfigFile: string, appFlags: Readonly<Record<string, AppFlag>> = {}): string {
  const own = Object.entries(appFlags).map(([name, f]) => {
    const head = `      --${name}${f.type === 'string' ? ` ${f.value ?? 'VALUE'}` : ''}`;
    return `${head.padEnd(22)}${f.description}`;
  });
  return [
    `Usage: sluice-${service} [--config PATH] [--print-config] [--help]${Object.keys(appFlags).map((n) => ` [--${n}${appFlags[n].type === 'string' ? ` ${appFlags[n].value ?? 'VALUE'}` : ''}]`).join('')}`,
    '',
    `  -c, --config PATH   YAML configuration file (default ${defaultConfigFile}, used when present)`,
    '      --print-config  print the effective configuration as JSON (secrets masked) and exit',
    '  -h, --help          print this help and exit',
    ...own,
    '',
    `Every key can also be set by an environment variable: ${envPrefix} + the key path upper-cased`,
    `with dots turned into underscores, such as ${envPrefix}LOG_LEVEL=debug. Lists, maps and objects are JSON.`,
    'Precedence: environment over file over defaults. Reference: docs/configuration.md.',
    '',
  ].join('\n');
}
