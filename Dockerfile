# mcp-atlas `serve` in a container: a multi-stage build on node:20-slim that runs as the unprivileged `node` user
# and keeps its data in the /data volume. Configure it through environment variables (apps/atlas/README.md,
# "Running it for others"); MCP_ATLAS_PUBLIC_URL is required, since the container binds 0.0.0.0.
#
#   docker build -t mcp-atlas .
#   docker run -p 8787:8787 -v atlas-data:/data -e MCP_ATLAS_PUBLIC_URL=https://atlas.example.org mcp-atlas
#
# pnpm comes through npx (pnpm@10), not Corepack: Corepack's signature check fails against some registries.

# ---- build: install the workspace, build the app and the packages it uses, then lay out production files ----
FROM node:20-slim AS build
WORKDIR /src
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml turbo.json tsconfig.base.json ./
COPY packages ./packages
COPY apps ./apps
COPY docs ./docs
RUN npx --yes pnpm@10 install --frozen-lockfile
RUN npx --yes pnpm@10 turbo run build --filter=@mcp-atlas/cli...
# A self-contained folder: the app's package.json, bin/ (the command's entry), dist/ (cli.js and the bundled
# methodology/ folder) and its production node_modules, workspace packages included.
RUN npx --yes pnpm@10 --filter @mcp-atlas/cli deploy --prod --legacy /out

# ---- run: only the built app, as a user without privileges ----
FROM node:20-slim
ENV NODE_ENV=production \
    MCP_ATLAS_DATA=/data \
    MCP_ATLAS_HOST=0.0.0.0 \
    MCP_ATLAS_PORT=8787
WORKDIR /app
COPY --from=build /out /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
# Ready once the read model is built and the store answers; /readyz answers any Host, so 127.0.0.1 will do.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.MCP_ATLAS_PORT || 8787) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) shuts down gracefully within 10 s; node runs as PID 1 and handles it itself.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "/app/bin/mcp-atlas.js"]
CMD ["serve"]
