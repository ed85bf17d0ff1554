#!/usr/bin/env bash
# Every test: lint, types, unit, then the API and browser suites against a fresh build.
# Installs Debian's chromium (the browser tests never download one), prometheus-alertmanager (amtool and a real
# Alertmanager for the Alertmanager API tests) and prometheus (a real alert sender) when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v amtool >/dev/null && command -v prometheus-alertmanager >/dev/null || missing+=(prometheus-alertmanager)
command -v prometheus >/dev/null || missing+=(prometheus)
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

# TEST_POSTGRES_URL (a database on a PostgreSQL server, which the run fills; .ci/run makes and drops one): the API
# suite also runs there, beside the embedded run, on ports 100 higher and in a state folder of its own. The two
# runs mostly wait on their servers, so together they take little longer than the embedded run alone. Its output
# is shown when it ends. It takes npm test's arguments (files, -g, …) but not a --project: only the API project
# runs there, and a filter that names none of its tests passes.
postgres_run=
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  step "api (PostgreSQL), beside the embedded run"
  postgres_args=()
  skip_next=
  for arg in "$@"; do
    if [ -n "$skip_next" ]; then skip_next=; continue; fi
    case "$arg" in
      --project=*) ;;
      --project) skip_next=1 ;;
      *) postgres_args+=("$arg") ;;
    esac
  done
  postgres_log=$(mktemp)
  postgres_state=$(mktemp -d)
  # In a process group of its own (setsid), so that an interrupted or failed npm test stops it with its servers.
  DATABASE_URL="$TEST_POSTGRES_URL" E2E_PORT=3310 E2E_LIMITED_PORT=3311 E2E_STATE_DIR="$postgres_state" \
    E2E_OUTPUT_DIR=test-results-postgres setsid npx playwright test --project=api --pass-with-no-tests ${postgres_args[@]+"${postgres_args[@]}"} \
    >"$postgres_log" 2>&1 &
  postgres_run=$!
  trap 'kill -- -"$postgres_run" 2>/dev/null || true' EXIT
  trap 'exit 130' INT TERM
fi
step "api + browser (embedded database)"
embedded=0
npx playwright test "$@" || embedded=$?
if [ -n "$postgres_run" ]; then
  postgres=0
  wait "$postgres_run" || postgres=$?
  step "api (PostgreSQL) ended: exit $postgres"
  cat "$postgres_log"
  rm -rf "$postgres_state"
  [ "$postgres" = 0 ] || exit "$postgres"
fi
exit "$embedded"
