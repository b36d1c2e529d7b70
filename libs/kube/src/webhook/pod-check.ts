// The rules of core/v1 Pod (as the API server validates them) for the fields the injection
// touches: a JSON Schema (checked with ajv by the tests) and the cross-field rules a schema cannot
// say. The test API server serves no schemas, so the tests check injected pods against these.

const IANA_SVC_NAME = '^(?=.{1,15}$)(?=.*[a-z])[a-z0-9]+(-[a-z0-9]+)*$';
const DNS_LABEL = '^(?=.{1,63}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const PORT = { type: 'integer', minimum: 1, maximum: 65535 };
const PORT_OR_NAME = { anyOf: [PORT, { type: 'string', pattern: IANA_SVC_NAME }] };
const PROBE = {
  type: 'object',
  properties: {
    httpGet: { type: 'object', required: ['port'], properties: { port: PORT_OR_NAME, path: { type: 'string' } } },
    tcpSocket: { type: 'object', required: ['port'], properties: { port: PORT_OR_NAME } },
    grpc: { type: 'object', required: ['port'], properties: { port: PORT } },
    periodSeconds: { type: 'integer', minimum: 1 },
    failureThreshold: { type: 'integer', minimum: 1 },
  },
};
const CONTAINER = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', pattern: DNS_LABEL },
    image: { type: 'string', minLength: 1 },
    imagePullPolicy: { enum: ['Always', 'IfNotPresent', 'Never'] },
    args: { type: 'array', items: { type: 'string' } },
    command: { type: 'array', items: { type: 'string' } },
    ports: {
      type: 'array',
      items: {
        type: 'object',
        required: ['containerPort'],
        properties: { name: { type: 'string', pattern: IANA_SVC_NAME }, containerPort: PORT, protocol: { enum: ['TCP', 'UDP', 'SCTP'] } },
      },
    },
    env: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', pattern: '^[-._a-zA-Z][-._a-zA-Z0-9]*$' },
          value: { type: 'string' },
          valueFrom: { type: 'object', properties: { fieldRef: { type: 'object', required: ['fieldPath'], properties: { fieldPath: { type: 'string' } } } } },
        },
      },
    },
    volumeMounts: { type: 'array', items: { type: 'object', required: ['name', 'mountPath'], properties: { name: { type: 'string' }, mountPath: { type: 'string' }, readOnly: { type: 'boolean' } } } },
    livenessProbe: PROBE,
    readinessProbe: PROBE,
    startupProbe: PROBE,
  },
};

/** A JSON Schema (draft 2020-12 subset ajv reads) of a Pod's touched fields. */
export const POD_SCHEMA = {
  type: 'object',
  required: ['spec'],
  properties: {
    metadata: { type: 'object', properties: { annotations: { type: 'object', additionalProperties: { type: 'string' } } } },
    spec: {
      type: 'object',
      required: ['containers'],
      properties: {
        containers: { type: 'array', minItems: 1, items: CONTAINER },
        initContainers: { type: 'array', items: CONTAINER },
        volumes: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern: DNS_LABEL } } } },
      },
    },
  },
} as const;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);

/** Cross-field rules: unique container names, unique port names and numbers, mounts of declared volumes, named probe ports declared in their container. */
export function podCrossFieldProblems(pod: unknown): string[] {
  const out: string[] = [];
  const spec = isObj(pod) && isObj(pod.spec) ? pod.spec : {};
  const containers = [...list(spec.containers), ...list(spec.initContainers)];
  const names = new Set<string>();
  const volumes = new Set(list(spec.volumes).map((v) => String(v.name)));
  const numbers = new Set<number>();
  for (const c of containers) {
    const name = String(c.name);
    if (names.has(name)) out.push(`container name ${name} is used twice`);
    names.add(name);
    const portNames = new Set<string>();
    for (const p of list(c.ports)) {
      if (typeof p.name === 'string') {
        if (portNames.has(p.name)) out.push(`${name}: port name ${p.name} is used twice`);
        portNames.add(p.name);
      }
      if (typeof p.containerPort === 'number') {
        if (numbers.has(p.containerPort)) out.push(`${name}: port ${p.containerPort} is declared twice in the pod`);
        numbers.add(p.containerPort);
      }
    }
    for (const m of list(c.volumeMounts)) if (!volumes.has(String(m.name))) out.push(`${name}: mounts undeclared volume ${String(m.name)}`);
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      const pr = c[probe];
      if (!isObj(pr)) continue;
      for (const h of ['httpGet', 'tcpSocket']) {
        const port = isObj(pr[h]) ? (pr[h] as Obj).port : undefined;
        if (typeof port === 'string' && !portNames.has(port)) out.push(`${name}: ${probe} names port ${port}, which the container does not declare`);
      }
    }
  }
  return out;
}
