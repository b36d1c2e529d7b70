// Loaded with `node --import` into a Sluice process under test: refuses to load
// @kubernetes/client-node's index, so a process that loads it where nothing uses Kubernetes fails
// to start (its ApiException module alone, which loads nothing else, stays allowed).
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (/@kubernetes\\/client-node\\/dist\\/index\\.js$/.test(r.url)) throw new Error('refused: @kubernetes/client-node loaded (' + r.url + ')');
  return r;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
