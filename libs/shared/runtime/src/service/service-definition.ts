import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import type { z } from 'zod';
import type { ServiceConfig } from './service-config';

export const SERVICE_NAMES = ['gateway', 'sync', 'rest', 'auth-oauth', 'uploads', 'notifications', 'plans', 'webhooks', 'mcp'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * Everything the runtime needs to run one service, in either mode. Each service library
 * exports one of these; the app's main.ts and the embedded runner both start it from here.
 */
export interface ServiceDefinition<Env extends z.ZodObject = z.ZodObject> {
  readonly name: ServiceName;
  /** Port of the service's HTTP endpoint (the API for the gateway; health and metrics for all). */
  readonly defaultPort: number;
  /** The service's own environment variables, validated at start-up. */
  readonly env: Env;
  /** The PostgreSQL schema the service owns, with its migrations; absent for stateless services. */
  readonly database?: {
    readonly schema: string;
    /**
     * Its large reads may go to a streaming replica (DATABASE_REPLICA_URL, cluster mode only),
     * through Database.read, with read-your-writes kept by Database.markCommitted: see
     * docs/operations/postgres-replica.md.
     */
    readonly readReplica?: boolean;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
    readonly migrations: Function[];
  };
  /** The service's feature modules. */
  readonly imports: (config: ServiceConfig<Env>) => Array<Type | DynamicModule>;
  /** HTTP adapter settings applied before the app listens (body parsers, CORS: the gateway's). */
  readonly configureHttp?: (app: INestApplication, config: ServiceConfig<Env>) => void;
  /** Options for NestFactory.create (the gateway replaces the HTTP adapter). */
  readonly httpAdapter?: (config: ServiceConfig<Env>) => unknown;
}
