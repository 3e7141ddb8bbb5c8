import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * SQL spans from OpenTelemetry's pg instrumentation. Its usual install hooks `require`, which
 * sees only a `pg` loaded after it; here `pg` is loaded long before (the services' modules are
 * imported before configuration is read, and the test tiers load it once per worker), so its
 * module definition patches the loaded copy: `Client.prototype.query`, which every pool's
 * clients share. Only statements inside a traced request or event make spans
 * (requireParentSpan), not the relay's and workers' polling; statement text is recorded with
 * its placeholders, never the values.
 */
export function instrumentPg(provider: NodeTracerProvider): { stop(): void } {
  const instrumentation = new PgInstrumentation({ enabled: false, requireParentSpan: true, enhancedDatabaseReporting: false });
  instrumentation.setTracerProvider(provider);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pg = require('pg') as object;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const version = (require('pg/package.json') as { version: string }).version;
  const definitions = instrumentation.getModuleDefinitions().filter((definition) => definition.name === 'pg');
  for (const definition of definitions) definition.patch?.(pg, version);
  return {
    stop: () => {
      for (const definition of definitions) definition.unpatch?.(pg, version);
    },
  };
}
