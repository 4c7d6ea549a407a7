#!/usr/bin/env bash
# Start a local single-node Elasticsearch for fin-qa (tests, CI, users without a cluster).
#
#   scripts/start-elasticsearch.sh          # prints the node's URL as its last line
#   FIN_QA_ES_URL=$(scripts/start-elasticsearch.sh | tail -1)
#
# The distribution published on Maven Central (org.elasticsearch.distribution.integ-test-zip:elasticsearch,
# a zip without a bundled JDK) is fetched once into the cache with Maven, unpacked there, and started:
# on 127.0.0.1 only, single-node discovery, security off (loopback only), a small heap, and as a dedicated
# non-root user when this script runs as root (Elasticsearch refuses to run as root).
# Running it again while the node is up just prints the URL. scripts/stop-elasticsearch.sh stops it.
#
# Settings (environment):
#   FIN_QA_ES_VERSION  distribution version            (default 9.3.2; the Python client's major must match)
#   FIN_QA_ES_PORT     HTTP port                       (default 9200; the node's data folder is per port)
#   FIN_QA_ES_TRANSPORT_PORT  transport port           (default the HTTP port + 100)
#   FIN_QA_ES_HEAP     JVM heap                        (default 512m)
#   FIN_QA_CACHE       cache folder for the zip, the unpacked node and its data
#                      (default ~/.cache/fin-qa, or /var/cache/fin-qa when run as root)
#   FIN_QA_ES_USER     the user the node runs as when started by root (default fin-qa-es)
#   ES_JAVA_HOME       a JDK >= 21 (default: the newest >= 21 under /usr/lib/jvm, else `java` on PATH)
#   FIN_QA_ES_TIMEOUT  seconds to wait for the node to become healthy (default 180)
set -euo pipefail

VERSION=${FIN_QA_ES_VERSION:-9.3.2}
PORT=${FIN_QA_ES_PORT:-9200}
TRANSPORT_PORT=${FIN_QA_ES_TRANSPORT_PORT:-$((PORT + 100))}
HEAP=${FIN_QA_ES_HEAP:-512m}
ES_USER=${FIN_QA_ES_USER:-fin-qa-es}
TIMEOUT=${FIN_QA_ES_TIMEOUT:-180}
if [ "$(id -u)" = 0 ]; then
  CACHE=${FIN_QA_CACHE:-/var/cache/fin-qa}
else
  CACHE=${FIN_QA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fin-qa}
fi
URL="http://127.0.0.1:${PORT}"
DIST="$CACHE/elasticsearch-$VERSION"
STATE="$CACHE/es-node-$PORT"

die() { echo "start-elasticsearch: $*" >&2; exit 1; }
healthy() { curl -fsS -m 5 "$URL/_cluster/health?wait_for_status=yellow&timeout=1s" >/dev/null 2>&1; }

if healthy; then
  echo "Elasticsearch already running at $URL" >&2
  echo "$URL"
  exit 0
fi

