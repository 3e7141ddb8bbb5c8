import { env } from '@doable/shared-config';
import { METRICS_REGISTRY, type ServiceDefinition } from '@doable/shared-runtime';
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import { BearerStrategy } from './auth/bearer.strategy';
import { PrincipalCache } from './auth/principal-cache';
import { PRINCIPAL_CACHE, PrincipalResolver } from './auth/principal-resolver';
import { EdgeController } from './edge/edge.controller';
import { EdgeForwarder } from './edge/edge-forwarder';
import { RouteGuard } from './edge/route.guard';
import { GatewayHttpAdapter } from './http/gateway-http-adapter';
import { HttpErrorFilter } from './http/http-error.filter';
import { httpMetrics } from './http/http-metrics';
import { configureHttpPipeline } from './http/http-pipeline';
import { RouteTable } from './routes/route-table';

const gatewayEnv = z.object({
  GATEWAY_BODY_LIMIT_BYTES: env.positiveInt(1024 * 1024),
  GATEWAY_HEADER_LIMIT_BYTES: env.positiveInt(65 * 1024),
  /** How long a verified token is trusted without asking auth-oauth again (revocations drop it at once). */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
});

function gatewayModule(authCacheTtlMs: number) {
  @Module({
    imports: [PassportModule.register({ session: false })],
    controllers: [EdgeController],
    providers: [
      { provide: RouteTable, useValue: new RouteTable() },
      { provide: PRINCIPAL_CACHE, useValue: new PrincipalCache(authCacheTtlMs) },
      PrincipalResolver,
      BearerStrategy,
      RouteGuard,
      EdgeForwarder,
      HttpErrorFilter,
    ],
  })
  class GatewayModule {}
  return GatewayModule;
}

/** The HTTP edge: authentication, limits, CORS and routing to the services. Owns no data. */
export const gatewayService = {
  name: 'gateway',
  defaultPort: 8080,
  env: gatewayEnv,
  imports: (config) => [gatewayModule(config.AUTH_CACHE_TTL_MS)],
  httpAdapter: (config) => new GatewayHttpAdapter(config.GATEWAY_HEADER_LIMIT_BYTES, config.REQUEST_TIMEOUT_MS),
  configureHttp: (app, config) => {
    app.use(httpMetrics(app.get<Registry>(METRICS_REGISTRY)));
    configureHttpPipeline(app, { bodyLimitBytes: config.GATEWAY_BODY_LIMIT_BYTES });
  },
} satisfies ServiceDefinition<typeof gatewayEnv>;
