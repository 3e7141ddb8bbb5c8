import { resolve } from 'node:path';
import { env } from '@doable/shared-config';
import { LOGGER, type Logger } from '@doable/shared-logging';
import { METRICS_REGISTRY, type ServiceDefinition } from '@doable/shared-runtime';
import { Module } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { z } from 'zod';
import { ENVOY_MAX_RING_SIZE, GATEWAY_LEASE_MS, type GatewayHome, HOME_HASHES } from '@doable/contracts-common';
import { UPLOAD_TIMEOUT_MS } from '@doable/contracts-uploads';
import { BearerAuthenticator } from './auth/bearer-authenticator';
import { GATEWAY_HOME, GATEWAY_LEASE, GatewayRegistration } from './registry/gateway-registration';
import { HomeGateway } from './homes/home-gateway';
import { TokenDropRpcController } from './auth/token-drop.rpc-controller';
import { PrincipalCache } from './auth/principal-cache';
import { PRINCIPAL_CACHE, PrincipalResolver } from './auth/principal-resolver';
import { EdgeController } from './edge/edge.controller';
import { EdgeForwarder } from './edge/edge-forwarder';
import { RouteGuard } from './edge/route.guard';
import { RateLimiter } from './limits/rate-limiter';
import { generationBudgets, generationBudgetsEnv } from './limits/generation-budgets';
import { DEPRECATION_SETTINGS } from './generations/deprecation-settings.token';
import { deprecationEnv, deprecationSettings, type DeprecationSettings } from './generations/deprecation-notices';
import { LONGEST_RATE_WINDOW, SharedRateCounts } from './limits/shared-rate-counts';
import { GatewayHttpAdapter } from './http/gateway-http-adapter';
import { HttpErrorFilter } from './http/http-error.filter';
import { httpMetrics } from './http/http-metrics';
import { configureHttpPipeline } from './http/http-pipeline';
import { PUSH_SETTINGS, PushChannel, type PushSettings } from './push/push-channel';
import { PushCredential } from './push/push-credential';
import { openApiRoutes } from './http/openapi-routes';
import { RouteTable } from './routes/route-table';
import { UploadRelay } from './edge/upload-relay';
import { UnchangedAnswers } from './polls/unchanged-answers';
import { UNCHANGED_ANSWERS } from './polls/unchanged-answers.token';
import { UnchangedPolls } from './polls/unchanged-polls';
import { UsersMovedListener } from './polls/users-moved.listener';
import { UsersMovedRpcController } from './polls/users-moved.rpc-controller';
import { defaultWebAppDir } from './web-app/web-app-dir';
import { webAppRoutes } from './web-app/web-app-routes';

