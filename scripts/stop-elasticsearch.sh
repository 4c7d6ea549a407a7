#!/usr/bin/env bash
# Stop the node started by scripts/start-elasticsearch.sh (same FIN_QA_ES_PORT / FIN_QA_CACHE).
# Its data stays in the cache; pass --wipe to remove the node's data, logs and config as well.
set -euo pipefail
PORT=${FIN_QA_ES_PORT:-9200}
if [ "$(id -u)" = 0 ]; then
  CACHE=${FIN_QA_CACHE:-/var/cache/fin-qa}
else
  CACHE=${FIN_QA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fin-qa}
fi
STATE="$CACHE/es-node-$PORT"
PIDFILE="$STATE/elasticsearch.pid"

if [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
  pid=$(cat "$PIDFILE")
  kill "$pid"
  for _ in $(seq 1 60); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 1
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -9 "$pid" 2>/dev/null || true
  fi
  echo "stopped Elasticsearch (pid $pid) on port $PORT" >&2
else
  echo "no Elasticsearch started by fin-qa is running on port $PORT" >&2
fi
rm -f "$PIDFILE"
if [ "${1:-}" = "--wipe" ]; then
  rm -rf "$STATE"
  echo "removed $STATE" >&2
fi
