#!/usr/bin/env bash
# Every test: lint, types, unit, then the API and browser suites against a fresh build.
# Installs Debian's chromium (the browser tests never download one) and prometheus-alertmanager (amtool and a
# real Alertmanager for the Alertmanager API tests) when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v amtool >/dev/null && command -v prometheus-alertmanager >/dev/null || missing+=(prometheus-alertmanager)
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing Debian's ${missing[*]} for the tests…" >&2
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

step() { printf '\n== %s (%d s in)\n' "$*" "$SECONDS" >&2; }
step "format";      npx prettier --check .
step "lint";        npx eslint --max-warnings 0 .
step "types";       npx tsc --noEmit
step "floors";      npm run --silent deps
step "unit";        npx vitest run
step "openapi";     bash scripts/openapi-check.sh
step "build";       npm run build
step "api + browser (embedded database)"; npx playwright test "$@"