const gatewayEnv = z.object({
  GATEWAY_BODY_LIMIT_BYTES: env.positiveInt(1024 * 1024),
  GATEWAY_HEADER_LIMIT_BYTES: env.positiveInt(65 * 1024),
  /** A streamed upload's whole body must arrive within this (a client that stalls or trickles is answered 408 and cut off). */
  GATEWAY_UPLOAD_BODY_TIMEOUT_MS: env.positiveInt(UPLOAD_TIMEOUT_MS),
  /** How long a verified token is trusted without asking auth-oauth again (revocations drop it at once). */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  /**
   * Cluster: how long this gateway's registration for revocations lives without a refresh. A
   * gateway cut off from NATS stops trusting its cache within 3/4 of it; a revoke waits at most
   * about this long for a gateway that vanished without leaving the registry.
   */
  REVOCATION_LEASE_MS: z.coerce.number().int().min(400).default(GATEWAY_LEASE_MS),
  /** Per-user request budgets per window (the public service's: 1,000 Sync, 450 REST per 15 min); 0 turns one off. */
  RATE_LIMIT_WINDOW_SECONDS: env.positiveInt(15 * 60),
  RATE_LIMIT_SYNC_REQUESTS: z.coerce.number().int().min(0).default(1_000),
  RATE_LIMIT_REST_REQUESTS: z.coerce.number().int().min(0).default(450),
  /** Per client address: log-in, sign-up, token exchange, revocation and consent posts per window; 0 turns it off. */
  RATE_LIMIT_AUTH_REQUESTS: z.coerce.number().int().min(0).default(30),
  RATE_LIMIT_AUTH_WINDOW_SECONDS: env.positiveInt(60),
  /**
   * Express's `trust proxy`: which hops' X-Forwarded-For to believe for the client address
   * (a hop count, or comma-separated addresses/subnets such as `loopback, 10.0.0.0/8`). Empty:
   * none, the socket's address counts (right without a proxy; behind one, set it).
   */
  GATEWAY_TRUST_PROXY: z.string().default(''),
  /** The push channel (`/ws`): seconds between pings (clients drop a connection after 60 s without one). */
  PUSH_PING_SECONDS: z.coerce.number().int().min(1).max(55).default(30),
  /** Open push sockets per user (one more closes that user's oldest) and per gateway replica. */
  PUSH_MAX_SOCKETS_PER_USER: env.positiveInt(20),
  PUSH_MAX_SOCKETS: env.positiveInt(20_000),
  /**
   * Users whose last "nothing new" sync answers this gateway keeps, to give them again itself
   * while nothing moved (polls/); 0 sends every poll to sync. A user costs about a kilobyte (a
   * request key of at most 1 KiB and an answer of a few hundred bytes per client, four at most),
   * so the default stays near 20-40 MiB, well inside the gateway's memory limit.
   */
  GATEWAY_POLL_ANSWER_USERS: z.coerce.number().int().min(0).default(20_000),
  /**
   * This replica's name in the balancer's consistent hash (docs/operations/home-gateways.md):
   * nginx's `server` string for it (`10.0.0.11:8080`), or the endpoint address Envoy hashes
   * (`$(POD_IP):8080` in Kubernetes). Set, this gateway keeps poll answers and hears write cues
   * only for the users whose home it is, and a write costs NATS messages per home, not per
   * gateway. Empty (the default): every user's, as before homes; right without such a balancer.
   */
  GATEWAY_HOME_NAME: z.string().trim().max(255).default(''),
  /** The balancer's consistent hash: nginx's `hash $key consistent`, or Envoy's RING_HASH (XX_HASH). */
  GATEWAY_HOME_HASH: z.enum(HOME_HASHES).default('nginx'),
  /** Envoy's `minimum_ring_size`, when set there (envoy-ring-hash only; Envoy's default 1024 otherwise). */
  GATEWAY_HOME_RING_SIZE: z.coerce.number().int().min(1).max(ENVOY_MAX_RING_SIZE).optional(),
  /** The built web app served at /app (issue #35): `npm run build` writes it to dist/web, the default. */
  WEB_APP_DIR: z.string().min(1).default(defaultWebAppDir()),
})
  // Each old generation's own sync budget (spec §8: v7's 50 per minute), and its deprecation dates (§9).
  .extend(generationBudgetsEnv.shape)
  .extend(deprecationEnv.shape);

type GatewayConfig = z.infer<typeof gatewayEnv>;

function rateLimiter(config: GatewayConfig): RateLimiter {
  return new RateLimiter({
    windowMs: config.RATE_LIMIT_WINDOW_SECONDS * 1000,
    perFamily: { sync: config.RATE_LIMIT_SYNC_REQUESTS, rest: config.RATE_LIMIT_REST_REQUESTS, auth: config.RATE_LIMIT_AUTH_REQUESTS },
    windowMsPerFamily: { auth: config.RATE_LIMIT_AUTH_WINDOW_SECONDS * 1000 },
    perGeneration: generationBudgets(config),
  });
}

/** The longest of every budget's windows: shared counts must outlive it (their KV bucket's TTL is twice this). */
function longestRateWindowMs(config: GatewayConfig): number {
  const generations = Object.values(generationBudgets(config)).map((budget) => budget.windowMs);
  return Math.max(1000 * config.RATE_LIMIT_WINDOW_SECONDS, 1000 * config.RATE_LIMIT_AUTH_WINDOW_SECONDS, ...generations);
}

/** `GATEWAY_TRUST_PROXY` as Express takes it: false, a hop count, or a list of addresses/subnets. */
export function trustProxySetting(raw: string): boolean | number | string[] {
  const value = raw.trim();
  if (value === '' || value === 'false') return false;
  if (/^[0-9]+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim()).filter((part) => part.length > 0);
}

