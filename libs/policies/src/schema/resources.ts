import { Type, type Static } from '@sinclair/typebox';
import { bool, ignored, ignoredList, int, list, map, num, obj, str, unsupported } from './fields.js';
import { Selectors } from './selector.js';
import { CLASSIFIER_FIXED_ATTRIBUTE_PATHS, CLASSIFIER_HEADER_PATH_PREFIX } from '../components/classifier-rule.js';

/** The attribute paths a classifier rule may read, for the docs (the controller refuses others, as the agent would). */
const ATTRIBUTE_PATHS = [...CLASSIFIER_FIXED_ATTRIBUTE_PATHS, `${CLASSIFIER_HEADER_PATH_PREFIX}<name>`].map((p) => `\`${p}\``).join(', ');

export const DEFAULT_FLUX_METER_BUCKETS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];
export const MAX_FLUX_METER_BUCKETS = 1000;

const count = () => int(`The number of buckets (1..${MAX_FLUX_METER_BUCKETS}).`, { minimum: 1, maximum: MAX_FLUX_METER_BUCKETS });

export const FluxMeter = obj(
  {
    selectors: Selectors,
    attribute_key: Type.Optional(str('The flow attribute measured, in milliseconds.', { default: 'workload_duration_ms', minLength: 1 })),
    static_buckets: Type.Optional(
      obj(
        {
          buckets: Type.Optional(
            Type.Array(Type.Number(), {
              description: 'Upper bounds, strictly increasing.',
              default: DEFAULT_FLUX_METER_BUCKETS,
              minItems: 1,
              maxItems: MAX_FLUX_METER_BUCKETS,
            }),
          ),
        },
        'Explicit bucket bounds (the default when no bucket member is set).',
      ),
    ),
    linear_buckets: Type.Optional(
      obj(
        { start: num('The first upper bound.'), width: num('The distance between bounds (> 0).', { exclusiveMinimum: 0 }), count: count() },
        '`count` bounds: start, start + width, …',
      ),
    ),
    exponential_buckets: Type.Optional(
      obj(
        {
          start: num('The first upper bound (> 0).', { exclusiveMinimum: 0 }),
          factor: num('The ratio between bounds (> 1).', { exclusiveMinimum: 1 }),
          count: count(),
        },
        '`count` bounds: start, start × factor, …',
      ),
    ),
    exponential_buckets_range: Type.Optional(
      obj(
        { min: num('The first bound (> 0).', { exclusiveMinimum: 0 }), max: num('The last bound (> min).'), count: count() },
        '`count` bounds spread exponentially from min to max.',
      ),
    ),
  },
  'Times the flows it selects into the `flux_meter` histogram on the agents. At most one of the bucket members.',
);
export type FluxMeter = Static<typeof FluxMeter>;

export const JsonExtractor = obj(
  {
    from: str('The attribute path holding the JSON text, e.g. `request.http.body` (the paths of `from`).', { minLength: 1 }),
    pointer: Type.Optional(str('A JSON pointer (RFC 6901) into it, e.g. `/user/tier`; empty is the whole document.', { default: '' })),
  },
  'Parse an attribute as JSON and take the value at a pointer.',
);

export const AddressExtractor = obj(
  {
    from: str('`source.address` or `destination.address`.', { minLength: 1 }),
  },
  'The address as one string, `<ip>:<port>` (the port from `source.port` / `destination.port`); absent when either is. Beware: many distinct values.',
);

export const JwtExtractor = obj(
  {
    from: str('The attribute path holding the JWT, most likely `request.http.bearer` (the token of an `Authorization: Bearer` header).', { minLength: 1 }),
    json_pointer: Type.Optional(str('A JSON pointer (RFC 6901) into the payload, e.g. `/user/email`; empty is the whole payload.', { default: '' })),
  },
  'Decode the JWT an attribute holds and take a value of its payload. The signature is not verified (something else must); a value that is not a JWT, or a pointer that leads to nothing or to an object, leaves the label absent.',
);

export const PathTemplates = obj(
  {
    template_values: map(
      str('The label value when the template matches.', { minLength: 1 }),
      'Label values by path template (at least one): `/foo` matches a segment exactly, `/{param}` or `/{}` any one segment, a trailing `/*` any further segments (0 or more); parameters after the static segments, `*` last; empty segments and the query are ignored. The most specific template wins (more static segments, then more parameters, then no `*`).',
    ),
  },
  'The value of the template `request.http.path` matches; absent when none does.',
);

export const Extractor = obj(
  {
    from: Type.Optional(str(`An attribute path: ${ATTRIBUTE_PATHS}.`, { minLength: 1 })),
    json: Type.Optional(JsonExtractor),
    address: Type.Optional(AddressExtractor),
    jwt: Type.Optional(JwtExtractor),
    path_templates: Type.Optional(PathTemplates),
  },
  'Where the label value comes from: exactly one member.',
  { minProperties: 1, maxProperties: 1 },
);

export const Rule = obj(
  {
    extractor: Extractor,
    telemetry: Type.Optional(bool('False: the label still reaches the flow (limiters, selectors) but stays out of the `baggage` header the agent sets on the request and out of telemetry.', true)),
  },
  'How one flow label is set.',
);

export const Classifier = obj(
  {
    selectors: Selectors,
    rules: Type.Optional(map(Rule, 'Rules by the flow label they set (at least one).')),
    rego: Type.Optional(unsupported('Rego classification is not supported by Sluice.')),
  },
  'Sets flow labels from the request before limiters run; its labels are visible to the preview of labels and to limiters.',
);
export type Classifier = Static<typeof Classifier>;

export const FlowControlResources = obj(
  {
    classifiers: Type.Optional(list(Classifier, 'Classifiers.')),
    flux_meters: Type.Optional(map(FluxMeter, 'Flux meters by name (the `flux_meter_name` label; may hold `/`, as in `load-ramping/average_latency/0`).', '^.+$')),
  },
  'Flow-control resources.',
);

export const Resources = obj(
  {
    flow_control: Type.Optional(FlowControlResources),
    infra_meters: Type.Optional(ignored('Aperture OpenTelemetry collector pipelines: accepted and ignored.')),
    telemetry_collectors: Type.Optional(ignoredList('Aperture telemetry collectors: accepted and ignored.')),
  },
  'Resources of the policy.',
);
