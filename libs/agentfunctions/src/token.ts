import { readFileSync } from 'node:fs';

/** A token file the agent cannot use: a configuration problem (exit 2). */
export class AgentFunctionsTokenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentFunctionsTokenError';
  }
}

/** The first line of a token file that is not empty or a `#` comment, trimmed; undefined when none. */
export function tokenOfFile(text: string): string | undefined {
  return text.split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('#'));
}

/**
 * The bearer token of the agent's agent functions streams (`agent_functions.token_file`, else
 * `agent_functions.token`), as a function read at each connection: a rewritten file (a rotated
 * Kubernetes Secret) is used from the next connection on. The file must hold a token at start;
 * later, an unreadable file keeps the last token read.
 */
export function agentFunctionsToken(config: { token_file: string; token: string }): (() => string | undefined) | undefined {
  const { token_file: file, token } = config;
  if (file === '') return token === '' ? undefined : () => token;
  const read = (): string | undefined => tokenOfFile(readFileSync(file, 'utf8'));
  let last: string | undefined;
  try {
    last = read();
  } catch (err) {
    throw new AgentFunctionsTokenError(`agent_functions.token_file ${JSON.stringify(file)} cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  if (last === undefined) throw new AgentFunctionsTokenError(`agent_functions.token_file ${JSON.stringify(file)} holds no token`);
  return () => {
    try {
      last = read() ?? last;
    } catch {
      // Keep the last token: a Secret volume is briefly absent while it is updated.
    }
    return last;
  };
}
