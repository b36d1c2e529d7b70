import { GrpcCode, SluiceError, ErrorCode } from '@sluice/errors';

/** The kinds of configuration problems. */
export type ConfigRule =
  | 'unknown-key' | 'unknown-env' | 'type' | 'minimum' | 'maximum' | 'enum' | 'format' | 'duration'
  | 'increasing' | 'required' | 'pattern' | 'json' | 'yaml' | 'file' | 'cli' | 'invalid';

/** One thing wrong with the configuration. */
export interface ConfigProblem {
  /** Key path such as `server.listener.addr` or `log.writers[0].max_age`; `(file)`/`(argv)` for whole-source problems. */
  readonly path: string;
  /** Environment variable of that key, such as `SLUICE_AGENT_SERVER_LISTENER_ADDR`. */
  readonly env: string;
  readonly rule: ConfigRule;
  /** The offending value, when there is one. */
  readonly value?: unknown;
  /** Where the value came from: an env variable, or `file:line:column`. */
  readonly origin?: string;
  /** One line: `<path> (<env>): <what is wrong>`. */
  readonly message: string;
}

/** A value as shown in messages: JSON, cut at 80 characters. */
export { showValue } from '@sluice/schema';

export function problem(p: Omit<ConfigProblem, 'message'>, detail: string): ConfigProblem {
  const where = p.env === '' ? p.path : p.path === '(env)' ? p.env : `${p.path} (${p.env})`;
  let from = '';
  if (p.origin !== undefined && p.origin !== p.env) {
    from = /^[A-Z0-9_]+$/.test(p.origin) ? `; set by ${p.origin}` : `; set in ${p.origin}`;
  }
  return { ...p, message: `${where}: ${detail}${from}` };
}

/** The configuration cannot be used; `problems` lists everything wrong with it. */
export class ConfigError extends SluiceError {
  readonly problems: readonly ConfigProblem[];
  readonly service: string;

  constructor(service: string, problems: readonly ConfigProblem[]) {
    const header = `invalid ${service} configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):`;
    super(ErrorCode.CONFIG, [header, ...problems.map((p) => `  ${p.message}`)].join('\n'), {
      grpcCode: GrpcCode.INVALID_ARGUMENT,
      details: problems.map((p) => ({ path: p.path, env: p.env, rule: p.rule, message: p.message })),
    });
    this.name = 'ConfigError';
    this.service = service;
    this.problems = problems;
  }
}
