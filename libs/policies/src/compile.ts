import { compileLabelMatcher } from '@sluice/selectors';
import { parseDuration } from '@sluice/config';
import { COMPONENT_KINDS } from './components/index.js';
import { signal, type ComponentKind, type KindContext, type PortBounds, type SignalValue } from './components/kind.js';
import { createCircuit, type Circuit, type CircuitNode } from './circuit.js';
import { schemaProblems } from './ajv.js';
import { orderGraph, type GraphNode } from './graph.js';
import { specHash } from './hash.js';
import { findMarked } from './markers.js';
import { isJsonObject, memberPath, tooDeep } from './path.js';
import { POLICY_SPEC_MAX_DEPTH, policyNameProblem } from './limits.js';
import { PolicyCompileError, type PolicyProblem } from './problems.js';
import type { PublishedComponent, PublishedSelector } from './published.js';
import { constantValue, type InPort } from './schema/ports.js';
import { DEFAULT_EVALUATION_INTERVAL, PolicySpecSchema, type PolicySpec } from './schema/policy.js';
import { normaliseNumbers } from './numbers.js';
import type { DynamicConfigKey } from './dynamic-config.js';
import type { Selector } from './schema/selector.js';
import { compileResources } from './resources.js';
import { flattenCircuit } from './nested.js';

export interface CompiledPolicy {
  name: string;
  /** SHA-256 of the spec's canonical JSON. */
  hash: string;
  /** The spec as given. */
  spec: unknown;
  evaluationIntervalMs: number;
  /** What the agents enforce: one entry per component and agent group. */
  components: PublishedComponent[];
  /** The PromQL queries the controller runs; `id` is the component id the circuit reads the result by. */
  promql: { id: string; query: string; evaluationIntervalMs: number }[];
  /** Signal names of the variable components (settable through the API). */
  variables: string[];
  /** The dynamic-configuration keys its components read, and where each value goes. */
  configKeys: DynamicConfigKey[];
  /** JSON paths of inert Aperture parts accepted and ignored, e.g. `spec.resources.infra_meters`. */
  ignored: string[];
  /** A fresh circuit (its own component state). */
  createCircuit(): Circuit;
}

/** Deeper specs are refused before anything recurses into them (label filters stop at 32 levels themselves). */


/** The kind a component object names, and the value under its path. */
function kindOf(component: Record<string, unknown>): { kind: ComponentKind; spec: unknown; key: string } | undefined {
  for (const kind of COMPONENT_KINDS) {
    let value: unknown = component;
    for (const segment of kind.path) value = isJsonObject(value) && Object.hasOwn(value, segment) ? value[segment] : undefined;
    if (value !== undefined) return { kind, spec: value, key: kind.path.join('.') };
  }
  return undefined;
}

function labelMatcherProblem(err: unknown, path: string): PolicyProblem {
  const field = (err as { field?: unknown }).field;
  const at = typeof field === 'string' && field !== '' ? field : path;
  const message = err instanceof Error ? err.message : String(err);
  return { path: at, message: message.startsWith(`${at}: `) ? message.slice(at.length + 2) : message };
}

/** Everything that fails in a policy spec (empty when it compiles); never throws. */
export function validatePolicy(spec: unknown): PolicyProblem[] {
  return compileParts('policy', spec).problems;
}

/** Compile a policy, or throw PolicyCompileError with every problem found. */
export function compilePolicy(name: string, spec: unknown): CompiledPolicy {
  const { problems, compiled } = compileParts(name, spec);
  if (compiled === undefined || problems.length > 0) throw new PolicyCompileError(name, problems);
  return compiled;
}

/** A component of a policy's circuit as a graph node: its kind (`flow_control.rate_limiter`), the signals it reads and writes. */
export interface PolicyGraphNode extends GraphNode {
  kind: string;
}

/**
 * The circuit of a policy spec as a graph (components, the signals between them) with every problem
 * the compiler finds, dangling signals included; nodes are there as far as the spec could be read.
 */
