#!/usr/bin/env bash
# Checks the server with clients no one here wrote: the MCP conformance suite over Streamable HTTP (one run
# per generic scenario) and the MCP Inspector CLI over stdio. Both need Node 22, which scripts/node22.sh
# fetches from the npm registry and caches inside the project (NODE22 names another launcher). Run after a
# build (`npm run conformance` builds first). Exit 0 only when everything passed.
set -uo pipefail
cd "$(dirname "$0")/.."

node22=${NODE22:-scripts/node22.sh}
[[ -x $node22 ]] || { echo "conformance: $node22 not found (set NODE22)" >&2; exit 2; }
"$node22" node --version >/dev/null || { echo "conformance: $node22 could not provide Node 22" >&2; exit 2; }
[[ -f dist/bin/dbops-mcp.js ]] || { echo "conformance: dist/bin/dbops-mcp.js missing; run npm run build" >&2; exit 2; }

scenarios=(server-initialize ping logging-set-level tools-list resources-list prompts-list
  completion-complete dns-rebinding-protection)

work=$(mktemp -d "${TMPDIR:-/tmp}/dbops-conformance.XXXXXX")
server_pid=
cleanup() {
  [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# Keep the audit log, secrets and state out of the user's directories (an HTTP server claims its state
# directory: another server of the user's may hold the default one); demo mode needs no other setting.
export DBOPS_AUDIT_LOG=$work/audit.log DBOPS_SECRETS_DIR=$work/secrets DBOPS_STATE_DIR=$work/state DBOPS_LOG_LEVEL=warn
export NO_COLOR=1 FORCE_COLOR=0 # plain failure logs

port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
node dist/bin/dbops-mcp.js serve --transport http --host 127.0.0.1 --port "$port" --demo \
  >"$work/server.out" 2>"$work/server.err" &
server_pid=$!
url=http://127.0.0.1:$port/mcp
for _ in $(seq 1 100); do
  node -e 'fetch(process.argv[1]).then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))' \
    "http://127.0.0.1:$port/healthz" && break
  kill -0 "$server_pid" 2>/dev/null || { echo "conformance: server exited:" >&2; cat "$work/server.err" >&2; exit 1; }
  sleep 0.1
done

failed=()
for s in "${scenarios[@]}"; do
  if "$node22" npx -y @modelcontextprotocol/conformance server --url "$url" --scenario "$s" \
    >"$work/$s.log" 2>&1; then
    echo "pass  $s"
  else
    echo "FAIL  $s"
    grep -v 'Unknown user config' "$work/$s.log" | tail -n 25 | sed 's/^/      /'
    failed+=("$s")
  fi
done

# Inspector CLI over stdio: it starts the server itself (demo mode) and prints JSON.
inspector() { "$node22" npx -y @modelcontextprotocol/inspector --cli node dist/bin/dbops-mcp.js serve --demo "$@"; }
if out=$(inspector --method tools/list 2>"$work/inspector.err") &&
  node -e 'const r=JSON.parse(process.argv[1]); if (!r.tools?.some((t)=>t.name==="list_alert_configs")) process.exit(1)' "$out"; then
  echo "pass  inspector tools/list ($(node -e 'console.log(JSON.parse(process.argv[1]).tools.length)' "$out") tools)"
else
  echo "FAIL  inspector tools/list"; tail -n 20 "$work/inspector.err" | sed 's/^/      /'; failed+=(inspector-tools-list)
fi
if out=$(inspector --method tools/call --tool-name list_alert_configs 2>"$work/inspector.err") &&
  node -e 'const r=JSON.parse(process.argv[1]); if (r.isError || !r.content?.[0]?.text?.includes("Alert configurations")) process.exit(1)' "$out"; then
  echo "pass  inspector tools/call list_alert_configs"
else
  echo "FAIL  inspector tools/call list_alert_configs"; echo "$out" | head -c 2000 | sed 's/^/      /'
  tail -n 20 "$work/inspector.err" | sed 's/^/      /'; failed+=(inspector-tools-call)
fi

if ((${#failed[@]})); then
  echo "conformance: ${#failed[@]} failed: ${failed[*]}" >&2
  exit 1
fi
echo "conformance: all ${#scenarios[@]} scenarios and the inspector smoke test passed"
