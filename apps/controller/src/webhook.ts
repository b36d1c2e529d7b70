import type { IncomingMessage } from 'node:http';
import type { InjectorConfig } from '@sluice/config';
import { AdmissionWebhook, MAX_ADMISSION_BYTES, injectOptionsOf, type KubeLogger } from '@sluice/kube/light';
import type { ProcessRuntime } from '@sluice/runtime';

/** Reads a request body up to `limit` bytes; past it resolves with the bytes seen and stops reading. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | number> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        resolve(size);
        req.pause();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * The sidecar injection webhook on the controller's server (TLS from `server.tls`):
 * `POST /v1/admission/inject` for pods annotated `sluice.dev/inject: "true"` and
 * `POST /v1/admission/inject/namespace` for pods of namespaces labelled `sluice.dev/inject=enabled`
 * (the controller chart's MutatingWebhookConfiguration sends each kind of pod to its path).
 * What is injected is the `injector` configuration (checked with the rest of it before start-up).
 */
export function installAdmissionWebhook(runtime: ProcessRuntime, injector: InjectorConfig, logger: KubeLogger): AdmissionWebhook {
  const webhook = new AdmissionWebhook({ inject: injectOptionsOf(injector), registry: runtime.registry, logger });
  for (const [path, namespaceEnabled] of [['/v1/admission/inject', false], ['/v1/admission/inject/namespace', true]] as const) {
    // The API server presents no bearer token: the webhook is authenticated by client certificate
    // (`server.tls.client_ca_file`), never by `server.auth` (docs/security.md).
    runtime.server.openPath(path);
    runtime.server.app.post(path, (req, res, next) => {
      readBody(req, MAX_ADMISSION_BYTES).then((body) => {
        const answer = typeof body === 'number' ? webhook.tooLarge(body) : webhook.review(body, namespaceEnabled);
        // A body left unread closes the connection after the answer.
        if (typeof body === 'number') res.setHeader('connection', 'close');
        res.status(answer.status).json(answer.body);
      }, next);
    });
  }
  return webhook;
}
