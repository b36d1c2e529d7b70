import { fileURLToPath } from 'node:url';

/** docs/configuration.md of the repository (this file lives in libs/config/{src,dist}/docs). */
export const CONFIG_DOCS_PATH = fileURLToPath(new URL('../../../../docs/configuration.md', import.meta.url));
