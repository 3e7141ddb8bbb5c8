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

describe('configuration of a read replica (docs/operations/postgres-replica.md)', () => {
  const reader = { ...definition, database: { readReplica: true } };
  const primary = { NATS_URL: 'nats://n1:4222', DATABASE_URL: 'postgres://doable@primary/doable' };

  it('is optional: unset, there is none, and the bounds have their small defaults', () => {
    const config = loadServiceConfig(reader, primary, 'cluster');
    expect({ url: config.DATABASE_REPLICA_URL, wait: config.DATABASE_REPLICA_WAIT_MS, lag: config.DATABASE_REPLICA_MAX_LAG_MS }).toEqual({ url: undefined, wait: 50, lag: 5_000 });
  });

  it('reads the standby\'s URL and the bounds, refusing a lag bound past what the read marks are kept for', () => {
    const config = loadServiceConfig(reader, { ...primary, DATABASE_REPLICA_URL: 'postgres://doable@standby/doable', DATABASE_REPLICA_WAIT_MS: '0', DATABASE_REPLICA_MAX_LAG_MS: '30000' }, 'cluster');
    expect({ url: config.DATABASE_REPLICA_URL, wait: config.DATABASE_REPLICA_WAIT_MS, lag: config.DATABASE_REPLICA_MAX_LAG_MS }).toEqual({ url: 'postgres://doable@standby/doable', wait: 0, lag: 30_000 });
    expect(() => loadServiceConfig(reader, { ...primary, DATABASE_REPLICA_MAX_LAG_MS: '600000' }, 'cluster')).toThrow(/DATABASE_REPLICA_MAX_LAG_MS/);
    expect(() => loadServiceConfig(reader, { ...primary, DATABASE_REPLICA_URL: 'http://standby' }, 'cluster')).toThrow(/DATABASE_REPLICA_URL: must be a URL \(postgres, postgresql\)/);
  });

  it('is never read in embedded mode (PGlite has no standby), nor by a service that does not ask for one', () => {
    const set = { ...primary, DATABASE_REPLICA_URL: 'postgres://doable@standby/doable' };
    expect(loadServiceConfig(reader, set, 'embedded').DATABASE_REPLICA_URL).toBeUndefined();
    expect(loadServiceConfig({ ...definition, database: {} }, set, 'cluster').DATABASE_REPLICA_URL).toBeUndefined();
  });
});

describe('a process role (docs/operations/process-roles.md)', () => {
  const cluster = { NATS_URL: 'nats://n1:4222' };

  it('is `all` unless a cluster process is given `requests` or `events`', () => {
    expect(loadServiceConfig(definition, cluster, 'cluster').PROCESS_ROLE).toBe('all');
    expect(loadServiceConfig(definition, { ...cluster, PROCESS_ROLE: 'events' }, 'cluster').PROCESS_ROLE).toBe('events');
    expect(loadServiceConfig(definition, { ...cluster, PROCESS_ROLE: 'requests' }, 'cluster').PROCESS_ROLE).toBe('requests');
  });

  it('refuses a role it does not know, and is never read in embedded mode (one process does everything)', () => {
    expect(() => loadServiceConfig(definition, { ...cluster, PROCESS_ROLE: 'consumers' }, 'cluster')).toThrow(/PROCESS_ROLE/);
    expect(loadServiceConfig(definition, { PROCESS_ROLE: 'events' }, 'embedded').PROCESS_ROLE).toBeUndefined();
  });
});
