// The benches are the top-level files of this directory (scripts/run-bench.mjs runs each
// compiled bench/dist/<name>.js in its own process and collects its RESULT line):
//   check-grpc, path-normalize, preview-cost, selectors-alloc, shared-port, tap-overhead,
//   tap-h2-overhead  gRPC unary calls/s through the tap (h2c both ways) ÷ a bare node:http2 proxy
//   policy-apply     apply → first enforcement on two agents (p50, p99 over 50 applies)
//   policy-accuracy  rate-limit admitted ÷ allowed at 5× the limit, one agent
//   policy-overhead  Check throughput with 10 policies on the control point ÷ none
//   quota-decide     in process: CPU per check with 10 rate limiters ÷ with 7 rate limiters and 3 quota schedulers
//   inproc-tap       the agent serving the tap itself ÷ a bare Node proxy; RSS of it vs agent + separate tap
//   tap-rss          idle RSS of the separate tap (daemonset mode) against a real agent
//   telemetry-overhead  Check throughput with remote write on ÷ off; the agent's RSS with it on
// servers/ and support/ hold their helpers.
export {};
