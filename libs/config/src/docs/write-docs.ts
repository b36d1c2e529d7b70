import { writeFileSync } from 'node:fs';
import { CONFIG_DOCS_PATH } from './paths.js';
import { renderConfigDocs } from './render.js';

writeFileSync(CONFIG_DOCS_PATH, renderConfigDocs());
process.stdout.write(`wrote ${CONFIG_DOCS_PATH}\n`);
