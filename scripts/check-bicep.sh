#!/usr/bin/env bash
# Compiles and lints infra/main.bicep with the Bicep CLI from scripts/install-bicep.sh and fails on any
# diagnostic, warnings included (bicepconfig.json raises the security rules to errors as well), and when
# the committed infra/main.json is not what main.bicep compiles to; also each parameters variant in
# infra/variants/ (vnetEnabled true and false, and an existing network brought: byo-network).
# With the Azure CLI instead: az bicep build --file infra/main.bicep --stdout && az bicep lint --file infra/main.bicep
set -euo pipefail
cd "$(dirname "$0")/.."

bicep=.tools/bicep/bicep
if [ ! -x "$bicep" ]; then
  echo "check-bicep: $bicep is missing; run: bash scripts/install-bicep.sh" >&2
  exit 1
fi

fresh="$(mktemp)"
trap 'rm -f "$fresh"' EXIT
status=0
if ! out="$("$bicep" build infra/main.bicep --outfile "$fresh" 2>&1)" || [ -n "$out" ]; then
  echo "$out" >&2
  status=1
fi
if ! out="$("$bicep" lint infra/main.bicep 2>&1)" || [ -n "$out" ]; then
  echo "$out" >&2
  status=1
fi
# Parameter variants (infra/variants/*.bicepparam): the private-networking one (vnetEnabled, Redis), the
# public one (Table) and the bring-your-own-network one (existing subnets and private DNS zones) must each
# bind to main.bicep and lint clean; test/deploy/subnetNsg.test.ts checks what they switch on.
for variant in infra/variants/*.bicepparam; do
  if ! out="$("$bicep" build-params "$variant" --outfile "$fresh.params.json" 2>&1)" || [ -n "$out" ]; then
    echo "$variant: $out" >&2
    status=1
  fi
  if ! out="$("$bicep" lint "$variant" 2>&1)" || [ -n "$out" ]; then
    echo "$variant: $out" >&2
    status=1
  fi
done
rm -f "$fresh.params.json"
if [ "$status" -ne 0 ]; then
  echo "check-bicep: bicep build/lint of infra/main.bicep or a variant reported problems (see above)" >&2
  exit 1
fi
if ! cmp -s "$fresh" infra/main.json; then
  echo "check-bicep: infra/main.json is stale (it differs from what infra/main.bicep compiles to); regenerate it with: npm run build:infra" >&2
  exit 1
fi
echo "bicep build + lint: infra/main.bicep and its variants ($(ls infra/variants/*.bicepparam | wc -l)) clean; infra/main.json up to date"
