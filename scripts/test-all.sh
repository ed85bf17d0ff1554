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

# Each step's start is printed as it starts and again, with every suite's outcome, at the very end: a log read from
# its tail shows where the time went and which tests failed.
timeline=()
step() {
  timeline+=("$(printf '%5d s  %s' "$SECONDS" "$*")")
  printf '\n== %s (%d s in)\n' "$*" "$SECONDS" >&2
}
step "format";      npx prettier --check .
step "build";       npm run build

# The end-to-end suites, each on servers of its own (ports and a state folder apart), side by side: they mostly
# wait on their servers, so together they take little longer than the longest alone.
# - the API suite on the embedded database;
# - the browser suite on the embedded database, on a fresh server (without the rate-limited one, which only API
#   tests call), so it never sees what the API suite left behind;
# - with TEST_POSTGRES_URL (a database on a PostgreSQL server, which the run fills; .ci/run makes and drops one),
#   the API suite again on that PostgreSQL.
# Each takes npm test's arguments (files, -g, …). A --project among them runs as given instead, in one run on the
# embedded database (and the PostgreSQL run drops it: only the API project runs there). A filter that names none of
# a run's tests passes it. The side runs' output is shown when they end.
args=()
project_given=
skip_next=
for arg in "$@"; do
  if [ -n "$skip_next" ]; then skip_next=; project_given=1; continue; fi
  case "$arg" in
    --project=*) project_given=1 ;;
    --project) skip_next=1 ;;
    *) args+=("$arg") ;;
  esac
done

side_runs=()
side_names=()
side_logs=()
side_states=()
# Starts `npx playwright test ARGS…` beside the foreground run with ENV… (name=value words before the arguments),
# in a process group of its own (setsid), so that an interrupted or failed npm test stops it with its servers.
side_run() {
  local name=$1
  shift
  local log state
  log=$(mktemp)
  state=$(mktemp -d)
  step "$name, beside the others"
  env E2E_STATE_DIR="$state" "$@" >"$log" 2>&1 &
  side_runs+=($!)
  side_names+=("$name")
  side_logs+=("$log")
  side_states+=("$state")
}
stop_side_runs() {
  for pid in ${side_runs[@]+"${side_runs[@]}"}; do kill -- -"$pid" 2>/dev/null || true; done
  # Playwright starts its web servers in process groups of their own: one it had no time to stop would keep its port
  # (and the next npm test on the machine would find it taken). e2e/support/serve.sh leaves each server's pid.
  for state in ${side_states[@]+"${side_states[@]}"}; do
    for file in "$state"/*.pid; do [ -f "$file" ] && kill "$(cat "$file")" 2>/dev/null || true; done
  done
}
trap stop_side_runs EXIT
trap 'exit 130' INT TERM

# The browser suite is the longest (22 to 38 minutes on 2 cores beside the others, by host): it starts first, beside
# the checks that do not need a server, where it used to start after them and run alone for its last ten minutes.
if [ -z "$project_given" ]; then
  side_run "browser (embedded database)" E2E_PORT=3410 E2E_LIMITED_SERVER=off E2E_OUTPUT_DIR=test-results-ui \
    setsid npx playwright test --project=ui --pass-with-no-tests ${args[@]+"${args[@]}"}
fi
step "lint";        npx eslint --max-warnings 0 .
step "types";       npx tsc --noEmit
step "floors";      npm run --silent deps
step "unit";        npx vitest run
step "openapi";     bash scripts/openapi-check.sh

if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  side_run "api (PostgreSQL)" DATABASE_URL="$TEST_POSTGRES_URL" E2E_PORT=3310 E2E_LIMITED_PORT=3311 \
    E2E_OUTPUT_DIR=test-results-postgres setsid npx playwright test --project=api --pass-with-no-tests \
    ${args[@]+"${args[@]}"}
fi
# What a suite's log ends with: Playwright's counts, with the failed and flaky tests named under them.
outcome() { awk '/^  [0-9]+ (failed|flaky|interrupted|skipped|did not run|passed)/ { s = 1 } s' "$1"; }

# Runs COMMAND… (a Playwright run) in the foreground, its output shown and kept for the summary at the end.
failed=0
outcomes=()
foreground_run() {
  local name=$1
  shift
  local log status_file status
  log=$(mktemp)
  status_file=$(mktemp)
  step "$name"
  {
    status=0
    "$@" 2>&1 || status=$?
    echo "$status" >"$status_file"
  } | tee "$log"
  status=$(cat "$status_file")
  step "$name ended: exit $status"
  outcomes+=("== $name: exit $status" "$(outcome "$log")")
  rm -f "$log" "$status_file"
  [ "$status" = 0 ] || failed=$status
}

if [ -z "$project_given" ]; then
  foreground_run "api (embedded database)" npx playwright test --project=api --pass-with-no-tests \
    ${args[@]+"${args[@]}"}
else
  foreground_run "the projects asked for (embedded database)" npx playwright test "$@"
fi

for i in ${side_runs[@]+"${!side_runs[@]}"}; do
  status=0
  wait "${side_runs[$i]}" || status=$?
  step "${side_names[$i]} ended: exit $status"
  cat "${side_logs[$i]}"
  outcomes+=("== ${side_names[$i]}: exit $status" "$(outcome "${side_logs[$i]}")")
  rm -rf "${side_states[$i]}" "${side_logs[$i]}"
  [ "$status" = 0 ] || failed=$status
done

printf '\n== npm test: where the time went (seconds from its start)\n' >&2
printf '%s\n' "${timeline[@]}" >&2
printf '%s\n' "${outcomes[@]}" >&2
printf '== npm test: exit %s after %d s\n' "$failed" "$SECONDS" >&2
exit "$failed"
