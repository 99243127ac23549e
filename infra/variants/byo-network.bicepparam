// CI's bring-your-own-network variant (scripts/check-bicep.sh builds and lints it, test/deploy checks its
// compiled template): existing subnets and private DNS zones of a landing zone, so the template creates
// no virtual network, no subnet and no privatelink.* zone. Not for deployment: azd uses
// main.parameters.json (EXISTING_APP_SUBNET_ID and the others there).
using '../main.bicep'

var hub = '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-connectivity/providers/Microsoft.Network'
var spoke = '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-spoke/providers/Microsoft.Network/virtualNetworks/vnet-spoke/subnets'

param environmentName = 'ci-byo'
param location = 'westeurope'
param approvalSigningKey = readEnvironmentVariable('APPROVAL_SIGNING_KEY', 'ci-build-only-0123456789abcdef0123')
param approvers = 'oncall@example.com'
param breakerStore = 'redis'
param existingAppSubnetId = '${spoke}/snet-breakwater-app'
param existingPrivateEndpointSubnetId = '${spoke}/snet-breakwater-pe'
param existingPrivateDnsZoneIds = {
  blob: '${hub}/privateDnsZones/privatelink.blob.core.windows.net'
  queue: '${hub}/privateDnsZones/privatelink.queue.core.windows.net'
  table: '${hub}/privateDnsZones/privatelink.table.core.windows.net'
  namespace: '${hub}/privateDnsZones/privatelink.servicebus.windows.net'
  vault: '${hub}/privateDnsZones/privatelink.vaultcore.azure.net'
  redisEnterprise: '${hub}/privateDnsZones/privatelink.redis.azure.net'
}
