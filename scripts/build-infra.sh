#!/usr/bin/env bash
# Compiles infra/main.bicep into infra/main.json, the ARM template that is committed so that `npm test`
# needs no Bicep CLI (the deploy tests read it). Run it after every change under infra/:
#   npm run build:infra
# Installs the Bicep CLI into .tools/bicep first when it is missing (scripts/install-bicep.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-bicep.sh >/dev/null
.tools/bicep/bicep build infra/main.bicep --outfile infra/main.json
echo "infra/main.json rebuilt from infra/main.bicep"
