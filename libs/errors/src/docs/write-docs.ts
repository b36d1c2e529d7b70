import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderErrorsDoc } from './render.js';

const target = fileURLToPath(new URL('../../../../docs/errors.md', import.meta.url));
writeFileSync(target, renderErrorsDoc());
console.log(`wrote ${target}`);
