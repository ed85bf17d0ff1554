#!/usr/bin/env bash
# Starts one test server on a fresh database: PGlite in a new directory, or (DATABASE_URL) PostgreSQL.
# usage: serve.sh <port> <data-dir> <fixtures-file> <log-file> [extra env assignments…]
set -euo pipefail
port=$1 data=$2 fixtures=$3 log=$4
shift 4
rm -rf "$data"
mkdir -p "$data" "$(dirname "$log")"
# The server's pid (this shell's: it execs the server), beside its log: scripts/test-all.sh stops it by that when a
# run is cut short, whether or not Playwright got to stop its web server.
echo $$ >"${log%.log}.pid"
: > "$log"
# Everything the server prints also goes to a file, which a test greps for leaked secrets.
exec > >(tee -a "$log") 2>&1
export DATA_DIR="$data" PORT="$port" HOST=127.0.0.1 NEXTAUTH_URL="http://127.0.0.1:$port" SEED_DEMO=0 "$@"
npx tsx e2e/support/prepare-db.ts "$fixtures"
# A fresh secret-scanning key pair per server start; the tests sign leak reports with its private half.
SECRET_SCANNING_PUBLIC_KEYS="$(node e2e/support/scanner-key-pair.mjs "$(dirname "$fixtures")/scanner-$port.json" "e2e-$port")"
export SECRET_SCANNING_PUBLIC_KEYS
# As `npm start` runs it, with the server's Node flags (scripts/server-node-flags.mjs).
args=$(node --input-type=module -e "import { SERVER_ARGS } from './scripts/server-node-flags.mjs'; console.log(SERVER_ARGS.join(' '))")
# shellcheck disable=SC2086 # one word per argument
exec node $args
