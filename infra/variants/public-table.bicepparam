// CI's default variant (scripts/check-bicep.sh builds and lints it): public endpoints, Table store.
using '../main.bicep'

param environmentName = 'ci-public'
param location = 'westeurope'
param approvalSigningKey = readEnvironmentVariable('APPROVAL_SIGNING_KEY', 'ci-build-only-0123456789abcdef0123')
param approvers = 'oncall@example.com'
param breakerStore = 'table'
param vnetEnabled = false
