import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode, errorCatalogue, errorCodeEntry } from './codes.js';
import { renderErrorsDoc } from './docs/render.js';
import { GrpcCode } from './grpc-code.js';
import { SluiceError } from './sluice-error.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

test('ErrorCode names each catalogue code with its prefix', () => {
  assert.equal(ErrorCode.INVALID_POLICY, 'SLUICE_ERR_INVALID_POLICY');
  assert.equal(errorCatalogue.length, Object.keys(ErrorCode).length);
  for (const entry of errorCatalogue) assert.equal(errorCodeEntry(entry.code), entry);
  assert.equal(errorCodeEntry('SLUICE_ERR_NO_SUCH_THING'), undefined);
});

test('a SluiceError takes its gRPC status from the catalogue unless told otherwise', () => {
  assert.equal(new SluiceError(ErrorCode.TOO_MANY_PREVIEWS, 'busy').grpcCode, GrpcCode.RESOURCE_EXHAUSTED);
  assert.equal(new SluiceError(ErrorCode.TOO_MANY_PREVIEWS, 'busy').httpStatus, 429);
  assert.equal(new SluiceError(ErrorCode.TOO_MANY_PREVIEWS, 'busy', { grpcCode: GrpcCode.UNAVAILABLE }).grpcCode, GrpcCode.UNAVAILABLE);
});

test('docs/errors.md is what the catalogue renders (run make docs when this fails)', () => {
  assert.equal(readFileSync(join(root, 'docs', 'errors.md'), 'utf8'), renderErrorsDoc());
});

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name === 'generated') continue;
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

test('no source outside the catalogue writes an error code as a string, and every code named exists', () => {
  const known = new Set(errorCatalogue.map((e) => e.code as string));
  const offenders: string[] = [];
  for (const top of ['libs', 'apps']) {
    for (const pkg of readdirSync(join(root, top))) {
      const src = join(root, top, pkg, 'src');
      if (!statSync(join(root, top, pkg)).isDirectory()) continue;
      let files: string[];
      try { files = sources(src); } catch { continue; }
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/['"`](SLUICE_ERR_[A-Z_]+)['"`]/g)) offenders.push(`${file.slice(root.length)}: ${m[1]}`);
        for (const m of text.matchAll(/ErrorCode\.([A-Z_]+)/g)) {
          if (!known.has(`SLUICE_ERR_${m[1]}`)) offenders.push(`${file.slice(root.length)}: ErrorCode.${m[1]} is not in the catalogue`);
        }
      }
    }
  }
  assert.deepEqual(offenders.filter((o) => !o.startsWith('libs/errors/src/codes.ts')), []);
});
