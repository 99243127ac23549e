// App Service authentication with Microsoft Entra ID in front of the function app, for signed-in
// approvers (APPROVAL_REQUIRE_SIGNED_IN). Unauthenticated requests are still let through: the Event Hubs
// trigger, the function-key operator API and the approval link all keep working; the approval page
// itself refuses a restart without a listed principal. The platform then sets X-MS-CLIENT-PRINCIPAL-*
// and strips any copy a client sends, which is what makes those headers trustworthy.
//
// The app registration is made outside this template (Bicep cannot create Entra applications): a web
// redirect URI https://<app>/.auth/login/aad/callback and ID tokens enabled (no client secret is used,
// so App Service signs users in with the ID token flow). docs/operations.md has the az commands.

param siteName string
@minLength(36)
@maxLength(36)
@description('Client id of the Entra app registration users sign in to.')
param clientId string
param tenantId string

resource site 'Microsoft.Web/sites@2024-11-01' existing = {
  name: siteName
}

resource auth 'Microsoft.Web/sites/config@2024-11-01' = {
  parent: site
  name: 'authsettingsV2'
  properties: {
    platform: {
      enabled: true
    }
    globalValidation: {
      requireAuthentication: false
      unauthenticatedClientAction: 'AllowAnonymous'
    }
    httpSettings: {
      requireHttps: true
    }
    identityProviders: {
      azureActiveDirectory: {
        enabled: true
        registration: {
          openIdIssuer: '${environment().authentication.loginEndpoint}${tenantId}/v2.0'
          clientId: clientId
        }
        validation: {
          allowedAudiences: ['api://${clientId}', clientId]
        }
      }
    }
    login: {
      // The session cookie is enough: the app reads the principal headers, never the provider's tokens.
      tokenStore: {
        enabled: false
      }
    }
  }
}
