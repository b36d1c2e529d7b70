import type { CheckHTTPRequest__Output, CheckHTTPStreamRequest__Output, HttpRequest__Output, SocketAddress__Output } from '@sluice/proto';

/*
 * The CheckHTTP messages under the names the tap has used, all from the
 * types generated from checkhttp.proto (@sluice/proto, `make proto`).
 * Answers the tap reads are the decoded (`__Output`) types; what it and its
 * test agent build are the input types.
 */
export type {
  HttpRequest__Output as HttpRequestAttributes, SocketAddress__Output as SocketAddress, HeaderValue__Output as HeaderValue,
  Duration__Output as GoogleDuration, CheckHTTPResponse, CheckHTTPStreamResponse,
} from '@sluice/proto';

/** A CheckHTTPRequest with every member set: what the tap sends (checkRequestOf) and an agent decodes from it. */
export type CheckHTTPRequest = CheckHTTPRequest__Output & {
  source: SocketAddress__Output;
  destination: SocketAddress__Output;
  request: HttpRequest__Output;
};

/** A CheckHTTPStreamRequest carrying such a request. */
export type CheckHTTPStreamRequest = CheckHTTPStreamRequest__Output & { request: CheckHTTPRequest };
