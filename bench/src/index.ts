// The benches are the top-level files of this directory (scripts/run-bench.mjs runs each
// compiled bench/dist/<name>.js in its own process and collects its RESULT line):
//   check-grpc, path-normalize, preview-cost, selectors-alloc, shared-port, tap-overhead,
//   policy-apply     apply → first enforcement on two agents (p50, p99 over 50 applies)
//   policy-accuracy  rate-limit admitted ÷ allowed at 5× the limit, one agent
//   policy-overhead  Check throughput with 10 policies on the control point ÷ none
//   telemetry-overhead  Check throughput with remote write on ÷ off; the agent's RSS with it on
// servers/ and support/ hold their helpers.
export {};
