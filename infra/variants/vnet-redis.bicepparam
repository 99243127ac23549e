// CI's private-networking variant (scripts/check-bicep.sh builds and lints it): vnetEnabled with the
// Redis store, so every private endpoint and DNS zone is in play. Not for deployment: azd uses
// main.parameters.json.
using '../main.bicep'

param environmentName = 'ci-vnet'
param location = 'westeurope'
param approvalSigningKey = readEnvironmentVariable('APPROVAL_SIGNING_KEY', 'ci-build-only-0123456789abcdef0123')
param approvers = 'oncall@example.com'
param breakerStore = 'redis'
param vnetEnabled = true
