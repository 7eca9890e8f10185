package dockerfile

// fuzzSeeds are Dockerfiles shaped like agent sandbox images: multi-stage
// builds, pinned and unpinned bases, heredocs, installers piped to a shell,
// build secrets and users switched back and forth.
var fuzzSeeds = []string{
	`# syntax=docker/dockerfile:1.7
ARG NODE_VERSION=22
FROM node:${NODE_VERSION}-bookworm-slim@sha256:1f2e3d4c5b6a79880f1e2d3c4b5a69788f1e2d3c4b5a69788f1e2d3c4b5a6978 AS base
ENV DEBIAN_FRONTEND=noninteractive \
    NPM_CONFIG_UPDATE_NOTIFIER=false
RUN --mount=type=cache,target=/var/cache/apt \
    apt-get update && apt-get install -y --no-install-recommends git ripgrep ca-certificates \
    && rm -rf /var/lib/apt/lists/*

FROM base AS agent
RUN npm install -g @anthropic-ai/claude-code@1.0.88
RUN --mount=type=secret,id=npmrc,target=/root/.npmrc npm ci --omit=dev
RUN useradd --create-home --uid 1000 agent
USER agent
WORKDIR /workspace
COPY --chown=agent:agent . .
HEALTHCHECK CMD ["node", "-e", "process.exit(0)"]
ENTRYPOINT ["claude"]
`,
	`FROM ubuntu:latest
LABEL maintainer="dev@example.com"
ENV GITHUB_TOKEN=ghp_Nq3bXf0WkL8sPzR2vT5yC7hJ9mQ4dA1eG6uI OPENAI_BASE_URL=https://api.example.com/v1
ADD https://github.com/example/tool/releases/download/v1.2.3/tool.tar.gz /opt/
RUN curl -fsSL https://get.example.sh | bash -s -- --yes
RUN <<EOT bash
  set -e
  wget -qO- https://install.example.dev/agent.sh | sh
EOT
USER root
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
ONBUILD RUN echo hi
CMD sleep infinity
`,
	"FROM scratch\nCOPY --from=ghcr.io/example/bin:1 /bin/x /x\nUSER 65532:65532\n",
	"FROM a\\\n  AS b\nRUN echo \\\n",
	"FROM --platform=$BUILDPLATFORM golang:1.26 AS build\nARG TARGETOS TARGETARCH\nRUN GOOS=$TARGETOS go build -o /out/app ./cmd/app\nFROM gcr.io/distroless/static:nonroot\nCOPY --from=build /out/app /\nUSER nonroot\n",
}
