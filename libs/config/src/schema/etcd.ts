import { Type } from '@sinclair/typebox';
import { duration, secret, str } from './fields.js';
import { ClientTLSConfigSchema } from './clients.js';

export const EtcdConfigSchema = Type.Object({
  endpoints: Type.Array(Type.String({ format: 'url|hostname_port' }), {
    default: [],
    description: 'etcd endpoints, such as http://127.0.0.1:2379 (JSON list in the env variable); required by both processes.',
    'x-spec-type': '[]string',
    'x-required': true,
  }),
  lease_ttl: duration('60s', 'Time-to-live of the lease that keys going with this process live on (an agent\'s peer and report keys); the configurations and decisions the controller publishes are on no lease.'),
  namespace: str('sluice', 'Prefix of every key this process reads or writes in etcd.'),
  username: str('', 'etcd user name.'),
  password: secret('etcd password.'),
  tls: ClientTLSConfigSchema,
}, { additionalProperties: false });

