# syntax=docker/dockerfile:1
# The public service as an image: a build stage compiles dist/ with the dev dependencies; the runtime stage
# holds only the production dependencies, dist/, content/ and package.json, and runs `node` as PID 1 so
# SIGTERM reaches the process that drains (npm would not forward it).
# Node 24 LTS, pinned to the exact release CI tests on (.ci/run fetches the same version's binary; .nvmrc names it).
# An exact tag, not a digest: take the digest from your registry when you mirror it (`node:24.21.0-bookworm-slim@sha256:…`).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
# No lifecycle scripts: nothing in the production tree needs one, and the compiler is not there to run a build.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-fund --no-audit && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY content ./content
# The embedded database and the sandbox mail live here; with DATABASE_URL set only sandbox mail does.
RUN mkdir -p /app/data && chown 1000:1000 /app/data && chmod 0700 /app/data
VOLUME ["/app/data"]

# Build stamps, shown by GET /api/version. Declared late so a new commit does not invalidate the npm layers.
ARG APP_VERSION=""
ARG APP_COMMIT=""
ARG APP_BUILD_TIME=""
ARG APP_SCHEMA_VERSION=""
ENV APP_VERSION=${APP_VERSION} \
    APP_COMMIT=${APP_COMMIT} \
    APP_BUILD_TIME=${APP_BUILD_TIME} \
    APP_SCHEMA_VERSION=${APP_SCHEMA_VERSION} \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
# V8's young generation capped at 8 MB semi-spaces instead of 16: about 15 MB less resident under load, at no
# throughput cost measurable in BENCHMARKS.md. Its old generation sized for the pod's 512 Mi (deploy/kubernetes):
# V8 otherwise sizes it by the node's memory and lets garbage pile up to that before its first full collection (a
# 100,000-line retorno grew RSS by 139 MB; 21 MB with the cap). As NODE_OPTIONS, so the CLI and the worker run with
# them too; `npm start` passes the same flags.
ENV NODE_OPTIONS="--max-semi-space-size=8 --max-old-space-size=256"

# The image's `node` user, by number so Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
USER 1000:1000
EXPOSE 3000
# Slim images have no curl: Node's own fetch. Liveness only (no database), as the orchestrators' probes are.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
# Source maps on: a logged error's frames name src/*.ts lines (dist/ carries the maps), not the built JavaScript.
CMD ["node", "--enable-source-maps", "dist/main.js"]
