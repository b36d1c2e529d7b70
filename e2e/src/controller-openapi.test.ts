// docs/api/controller-openapi.yaml against the running controller: every documented operation is
// served, and its answers (successes and errors) have the documented status and shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { startEtcdServer } from '@sluice/etcd/testing';
import { nullableToTypes } from './support/openapi.js';
import { ROOT, startController } from './support/processes.js';

type Obj = Record<string, unknown>;

const doc = nullableToTypes(parse(readFileSync(join(ROOT, 'docs/api/controller-openapi.yaml'), 'utf8')) as never) as unknown as Obj;
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema(doc, 'controller');

const escape = (x: string): string => x.replace(/~/g, '~0').replace(/\//g, '~1');

/** A validator of `method path`'s documented `status` answer (its schema addressed inside the document, so its $refs resolve). */
function validatorOf(path: string, method: string, status: number): ReturnType<Ajv['compile']> {
  const op = ((doc.paths as Obj)[path] as Obj | undefined)?.[method] as Obj | undefined;
  assert.ok(op, `${method.toUpperCase()} ${path} is documented`);
  const res = (op.responses as Obj)[String(status)] as Obj | undefined;
  assert.ok(res, `${method.toUpperCase()} ${path} documents ${status}`);
  const at = typeof res.$ref === 'string' ? res.$ref.slice(1) : `/paths/${escape(path)}/${method}/responses/${status}`;
  return ajv.compile({ $ref: `controller#${at}/content/application~1json/schema` });
}

test('every documented controller route answers as documented', async (t) => {
  const etcd = await startEtcdServer();
  t.after(() => etcd.close());
  const c = await startController(t, {
    env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: JSON.stringify([etcd.endpoint]), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' },
  });
  const policy = {
    circuit: {
      components: [
        { variable: { constant_output: { value: 3 }, config_key: 'capacity', out_ports: { output: { signal_name: 'CAP' } } } },
        { flow_control: { rate_limiter: {
          in_ports: { bucket_capacity: { signal_name: 'CAP' }, fill_amount: { constant_signal: { value: 1 } } },
          parameters: { interval: '1s' }, selectors: [{ control_point: 'ingress' }],
        } } },
        { alerter: { in_ports: { signal: { signal_name: 'CAP' } }, parameters: { alert_name: 'capacity set', labels: { team: 'edge' } } } },
      ],
    },
  };
  const seen = new Set<string>();
  const check = async (method: string, docPath: string, url: string, status: number, body?: unknown): Promise<void> => {
    const r = await fetch(`${c.base}${url}`, { method: method.toUpperCase(), ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    const json = await r.json() as unknown;
    assert.equal(r.status, status, `${method} ${url}: ${JSON.stringify(json)}`);
    const validate = validatorOf(docPath, method, status);
    assert.ok(validate(json), `${method} ${url}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(json)}`);
    seen.add(`${method} ${docPath}`);
  };
  await check('post', '/v1/policies/{name}', '/v1/policies/p', 200, { policy });
  await check('post', '/v1/policies/{name}', '/v1/policies/p', 400, { policy: { circuit: { components: 'x' } } });
  await check('patch', '/v1/policies/{name}', '/v1/policies/p', 200, { policy: { circuit: { evaluation_interval: '2s' } } });
  await check('patch', '/v1/policies/{name}', '/v1/policies/q', 404, { policy: {} });
  await check('get', '/v1/policies/{name}', '/v1/policies/p', 200);
  await check('get', '/v1/policies/{name}', '/v1/policies/q', 404);
  await check('get', '/v1/policies', '/v1/policies', 200);
  await check('post', '/v1/policies/{name}/variables/{signal}', '/v1/policies/p/variables/CAP', 200, { value: 8 });
  await check('post', '/v1/policies/{name}/variables/{signal}', '/v1/policies/p/variables/CAP', 200, { value: '9' });
  assert.equal(((await (await fetch(`${c.base}/v1/policies/p`)).json()) as { signals: Record<string, number> }).signals.CAP, 9, 'a proto3 JSON number string sets the variable');
  await check('post', '/v1/policies/{name}/variables/{signal}', '/v1/policies/p/variables/NONE', 404, { value: 8 });
  await check('post', '/v1/policies/{name}/variables/{signal}', '/v1/policies/p/variables/CAP', 400, { value: 'high' });
  await check('get', '/v1/alerts', '/v1/alerts', 200);
  await check('post', '/v1/whatif', '/v1/whatif', 400, { policy: { circuit: { components: 'x' } }, control_point: 'ingress' });
  await check('post', '/v1/whatif', '/v1/whatif', 404, { policy, control_point: 'ingress' });
  const dyn = '/v1/dynamic-configs/{name}';
  await check('get', dyn, '/v1/dynamic-configs/p', 404);
  await check('post', dyn, '/v1/dynamic-configs/p', 400, { dynamic_config: { capacty: 2 } });
  await check('post', dyn, '/v1/dynamic-configs/q', 404, { dynamic_config: {} });
  await check('delete', dyn, '/v1/dynamic-configs/p', 404);
  await check('post', dyn, '/v1/dynamic-configs/p', 200, { dynamic_config: { capacity: '5' } });
  await check('get', dyn, '/v1/dynamic-configs/p', 200);
  await check('delete', dyn, '/v1/dynamic-configs/p', 200);
  await check('get', '/v1/decisions/{type}', '/v1/decisions/rate_limiter', 200);
  await check('get', '/v1/decisions/{type}', '/v1/decisions/other', 400);
  await check('delete', '/v1/policies/{name}', '/v1/policies/p', 200);
  await check('delete', '/v1/policies/{name}', '/v1/policies/p', 404);
  const documented = Object.entries(doc.paths as Obj).flatMap(([p, item]) => Object.keys(item as Obj).filter((m) => m !== 'parameters').map((m) => `${m} ${p}`));
  assert.deepEqual([...seen].sort(), documented.sort(), 'every documented operation was exercised');
});
