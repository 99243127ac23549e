#!/bin/sh
# azd postprovision hook (azure.yaml): where the operators find the app once `azd deploy` has run.
# The operator routes take the app's function key (header x-functions-key or ?code=); the approval page
# is opened from the emailed link, which carries its signed token.
set -eu

base="${SERVICE_API_URI:?SERVICE_API_URI is not set: the deployment did not output it}"
cat <<TEXT

Breakwater in ${AZURE_RESOURCE_GROUP:-its resource group}:
  dashboard      ${base}/api/breaker/dashboard
  status         ${base}/api/breaker/status
  approval page  ${base}/api/approve   (opened from the emailed link, which carries its token)
  function key   az functionapp keys list -g ${AZURE_RESOURCE_GROUP:-<group>} -n ${AZURE_FUNCTION_APP_NAME:-<app>} --query functionKeys.default -o tsv
TEXT