# --- a JDK >= 21 ------------------------------------------------------------------------------
java_major() { "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p'; }
if [ -z "${ES_JAVA_HOME:-}" ]; then
  best=""; best_v=0
  for j in /usr/lib/jvm/*/bin/java $(command -v java 2>/dev/null || true); do
    [ -x "$j" ] || continue
    v=$(java_major "$j"); v=${v:-0}
    if [ "$v" -ge 21 ] && [ "$v" -gt "$best_v" ]; then best=$(dirname "$(dirname "$(readlink -f "$j")")"); best_v=$v; fi
  done
  [ -n "$best" ] || die "Elasticsearch $VERSION needs Java >= 21 and none was found (set ES_JAVA_HOME, or install a JDK 21+, e.g. apt-get install temurin-21-jdk or openjdk-21-jdk-headless)"
  export ES_JAVA_HOME=$best
fi
[ -x "$ES_JAVA_HOME/bin/java" ] || die "ES_JAVA_HOME=$ES_JAVA_HOME has no bin/java"

# --- the distribution, fetched once ----------------------------------------------------------
mkdir -p "$CACHE"
ZIP="$CACHE/elasticsearch-$VERSION.zip"
if [ ! -d "$DIST" ]; then
  if [ ! -f "$ZIP" ]; then
    command -v mvn >/dev/null || die "Maven (mvn) is needed to fetch the Elasticsearch distribution from Maven Central"
    echo "fetching org.elasticsearch.distribution.integ-test-zip:elasticsearch:$VERSION:zip from Maven Central" >&2
    mvn -q -U dependency:copy \
      "-Dartifact=org.elasticsearch.distribution.integ-test-zip:elasticsearch:$VERSION:zip" \
      "-DoutputDirectory=$CACHE" >&2 || die "could not fetch Elasticsearch $VERSION from Maven Central"
  fi
  tmp=$(mktemp -d "$CACHE/unpack.XXXXXX")
  unzip -q "$ZIP" -d "$tmp" || die "could not unpack $ZIP"
  mv "$tmp/elasticsearch-$VERSION" "$DIST"
  rmdir "$tmp"
fi

# --- the node's own folders: config, data, logs ------------------------------------------------
mkdir -p "$STATE/data" "$STATE/logs"
# the node's config written afresh at every start (this script's own: its settings are the ones given now)
rm -rf "$STATE/config"
if [ ! -d "$STATE/config" ]; then
  cp -r "$DIST/config" "$STATE/config"
  cat >> "$STATE/config/elasticsearch.yml" <<EOF

# --- fin-qa local node (scripts/start-elasticsearch.sh) ---
cluster.name: fin-qa-local
node.name: fin-qa-local-$PORT
network.host: 127.0.0.1
http.port: $PORT
transport.port: $TRANSPORT_PORT
discovery.type: single-node
path.data: $STATE/data
path.logs: $STATE/logs
xpack.security.enabled: false
cluster.routing.allocation.disk.threshold_enabled: false
action.destructive_requires_name: false
EOF
fi
PIDFILE="$STATE/elasticsearch.pid"

RUN=()
if [ "$(id -u)" = 0 ]; then
  if ! id "$ES_USER" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$ES_USER" 2>/dev/null \
      || useradd -r -M -s /bin/false "$ES_USER" || die "could not create the user $ES_USER"
  fi
  chown -R "$ES_USER" "$STATE"
  chmod o+rx "$CACHE"
  chmod -R o+rX "$DIST"
  RUN=(runuser -u "$ES_USER" --)
fi

echo "starting Elasticsearch $VERSION on $URL (heap $HEAP, java $ES_JAVA_HOME, logs in $STATE/logs)" >&2
rm -f "$PIDFILE"
"${RUN[@]}" env ES_JAVA_HOME="$ES_JAVA_HOME" ES_PATH_CONF="$STATE/config" \
  ES_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP ${FIN_QA_ES_JAVA_OPTS:-}" \
  "$DIST/bin/elasticsearch" -d -p "$PIDFILE" >"$STATE/logs/startup.out" 2>&1 \
  || { tail -20 "$STATE/logs/startup.out" >&2; die "Elasticsearch did not start (see $STATE/logs)"; }

for _ in $(seq 1 "$TIMEOUT"); do
  if healthy; then
    echo "Elasticsearch $VERSION is up (pid $(cat "$PIDFILE" 2>/dev/null || echo '?'))" >&2
    echo "$URL"
    exit 0
  fi
  if [ -f "$PIDFILE" ] && ! kill -0 "$(cat "$PIDFILE")" 2>/dev/null; then
    tail -20 "$STATE/logs/fin-qa-local.log" >&2 2>/dev/null || true
    die "Elasticsearch exited during start-up (see $STATE/logs)"
  fi
  sleep 1
done
die "Elasticsearch did not become healthy within ${TIMEOUT}s (see $STATE/logs)"
