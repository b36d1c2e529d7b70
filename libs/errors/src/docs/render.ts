import { errorCatalogue } from '../codes.js';
import { httpStatusFromGrpcCode } from '../http-status.js';
import { GrpcCode } from '../grpc-code.js';

const grpcName = new Map<number, string>(Object.entries(GrpcCode).map(([name, value]) => [value, name]));

/** docs/errors.md: every error code with the status it travels with and what it means. */
export function renderErrorsDoc(): string {
  const rows = errorCatalogue.map((e) => {
    const http = /\(HTTP (\d{3})\)/.exec(e.meaning)?.[1] ?? String(httpStatusFromGrpcCode(e.grpc));
    return `| \`${e.code}\` | ${grpcName.get(e.grpc) ?? e.grpc} | ${http} | ${e.meaning} |`;
  });
  return [
    '# Error codes',
    '',
    'Every error Sluice raises on purpose carries one of these codes (`code` in logs, in the CLI\'s messages',
    'and on the error objects of the libraries). A code is stable: match on it, not on the message. Over gRPC',
    'an error travels with its status; over HTTP as the gateway body `{"code","message","details"}`, whose',
    '`code` is the gRPC status number, with the HTTP status beside it. The status below is the code\'s',
    'usual one; where one place raises it with another, the answer says so.',
    '',
    '| code | gRPC status | HTTP status | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
    'This page is generated from `libs/errors/src/codes.ts` (`make docs`); a test fails when it is stale.',
    '',
  ].join('\n');
}
