#!/usr/bin/env bash
# The generated OpenAPI documents lint clean (Spectral `spectral:oas` and Redocly `recommended`: no error and
# no warning), and lib/api-types.ts is what the /v1 document generates now. Needs no network.
# usage: scripts/openapi-check.sh [--write]   (--write regenerates lib/api-types.ts instead of comparing)
set -euo pipefail
cd "$(dirname "$0")/.."
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npx tsx scripts/openapi.ts "$out"
docs=("$out/service.json" "$out/alertmanager.json")

npx spectral lint --quiet --ruleset .spectral.yaml --fail-severity=warn "${docs[@]}"
# Redocly exits non-zero on errors only: its JSON totals decide, so a warning fails too.
for doc in "${docs[@]}"; do
  npx redocly lint --format=json "$doc" 2>/dev/null >"$out/redocly.json" || true
  node -e '
    const { totals, problems } = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const p of problems) console.error(`${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? ""}`);
    if (totals.errors + totals.warnings > 0) process.exit(1);
  ' "$out/redocly.json"
done

# A field with a default may be left out of a request: typed optional, as the document's `required` says.
npx openapi-typescript "$out/service.json" --default-non-nullable false -o "$out/api-types.raw.ts" >/dev/null
npx prettier --stdin-filepath lib/api-types.ts <"$out/api-types.raw.ts" >"$out/api-types.ts"
if [ "${1:-}" = --write ]; then
  cp "$out/api-types.ts" lib/api-types.ts
elif ! diff -u lib/api-types.ts "$out/api-types.ts"; then
  echo 'lib/api-types.ts is not what the document generates: run `npm run openapi:types` and commit it.' >&2
  exit 1
fi
echo 'OpenAPI: both documents lint clean and lib/api-types.ts is current.' >&2
