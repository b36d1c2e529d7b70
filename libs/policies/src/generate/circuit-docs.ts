/** The hand-written part of docs/policies.md about Aperture's signal parts and loops of signals. */
export const CIRCUIT_PARTS_DOC = `## Signal parts from Aperture

These behave as in Aperture 2.8, tick by tick. Durations of \`sma\`, \`holder\`, \`differentiator\`,
\`pulse_generator\` and \`signal_generator\` are counted in ticks of the circuit, as Aperture counts them:
the duration ÷ \`evaluation_interval\`, rounded up (\`sma_window\` rounded down, at least 1); a policy
that changes its interval changes them. A signal is *true* when valid and non-zero, *false* when 0.

- \`sma\`: the average of the last *window* valid inputs; invalid while fewer have come (unless
  \`valid_during_warmup\`). An invalid input repeats the last valid output, until *window* invalid
  inputs in a row empty the window (invalid, then it fills again).
- \`integrator\`: starts at \`initial_value\`; each tick adds a valid input, then bounds the sum by
  \`max\` and \`min\` when they are valid; a true \`reset\` sets it to 0 instead. An invalid input adds
  nothing; the output is never invalid.
- \`holder\`: takes a valid input and answers it for \`hold_for\`, then takes the next valid one;
  while it holds nothing and the input is invalid, it is invalid. A true \`reset\` drops what it holds
  (the input of that tick is then taken when valid).
- \`differentiator\`: keeps the readings of the last *window* ticks and answers (newest − oldest) ÷
  *window*: a change per tick. An invalid oldest reading is replaced by the next valid one, an
  invalid newest one by extrapolating the two latest valid ones; invalid until it has two readings
  (deprecated in Aperture; kept for the policies that use it).
- \`extrapolator\`: the input when valid; while invalid, the last valid input for up to
  \`max_extrapolation_interval\` after it came, then invalid.
- \`pulse_generator\`: 1 for \`true_for\`, 0 for \`false_for\`, and again, starting with 1. Never invalid.
- \`signal_generator\`: walks through \`steps\` one tick at a time while \`forward\` is true (back while
  \`backward\` is true; neither or both: it stays; a true \`reset\` returns to the start). Within a
  step the output moves linearly from the previous step's target towards the step's own; a special
  target (NaN, ±Inf) holds for its step. At the end it holds the value of the last step's last tick
  (as in Aperture, one tick short of the last target when that step lasts more than one tick).
  \`at_start\` and \`at_end\` are 1 at either end, else 0.
- \`unary_operator\`: one function of Go's math package (\`abs\` … \`y1\`); an invalid input, or a point
  where the function has no value (\`sqrt\` or \`log\` of a negative number), is invalid; ±Inf is valid.
- \`and\`, \`or\`, \`inverter\`: three-valued logic. \`and\` is 0 when any input is false, else invalid
  when any is invalid, else 1; \`or\` is 1 when any input is true, else invalid when any is invalid,
  else 0; \`inverter\` turns true into 0, false into 1, and leaves invalid invalid.
- \`bool_variable\`: 1 or 0 from \`constant_output\` until a value is set through
  \`POST /v1/policies/{name}/variables/{signal}\` by its output signal name (any non-zero value is
  true); \`config_key\` is accepted and unused, as for \`variable\`.
- \`nested_circuit\`: a circuit inside the circuit, inlined in its place. Its components get the ids
  \`<its id>.<index>\` (\`root.3.0\`, \`root.3.1\`, nested ones \`root.3.1.0\`), and their signal names are
  their own: a signal \`X\` inside \`root.3\` is reported as \`root.3/X\`, distinct from an outer \`X\`
  (a variable inside is set by that name, URL-encoded: \`POST /v1/policies/{name}/variables/root.3%2FX\`). The enclosing circuit meets it only through the port maps: a
  \`nested_signal_ingress\` answers the enclosing in-port that \`in_ports_map\` maps its \`port_name\` to,
  a \`nested_signal_egress\` writes the enclosing signal that \`out_ports_map\` maps its own to. Every map
  entry needs an ingress or egress of that name inside, a name belongs to one only, and an ingress or
  egress belongs inside a nested circuit. Its components are checked as the circuit's own, with
  their paths (\`spec.circuit.components[3].nested_circuit.components[0]...\`).

## Loops of signals

A loop (a component reading, through other components or directly, a signal it writes itself) runs
when it passes through a component that keeps state from tick to tick: \`integrator\`, \`holder\`,
\`sma\`, \`ema\`, \`differentiator\`, \`extrapolator\` or \`signal_generator\`. Those are the loops
Aperture's own components build inside their circuits, such as the auto-scaler's cooldowns (a
\`holder\` whose \`reset\` is decided by comparing the input with what it holds), and the usual feedback
of a controller: an \`integrator\` fed a step computed from its own sum (a ramp that slows as it nears
a bound). Such a loop runs as Aperture runs it: in each loop the component earliest in the list
reads the signals its loop partners write from the previous tick (invalid at the first tick),
everything else in the same tick.
A loop through stateless components only (arithmetic, comparisons, switches, logic) is refused: it
asks a tick to depend on its own result, and Aperture's answer, one component a tick late, would
depend on the order of the list. A loop through a pod scaler's reported replicas is no loop at all:
those are known at the start of a tick.
`;
