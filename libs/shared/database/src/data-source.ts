import { DataSource, type EntitySchema, type MixedList } from 'typeorm';

export interface ServiceDataSourceOptions {
  /** The service's own PostgreSQL schema: no service reads another's tables. */
  readonly schema: string;
  readonly url: string;
  readonly poolSize: number;
  readonly applicationName: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  readonly entities?: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  readonly migrations: MixedList<Function | string>;
}

/**
 * One DataSource per service, shared by the running app and its migrate/revert commands.
 * `synchronize` is off: the schema changes only through reviewed migrations with a real down().
 */
export function createServiceDataSource(options: ServiceDataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities ?? [],
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    applicationName: options.applicationName,
    poolSize: options.poolSize,
    extra: { connectionTimeoutMillis: 5_000 },
  });
}