export function policyGraph(name: string, spec: unknown): { nodes: PolicyGraphNode[]; problems: PolicyProblem[] } {
  const { problems, graph } = compileParts(name, spec);
  return { nodes: graph ?? [], problems };
}

function compileParts(name: string, spec: unknown): { problems: PolicyProblem[]; compiled?: CompiledPolicy; graph?: PolicyGraphNode[] } {
  const problems: PolicyProblem[] = [];
  const nameProblem = policyNameProblem(name);
  if (nameProblem !== undefined) problems.push({ path: 'name', message: nameProblem });
  if (!isJsonObject(spec)) {
    problems.push({ path: 'spec', message: `a policy spec must be an object, got ${spec === null ? 'null' : Array.isArray(spec) ? 'array' : typeof spec}` });
    return { problems };
  }
  const deep = tooDeep(spec, 'spec', POLICY_SPEC_MAX_DEPTH);
  if (deep !== undefined) {
    problems.push({ path: deep, message: `nested more than ${POLICY_SPEC_MAX_DEPTH} levels deep` });
    return { problems };
  }
  const marked = findMarked(spec);
  problems.push(...marked.unsupported);
  // Numbers written as proto3 JSON strings (`priority: "50"`) become numbers before anything reads them.
  const numbers = normaliseNumbers(spec, PolicySpecSchema, 'spec');
  problems.push(...numbers.problems);
  const badNumbers = new Set(numbers.problems.map((p) => p.path));
  const shape = schemaProblems(numbers.value).filter((p) => !badNumbers.has(p.path));
  // An unsupported member also breaks "exactly one member" rules nowhere, so both lists are independent.
  problems.push(...shape);
  if (shape.length > 0 || marked.unsupported.length > 0 || numbers.problems.length > 0) return { problems };

  const policy = numbers.value as PolicySpec;
  // The spec as written: the same policy posted again hashes the same.
  const hash = specHash(spec);
  const components: PublishedComponent[] = [];
  const promql: CompiledPolicy['promql'] = [];
  const variables: string[] = [];
  const configKeys: DynamicConfigKey[] = [];
  const graph: PolicyGraphNode[] = [];
  const runtimeNodes: CircuitNode[] = [];

  const checkSelectors = (selectors: readonly Selector[], path: string): Map<string, PublishedSelector[]> => {
    const byGroup = new Map<string, PublishedSelector[]>();
    selectors.forEach((s, i) => {
      const at = `${path}[${i}]`;
      if (s.label_matcher !== undefined) {
        try {
          compileLabelMatcher(s.label_matcher, `${at}.label_matcher`);
        } catch (err) {
          problems.push(labelMatcherProblem(err, `${at}.label_matcher`));
        }
      }
      const group = s.agent_group ?? 'default';
      const published: PublishedSelector = { control_point: s.control_point, service: s.service ?? 'any', agent_group: group };
      if (s.label_matcher !== undefined) published.label_matcher = s.label_matcher;
      let list = byGroup.get(group);
      if (list === undefined) byGroup.set(group, (list = []));
      list.push(published);
    });
    return byGroup;
  };

  const evaluationIntervalMs = parseDuration(policy.circuit?.evaluation_interval ?? DEFAULT_EVALUATION_INTERVAL);
  const ignored = [...marked.ignored];
  // Nested circuits are inlined: their components follow them, with ids and signals of their own.
  const before = problems.length;
  const flat = flattenCircuit(policy.circuit?.components ?? [], problems, ignored);
  if (problems.length > before) return { problems };
  flat.forEach(({ component, id: componentId, path: componentPath, nestedPorts }) => {
    const found = kindOf(component);
    if (found === undefined) return; // an ignored component (alerter)
    const path = found.kind.path.reduce((p, s) => memberPath(p, s), componentPath);
    const graphNode: PolicyGraphNode & { inputs: GraphNode['inputs'][number][]; outputs: { path: string; signal: string }[] } = {
      id: componentId,
      kind: found.key,
      path,
      inputs: [],
      outputs: [],
      ...(found.kind.delaysOutputs === true ? { delaysOutputs: true } : {}),
      ...(found.kind.keepsState === true ? { keepsState: true } : {}),
    };
    const runtimeInputs: ({ signal: string } | { constant: SignalValue })[] = [];
    const runtimeOutputs: (string | undefined)[] = [];
    const ctx: KindContext = {
      policyName: name,
      policyHash: hash,
      componentId,
      path,
      problem: (p, message) => problems.push({ path: p, message }),
      input(port: InPort | undefined, portPath: string, bounds: PortBounds = {}) {
        if (port === undefined) {
          runtimeInputs.push({ constant: null });
          return;
        }
        if (port.signal_name !== undefined) {
          graphNode.inputs.push({ path: `${portPath}.signal_name`, signal: port.signal_name });
          runtimeInputs.push({ signal: port.signal_name });
          return;
        }
        const value = constantValue(port.constant_signal ?? {});
        const at = `${portPath}.constant_signal.${port.constant_signal?.value !== undefined ? 'value' : 'special_value'}`;
        if (bounds.finite === true && !Number.isFinite(value)) problems.push({ path: at, message: `must be a finite number, not ${String(value)}` });
        else if (bounds.minimum !== undefined && value < bounds.minimum) problems.push({ path: at, message: `${value} is below the minimum ${bounds.minimum}` });
        else if (bounds.maximum !== undefined && value > bounds.maximum) problems.push({ path: at, message: `${value} is above the maximum ${bounds.maximum}` });
        runtimeInputs.push({ constant: signal(value) });
      },
      output(port, portPath) {
        if (port === undefined) {
          runtimeOutputs.push(undefined);
          return;
        }
        graphNode.outputs.push({ path: `${portPath}.signal_name`, signal: port.signal_name });
        runtimeOutputs.push(port.signal_name);
      },
      selectors: checkSelectors,
      durationMs: (text, fallback) => parseDuration(text ?? fallback),
      publish: (c) => components.push(c),
      promql: (query, evaluationIntervalMs) => promql.push({ id: componentId, query, evaluationIntervalMs }),
      variable: (signalName) => variables.push(signalName),
      evaluationIntervalMs,
      ...(nestedPorts === undefined ? {} : { nestedPorts }),
      configKey(key, keyPath, type, target) {
        if (key === undefined || key === '') return;
        const other = configKeys.find((k) => k.key === key && k.type !== type);
        if (other !== undefined) problems.push({ path: keyPath, message: `key ${JSON.stringify(key)} holds ${type === 'string_list' ? 'a list of strings' : `a ${type}`} here but ${other.type === 'string_list' ? 'a list of strings' : `a ${other.type}`} at ${other.path}` });
        configKeys.push({ key, type, path: keyPath, target });
      },
    };
    const compiled = found.kind.compile(found.spec, ctx);
    graph.push(graphNode);
    runtimeNodes.push({ id: componentId, inputs: runtimeInputs, outputs: runtimeOutputs, compiled, ...(found.kind.delaysOutputs === true ? { delaysOutputs: true } : {}) });
  });

  components.push(...compileResources(policy, name, hash, checkSelectors, problems));

  const { order, late, problems: graphProblems } = orderGraph(graph);
  problems.push(...graphProblems);
  if (problems.length > 0) return { problems, graph };

  // Inputs that close a loop read the previous tick's value.
  for (const [node, signals] of late) {
    const n = runtimeNodes[node];
    runtimeNodes[node] = { ...n, inputs: n.inputs.map((input) => ('signal' in input && signals.has(input.signal) ? { ...input, late: true } : input)) };
  }
  const ordered = order.map((i) => runtimeNodes[i]);
  return {
    problems,
    graph,
    compiled: {
      name,
      hash,
      spec,
      evaluationIntervalMs,
      components,
      promql,
      variables,
      configKeys,
      ignored,
      createCircuit: () => createCircuit(ordered),
    },
  };
}
