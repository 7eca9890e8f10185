# The live auditor as a minimal image: the static binary alone, to run
# `scan --live` as a sidecar or to copy into a sandbox:
#   docker build -t sandbox-audit .
#   docker create --name sa sandbox-audit && docker cp sa:/sandbox-audit . && docker rm sa
# The build stage needs only the Go module proxy.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /sandbox-audit ./cmd/sandbox-audit

# The fleet scanner (deploy/kubernetes): the binary beside git, which git
# targets are fetched with. Build it with --target fleet.
FROM debian:12.12-slim AS fleet
RUN apt-get update \
 && apt-get install -y --no-install-recommends git ca-certificates openssh-client \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /sandbox-audit /usr/local/bin/sandbox-audit
USER 65534:65534
ENTRYPOINT ["/usr/local/bin/sandbox-audit"]
CMD ["fleet", "scan", "--inventory", "/etc/sandbox-audit/fleet.yaml"]

# The default target: the live auditor alone.
FROM scratch
COPY --from=build /sandbox-audit /sandbox-audit
USER 65534:65534
ENTRYPOINT ["/sandbox-audit"]
CMD ["scan", "--live"]
