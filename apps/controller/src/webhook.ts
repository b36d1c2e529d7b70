import type { InjectorConfig } from '@sluice/config';
import type { PolicyCheckResult } from '@sluice/controller';
import { AdmissionWebhook, PolicyValidationWebhook, admissionRoute, injectOptionsOf } from '@sluice/kube/light';
import type { ProcessRuntime } from '@sluice/runtime';
import type { Logger } from '@sluice/telemetry/logger';

/** The path of the Policy validating webhook (the controller chart's ValidatingWebhookConfiguration sends Policies there). */
export const POLICY_VALIDATION_PATH = '/v1/admission/validate/policy';

/**
 * The admission webhooks on the controller's server (TLS from `server.tls`):
 * - sidecar injection: `POST /v1/admission/inject` for pods annotated `sluice.dev/inject: "true"` and
 *   `POST /v1/admission/inject/namespace` for pods of namespaces labelled `sluice.dev/inject=enabled`
 *   (what is injected is the `injector` configuration, checked with the rest of it before start-up);
 * - Policy validation: `POST /v1/admission/validate/policy`, the policy API's compiler on each Policy created or updated.
 */
export function installAdmissionWebhooks(runtime: ProcessRuntime, injector: InjectorConfig, controllerTls: boolean, check: (name: string, spec: unknown, dynamicConfig?: unknown) => PolicyCheckResult, logger: Logger): void {
  // Injected agents dial injector.controller_address for agent functions, over TLS when this controller serves it.
  const inject = new AdmissionWebhook({ inject: injectOptionsOf(injector, { tls: controllerTls }), registry: runtime.registry, logger });
  const validate = new PolicyValidationWebhook({ check, registry: runtime.registry, logger });
  const routes = [
    ['/v1/admission/inject', admissionRoute(inject.handler(false))],
    ['/v1/admission/inject/namespace', admissionRoute(inject.handler(true))],
    [POLICY_VALIDATION_PATH, admissionRoute(validate)],
  ] as const;
  for (const [path, route] of routes) {
    // The API server presents no bearer token: the webhooks are authenticated by client certificate
    // (`server.tls.client_ca_file`), never by `server.auth` (docs/security.md).
    runtime.server.openPath(path);
    runtime.server.app.post(path, route);
  }
}
