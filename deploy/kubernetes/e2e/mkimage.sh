#!/usr/bin/env bash
# mkimage.sh OUT.tar NAME:TAG ROOTFS ENTRYPOINT_JSON CMD_JSON [USER]
# A one-layer image in docker-archive form (what `docker save` writes), made
# from a directory without a daemon or a registry; `ctr images import` loads it.
set -euo pipefail
out=$1 ref=$2 rootfs=$3 entrypoint=$4 cmd=$5 user=${6:-}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
tar --numeric-owner --owner=0 --group=0 --sort=name --mtime=@0 -C "$rootfs" -cf "$w/layer.tar" .
layer=$(sha256sum "$w/layer.tar" | cut -d' ' -f1)
mkdir "$w/$layer"
mv "$w/layer.tar" "$w/$layer/layer.tar"
jq -n --argjson ep "$entrypoint" --argjson cmd "$cmd" --arg user "$user" --arg layer "sha256:$layer" '{
  architecture: "amd64", os: "linux", created: "1970-01-01T00:00:00Z",
  config: {Entrypoint: $ep, Cmd: $cmd, User: $user, WorkingDir: "/",
           Env: ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]},
  rootfs: {type: "layers", diff_ids: [$layer]},
  history: [{created: "1970-01-01T00:00:00Z", created_by: "deploy/kubernetes/e2e/mkimage.sh"}]
}' >"$w/config.json"
config=$(sha256sum "$w/config.json" | cut -d' ' -f1)
mv "$w/config.json" "$w/$config.json"
jq -n --arg c "$config.json" --arg r "$ref" --arg l "$layer/layer.tar" '[{Config: $c, RepoTags: [$r], Layers: [$l]}]' >"$w/manifest.json"
tar -C "$w" -cf "$out" manifest.json "$config.json" "$layer"
echo "$out: $ref"
