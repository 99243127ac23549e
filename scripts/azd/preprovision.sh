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

# ALERT_RUNBOOK_BASE_URL: the alerts link to their sections of docs/telemetry.md. Unset, it is derived from
# this clone's git remote (a GitHub remote's web view of docs/telemetry.md on its default branch).
if [ -z "${ALERT_RUNBOOK_BASE_URL:-}" ]; then
  remote="$(git remote get-url origin 2>/dev/null || true)"
  web="$(printf '%s' "$remote" | sed -E 's#^git@([^:]+):#https://\1/#; s#\.git$##')"
  case "$web" in
    https://*)
      azd env set ALERT_RUNBOOK_BASE_URL "$web/blob/HEAD/docs/telemetry.md"
      echo "preprovision: ALERT_RUNBOOK_BASE_URL set to $web/blob/HEAD/docs/telemetry.md (from the git remote)"
      ;;
    *) echo "preprovision: ALERT_RUNBOOK_BASE_URL is not set and no https git remote: alerts link to the relative docs/telemetry.md; set it with  azd env set ALERT_RUNBOOK_BASE_URL <url of docs/telemetry.md>" ;;
  esac
fi

# Flex Consumption is offered in some regions only, and the list changes: ask Azure (the Azure CLI),
# and stop with a clear message when AZURE_LOCATION is not among them. Skipped without the Azure CLI.
if [ -n "${AZURE_LOCATION:-}" ] && command -v az >/dev/null 2>&1; then
  if regions="$(az functionapp list-flexconsumption-locations --query '[].name' -o tsv 2>/dev/null)" && [ -n "$regions" ]; then
    if ! printf '%s\n' "$regions" | tr -d ' ' | tr 'A-Z' 'a-z' | grep -qx "$(printf '%s' "$AZURE_LOCATION" | tr -d ' ' | tr 'A-Z' 'a-z')"; then
      echo "preprovision: region $AZURE_LOCATION does not offer the Flex Consumption plan; pick one of: $(printf '%s' "$regions" | tr '\n' ' ') (azd env set AZURE_LOCATION <region>)" >&2
      exit 1
    fi
  fi
fi
