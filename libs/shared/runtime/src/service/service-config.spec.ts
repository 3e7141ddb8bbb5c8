import { ConfigError } from '@doable/shared-config';
import { z } from 'zod';
import { loadServiceConfig } from './service-config';

const definition = { name: 'test', defaultPort: 3000, env: z.object({}) };

describe('cluster configuration of NATS', () => {
  it("takes a NATS cluster's servers as a comma list, and one copy of each stream by default", () => {
    const config = loadServiceConfig(definition, { NATS_URL: 'nats://n1:4222,nats://n2:4222,nats://n3:4222' }, 'cluster');
    expect({ url: config.NATS_URL, replicas: config.NATS_REPLICAS }).toEqual({ url: 'nats://n1:4222,nats://n2:4222,nats://n3:4222', replicas: 1 });
  });

  it('reads NATS_REPLICAS up to the 5 copies JetStream keeps', () => {
    expect(loadServiceConfig(definition, { NATS_URL: 'nats://n1:4222', NATS_REPLICAS: '3' }, 'cluster').NATS_REPLICAS).toBe(3);
    expect(() => loadServiceConfig(definition, { NATS_URL: 'nats://n1:4222', NATS_REPLICAS: '6' }, 'cluster')).toThrow(ConfigError);
    expect(() => loadServiceConfig(definition, { NATS_URL: 'nats://n1:4222', NATS_REPLICAS: '0' }, 'cluster')).toThrow(ConfigError);
  });

  it('refuses a list with a server that is not a NATS URL', () => {
    expect(() => loadServiceConfig(definition, { NATS_URL: 'nats://n1:4222,n2:4222' }, 'cluster')).toThrow(/NATS_URL: must be a URL \(nats, tls\), or several separated by commas/);
  });
});
