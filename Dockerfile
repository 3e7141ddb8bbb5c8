# Doable: one Dockerfile, one image per service.
#
#   docker build --target sync -t doable/sync:1.0.0 .
#   docker build --target migrate -t doable/migrate:1.0.0 .   (compose's one-shot migration step)
#
# Targets: gateway, sync, rest, auth-oauth, uploads, notifications, plans, webhooks, mcp, migrate. Without
# --target the last stage (gateway) is built. Every image holds the whole dist/ (it is small,
# and shared libs are most of it); the target only decides which entry point runs.
#
# Plain Dockerfile syntax on purpose (no BuildKit-only `RUN --mount`), so the legacy builder
# that docker-compose 1.x drives builds it too.

ARG NODE_IMAGE=node:20.20.2-bookworm-slim

# ---- build: dev dependencies + swc, compiles apps/ and libs/ into dist/ ------------------------
# `npm run build` also builds the web app (apps/web, Vite) into dist/web, which the gateway image
# serves at /app (WEB_APP_DIR defaults to it): Vite is a dev dependency, so only this stage has it.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
# Manifests first: the `npm ci` layer stays cached until the lockfile changes.
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig.base.json ./
COPY tools/scripts ./tools/scripts
COPY libs ./libs
COPY apps ./apps
RUN npm run build

# ---- prod-deps: runtime dependencies only ------------------------------------------------------
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /src
COPY package.json package-lock.json .npmrc ./
# No production dependency has an install script; --ignore-scripts keeps it that way.
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

# ---- runtime: what every service image shares --------------------------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
# glibc's allocator as libs/shared/runtime/src/service/service-node-flags.ts gives it (SERVICE_MALLOC_ENV):
# megabyte answer buffers reused from the heap instead of mapped afresh each time.
ENV MALLOC_MMAP_THRESHOLD_=33554432 MALLOC_TRIM_THRESHOLD_=67108864
WORKDIR /app
# Code and dependencies stay owned by root: the `node` user can read them, never rewrite them.
COPY --from=prod-deps /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
# The one writable path: uploads keeps file bytes under UPLOADS_DIR (./data/uploads). Creating
# it here, owned by node, lets a fresh named volume mounted on it inherit that owner.
RUN mkdir -p /app/data/uploads && chown -R node:node /app/data
# `node` (uid 1000) ships with the base image; Kubernetes manifests pin runAsUser 1000 to match.
USER node
# Liveness only (the process serves HTTP): readiness, which also needs PostgreSQL and NATS, is
# the orchestrator's business (compose and Kubernetes probe /health/ready themselves).
# node's built-in fetch, because the slim image has neither curl nor wget.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/health/live', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

# ---- one target per service --------------------------------------------------------------------
# ENTRYPOINT is the service; CMD is its command: `serve` (default), `migrate` or `revert`, so
# the same image runs the service and its one-shot migration (`docker run doable/sync migrate`).

FROM runtime AS sync
ENV PORT=3001
EXPOSE 3001
ENTRYPOINT ["node", "dist/apps/sync/src/main.js"]
CMD ["serve"]

FROM runtime AS rest
ENV PORT=3002
EXPOSE 3002
# Node flags as libs/shared/runtime/src/service/service-node-flags.ts gives them (node refuses them in NODE_OPTIONS).
ENTRYPOINT ["node", "--initial-old-space-size=128", "dist/apps/rest/src/main.js"]
CMD ["serve"]

FROM runtime AS auth-oauth
ENV PORT=3003
EXPOSE 3003
ENTRYPOINT ["node", "dist/apps/auth-oauth/src/main.js"]
CMD ["serve"]

FROM runtime AS uploads
ENV PORT=3004
EXPOSE 3004
ENTRYPOINT ["node", "dist/apps/uploads/src/main.js"]
CMD ["serve"]

FROM runtime AS notifications
ENV PORT=3005
EXPOSE 3005
ENTRYPOINT ["node", "dist/apps/notifications/src/main.js"]
CMD ["serve"]

FROM runtime AS plans
ENV PORT=3006
EXPOSE 3006
ENTRYPOINT ["node", "dist/apps/plans/src/main.js"]
CMD ["serve"]

FROM runtime AS mcp
ENV PORT=3007
EXPOSE 3007
ENTRYPOINT ["node", "dist/apps/mcp/src/main.js"]
CMD ["serve"]

FROM runtime AS webhooks
ENV PORT=3008
EXPOSE 3008
ENTRYPOINT ["node", "dist/apps/webhooks/src/main.js"]
CMD ["serve"]

# Compose's one-shot migration step: `main.js migrate` of each data service named in CMD, in
# turn, stopping at the first failure. Kubernetes uses one Job per service with that service's
# own image instead (k8s/base/migrations.yaml).
FROM runtime AS migrate
HEALTHCHECK NONE
ENTRYPOINT ["/bin/sh", "-ec", "for app in \"$@\"; do echo \"migrate: $app\"; node \"dist/apps/$app/src/main.js\" migrate; done", "migrate"]
CMD ["sync", "auth-oauth", "uploads", "notifications", "plans", "webhooks"]

# Last, so a plain `docker build .` produces the public entry point.
FROM runtime AS gateway
ENV PORT=8080
EXPOSE 8080
# Node flags as libs/shared/runtime/src/service/service-node-flags.ts gives them (node refuses them in NODE_OPTIONS).
ENTRYPOINT ["node", "--initial-old-space-size=128", "dist/apps/gateway/src/main.js"]
CMD ["serve"]
