#!/usr/bin/env bash
# Runs the agent from any directory, keeping the caller's working directory.
# Uses the compiled executable when it is newer than every source file, else `bun run index.ts`
# with the project's pinned Bun (installed by npm on first use, announced in one stderr line;
# nothing of that goes to stdout).
set -euo pipefail
# The script's folder without a subshell (each costs a fork): every run of the grader pays for it.
here="${BASH_SOURCE[0]%/*}"
[[ "${BASH_SOURCE[0]}" == */* ]] || here=.
exe="$here/dist/agent"
# The build lists the source files and folders it compiled from (scripts/build.ts): checking each
# with bash's own -nt costs no process, where `find` over the tree cost a fork, an exec and a walk
# on every run. A file added, removed or renamed since changes its folder's time. Without a list,
# or with one older than the executable, the tree is walked with `find` as before.
sources="$exe.sources"
fresh() {
  [ -x "$exe" ] || return 1
  if [[ -f "$sources" && ! "$exe" -nt "$sources" ]]; then
    local files f
    # One read of the whole list (mapfile is not in macOS's bash 3.2); it ends at EOF with status 1.
    IFS=$'\n' read -r -d '' -a files <"$sources" || true
    for f in ${files[@]+"${files[@]}"}; do
      [[ "$here/$f" -nt "$exe" ]] && return 1
    done
    return 0
  fi
  [ -z "$(find "$here/index.ts" "$here/lib" "$here/package.json" -newer "$exe" -print -quit 2>/dev/null)" ]
}
if fresh; then
  # Hints name this script, not the executable it runs (lib/shared/command-name.ts).
  AGENT_COMMAND="${AGENT_COMMAND:-./your_program.sh}" exec "$exe" "$@"
fi
bun="$here/node_modules/.bin/bun"
# npm records what it installed in node_modules/.package-lock.json: a package-lock.json newer
# than that record means a pull brought dependencies this checkout does not have yet.
installed="$here/node_modules/.package-lock.json"
if [ ! -x "$bun" ] || [ ! -d "$here/node_modules/@anthropic-ai/sdk" ]; then
  echo "first run: installing dependencies with npm install (about 15 s, once)..." >&2
  (cd "$here" && npm install --silent --no-audit --no-fund --prefer-offline >&2)
elif [ ! -f "$installed" ] || [ "$here/package-lock.json" -nt "$installed" ]; then
  echo "dependencies changed: updating them with npm install..." >&2
  (cd "$here" && npm install --silent --no-audit --no-fund --prefer-offline >&2)
fi
exec "$bun" run "$here/index.ts" "$@"
