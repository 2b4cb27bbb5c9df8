#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against the probe client of `mcp-atlas check`.
# The suite starts a scenario server on loopback and runs our command with the server URL appended.
#
# What must pass: `initialize`. `auth/resource-mismatch` passes too: it checks that a client does not go on
# with a mismatched resource, and the probe never goes on with any sign-in.
# Expected failures, and why:
#   tools_call, sse-retry, elicitation-sep1034-client-defaults: each scenario needs the client to call a tool
#     (sse-retry closes the stream of a tools/call; elicitation is asked during one); check only lists tools.
#   auth/* (but resource-mismatch): the probe reports a sign-in request as letter `a` and stops by design; it never runs OAuth.
# Version 0.1.13 is pinned: it runs on Node 20, later versions need Node 22's fs.globSync.
# Usage: apps/atlas/scripts/conformance.sh   (builds the app first when dist/cli.js is missing)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
app="$(dirname "$here")"
conformance="@modelcontextprotocol/conformance@0.1.13"
cli="$app/dist/cli.js"

if [[ ! -f "$cli" ]]; then
  (cd "$app" && npx tsup)
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat > "$work/expected-failures.yml" <<'YAML'
client:
  - tools_call
  - sse-retry
  - elicitation-sep1034-client-defaults
  - auth/metadata-default
  - auth/metadata-var1
  - auth/metadata-var2
  - auth/metadata-var3
  - auth/basic-cimd
  - auth/scope-from-www-authenticate
  - auth/scope-from-scopes-supported
  - auth/scope-omitted-when-undefined
  - auth/scope-step-up
  - auth/scope-retry-limit
  - auth/token-endpoint-auth-basic
  - auth/token-endpoint-auth-post
  - auth/token-endpoint-auth-none
  - auth/pre-registration
  - auth/2025-03-26-oauth-metadata-backcompat
  - auth/2025-03-26-oauth-endpoint-fallback
  - auth/client-credentials-jwt
  - auth/client-credentials-basic
YAML

command="node $cli check"

echo "== initialize (must pass)"
npx -y "$conformance" client --command "$command" --scenario initialize

echo "== every client scenario, with the expected failures listed above"
# Exit 1 here means a scenario failed that is not listed, or a listed one now passes (then remove it).
npx -y "$conformance" client --command "$command" --suite all --expected-failures "$work/expected-failures.yml"
