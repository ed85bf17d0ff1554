#!/usr/bin/env bash
# Every test: lint, types, unit, then the API and browser suites against a fresh build.
# Installs Debian's chromium when it is missing (the browser tests never download one).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  echo "Installing Debian's chromium for the browser tests…" >&2
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

step() { printf '\n== %s\n' "$*" >&2; }
step "format";      npx prettier --check .
step "lint";        npx eslint --max-warnings 0 .
step "types";       npx tsc --noEmit
step "unit";        npx vitest run
step "build";       npx next build
step "api + browser (embedded database)"; npx playwright test "$@"
