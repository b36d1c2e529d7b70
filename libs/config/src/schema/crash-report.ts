import { Type } from '@sinclair/typebox';
import { bool, float64, secret, str } from './fields.js';

export const CrashReportConfigSchema = Type.Object({
  attach_stack_trace: bool(true, 'Attaches stack traces to reported messages.'),
  debug: bool(true, 'Prints debug messages of the crash-report client on the console.'),
  disabled: bool(false, 'Turns crash reporting off, whatever dsn says.'),
  dsn: secret('Address (Sentry DSN) crash reports are sent to; empty, the default, means reporting is off.'),
  environment: str('production', 'Environment name attached to reports.'),
  sample_rate: float64(1, 'Fraction of error events reported.', { minimum: 0, maximum: 1 }),
  traces_sample_rate: float64(0.2, 'Fraction of traces reported: each start sends one, the start-up of the process.', { minimum: 0, maximum: 1 }),
}, { additionalProperties: false });
