#!/bin/sh
# azd preprovision hook (azure.yaml): what `azd up` needs before infra/main.bicep can be deployed.
# - APPROVAL_SIGNING_KEY: generated (48 random bytes, base64) when the environment has none. Keep it:
#   pending approval links are signed with it, and a new key would make them fail.
# - APPROVERS: cannot be guessed; without it the hook stops with the command to run.
# azd passes the environment's values to hooks as environment variables.
set -eu

if [ -z "${APPROVAL_SIGNING_KEY:-}" ]; then
  key="$(node -e "process.stdout.write(require('node:crypto').randomBytes(48).toString('base64'))")"
  azd env set APPROVAL_SIGNING_KEY "$key"
  echo "preprovision: APPROVAL_SIGNING_KEY was not set: generated one (48 random bytes) in this azd environment; keep it (pending approval links are signed with it)"
fi

if [ -z "${APPROVERS:-}" ]; then
  echo "preprovision: APPROVERS is not set: run  azd env set APPROVERS \"oncall@example.com;second@example.com\"  (who is emailed when the breaker trips)" >&2
  exit 1
fi
