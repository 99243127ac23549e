#!/usr/bin/env bash
# Compiles and lints infra/main.bicep with the Bicep CLI from scripts/install-bicep.sh and fails on any
# diagnostic, warnings included (bicepconfig.json raises the security rules to errors as well).
# With the Azure CLI instead: az bicep build --file infra/main.bicep --stdout && az bicep lint --file infra/main.bicep
set -euo pipefail
cd "$(dirname "$0")/.."

bicep=.tools/bicep/bicep
if [ ! -x "$bicep" ]; then
  echo "check-bicep: $bicep is missing; run: bash scripts/install-bicep.sh" >&2
  exit 1
fi

status=0
for step in build lint; do
  if [ "$step" = build ]; then
    out="$("$bicep" build infra/main.bicep --stdout 2>&1 >/dev/null)" || status=1
  else
    out="$("$bicep" lint infra/main.bicep 2>&1)" || status=1
  fi
  if [ -n "$out" ]; then
    echo "$out" >&2
    status=1
  fi
done

if [ "$status" -ne 0 ]; then
  echo "check-bicep: bicep build/lint of infra/main.bicep reported problems (see above)" >&2
  exit 1
fi
echo "bicep build + lint: infra/main.bicep clean"
