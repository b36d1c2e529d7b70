// Loaded with `node --import` into the separate tap under test: refuses to load what the tap does
// not use and would hold in memory from start (tens of MB of RSS): the gRPC library (checks and
// flow ends go on the tap's own HTTP/2 connection), the configuration schema with its validator
// and YAML parser (the tap takes flags), and the index of @sluice/clients (which loads both).
import { register } from 'node:module';

const hooks = `
const REFUSED = /(node_modules\\/(@grpc\\/grpc-js|ajv|yaml|@sinclair\\/typebox)\\/|libs\\/(config|clients)\\/dist\\/index\\.js$)/;
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (REFUSED.test(r.url)) throw new Error('refused: ' + r.url + ' loaded');
  return r;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