/** Distinct requests kept per user: a phone, a desktop and an integration each poll with their own token. */
const POLL_ANSWERS_PER_USER = 4;

/** GATEWAY_HOME_* as the home this gateway declares, or undefined when it has no name. */
export function gatewayHome(config: Pick<GatewayConfig, 'GATEWAY_HOME_NAME' | 'GATEWAY_HOME_HASH' | 'GATEWAY_HOME_RING_SIZE'>): GatewayHome | undefined {
  if (config.GATEWAY_HOME_NAME === '') return undefined;
  const ringSize = config.GATEWAY_HOME_HASH === 'envoy-ring-hash' ? config.GATEWAY_HOME_RING_SIZE : undefined;
  return { name: config.GATEWAY_HOME_NAME, hash: config.GATEWAY_HOME_HASH, ...(ringSize === undefined ? {} : { ringSize }) };
}

function gatewayModule(authCacheTtlMs: number, leaseMs: number, home: GatewayHome | undefined, rates: RateLimiter, longestRateWindowMs: number, push: PushSettings, pollAnswerUsers: number, deprecations: DeprecationSettings) {
  @Module({
    controllers: [EdgeController, TokenDropRpcController, UsersMovedRpcController],
    providers: [
      { provide: GATEWAY_LEASE, useValue: leaseMs },
      { provide: GATEWAY_HOME, useValue: home },
      GatewayRegistration,
      HomeGateway,
      { provide: RouteTable, useValue: new RouteTable() },
      { provide: RateLimiter, useValue: rates },
      { provide: LONGEST_RATE_WINDOW, useValue: longestRateWindowMs },
      { provide: DEPRECATION_SETTINGS, useValue: deprecations },
      SharedRateCounts,
      { provide: PRINCIPAL_CACHE, useValue: new PrincipalCache(authCacheTtlMs) },
      PrincipalResolver,
      BearerAuthenticator,
      RouteGuard,
      { provide: UNCHANGED_ANSWERS, useValue: pollAnswerUsers > 0 ? new UnchangedAnswers({ maxUsers: pollAnswerUsers, maxPerUser: POLL_ANSWERS_PER_USER }) : null },
      UnchangedPolls,
      UsersMovedListener,
      EdgeForwarder,
      UploadRelay,
      HttpErrorFilter,
      { provide: PUSH_SETTINGS, useValue: push },
      PushCredential,
      PushChannel,
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
  imports: (config) => [
    gatewayModule(config.AUTH_CACHE_TTL_MS, config.REVOCATION_LEASE_MS, gatewayHome(config), rateLimiter(config), longestRateWindowMs(config), {
      pingSeconds: config.PUSH_PING_SECONDS,
      maxSocketsPerUser: config.PUSH_MAX_SOCKETS_PER_USER,
      maxSockets: config.PUSH_MAX_SOCKETS,
    }, config.GATEWAY_POLL_ANSWER_USERS, deprecationSettings(config)),
  ],
  httpAdapter: (config) => new GatewayHttpAdapter(config.GATEWAY_HEADER_LIMIT_BYTES, config.REQUEST_TIMEOUT_MS, config.GATEWAY_UPLOAD_BODY_TIMEOUT_MS),
  configureHttp: (app, config) => {
    (app.getHttpAdapter().getInstance() as { set(name: string, value: unknown): void }).set('trust proxy', trustProxySetting(config.GATEWAY_TRUST_PROXY));
    configureHttpPipeline(app, {
      bodyLimitBytes: config.GATEWAY_BODY_LIMIT_BYTES,
      logger: app.get<Logger>(LOGGER),
      first: [httpMetrics(app.get<Registry>(METRICS_REGISTRY))],
      then: [openApiRoutes(), webAppRoutes(resolve(config.WEB_APP_DIR))],
    });
    // Also for what Express's router refuses before any controller runs (a path segment that
    // does not decode): otherwise Nest's default filter answers it without a code.
    app.useGlobalFilters(app.get(HttpErrorFilter));
  },
} satisfies ServiceDefinition<typeof gatewayEnv>;
