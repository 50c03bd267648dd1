# One image for both processes: the API (default) and the worker (command override).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY workers ./workers
USER node
EXPOSE 8080
CMD ["node", "--import", "tsx", "src/main.ts"]
