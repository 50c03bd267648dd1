# One image for the three processes: the API (default command), the worker and the price feed
# (compose overrides the command). Build: docker build -t predictwire:<version> .

# Stage 1: compile TypeScript to dist/ with the full (dev) dependency set.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY workers ./workers
RUN npm run build

# Stage 2: production dependencies only (no tsx, no TypeScript, no test tooling).
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# Stage 3: the runtime: compiled JavaScript, production node_modules, a non-root user.
FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The geo table every process reads (src/geo/location-db.ts), built once into node_modules/.cache.
RUN node dist/src/tools/geo-table.js
# The data folder (DATA_DIR): the only place the app writes, owned by the node image's
# unprivileged user so that a named volume mounted there starts writable.
RUN mkdir /data && chown node:node /data
ENV DATA_DIR=/data
USER node
EXPOSE 8080
# The API's liveness; compose gives the worker and the feed their own (their health ports).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT||8080}/healthz`).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--max-semi-space-size=4", "dist/src/main.js"]
