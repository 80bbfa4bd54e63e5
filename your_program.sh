#!/usr/bin/env bash
# Runs the agent from any directory, keeping the caller's working directory.
# Uses the compiled executable when it is newer than every source file, else `bun run index.ts`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exe="$here/dist/agent"
if [ -x "$exe" ] && [ -z "$(find "$here/index.ts" "$here/lib" "$here/package.json" -newer "$exe" -print -quit 2>/dev/null)" ]; then
  exec "$exe" "$@"
fi
bun="$(command -v bun || true)"
[ -n "$bun" ] || bun="$here/node_modules/.bin/bun"
if [ ! -x "$bun" ] || [ ! -d "$here/node_modules/@anthropic-ai/sdk" ]; then
  (cd "$here" && npm install --silent --no-audit --no-fund >&2)
  bun="$(command -v bun || echo "$here/node_modules/.bin/bun")"
fi
exec "$bun" run "$here/index.ts" "$@"
