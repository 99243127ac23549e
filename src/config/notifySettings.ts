import { baseUrl, boolean, emailAddress, emailList, integer, oneOf, signingKey, text } from './settingKinds';

/** Settings of the operator notices and approvals: email transport, approvers, approval links and reminders. */
export const notifySettings = {
  EMAIL_PROVIDER: oneOf(['acs', 'smtp', 'log'] as const, {
    description: 'How operators are emailed: Azure Communication Services, SMTP, or only logged.',
    default: 'log',
    example: 'smtp',
  }),
  EMAIL_SENDER: emailAddress({
    description: 'From address of breaker emails (an ACS verified sender in Azure).',
    default: 'breakwater@localhost',
    example: 'DoNotReply@example.com',
  }),
  APPROVERS: emailList({
    description: 'Operators who receive trip notices and approval links.',
    default: 'operator@localhost.test',
    example: 'oncall@example.com;lead@example.com',
  }),
  SMTP_HOST: text({
    description: 'SMTP server when EMAIL_PROVIDER=smtp (a mail catcher locally).',
    default: 'localhost',
    example: 'localhost',
  }),
  SMTP_PORT: integer({
    description: 'SMTP port when EMAIL_PROVIDER=smtp.',
    default: '1025',
    example: '1025',
    min: 1,
    max: 65_535,
  }),
  SMTP_SECURE: boolean({
    description: 'Use implicit TLS for SMTP (port 465 style).',
    default: 'false',
    example: 'false',
  }),
  ACS_ENDPOINT: baseUrl({
    description: 'Azure Communication Services endpoint when EMAIL_PROVIDER=acs (managed identity).',
    example: 'https://acs-breakwater.unitedstates.communication.azure.com',
  }),
  ACS_CONNECTION_STRING: text({
    description: 'ACS connection string, an alternative to ACS_ENDPOINT with managed identity.',
    example: 'endpoint=https://acs.example.communication.azure.com/;accesskey=...',
    secret: true,
  }),

  APPROVAL_SIGNING_KEY: signingKey({
    description: 'Current HMAC-SHA256 key that signs approval links (at least 32 characters).',
    example: 'generate-with-openssl-rand-base64-48-xxxxxxxxxxxxxxxx',
  }),
  APPROVAL_SIGNING_KEY_PREVIOUS: signingKey({
    description: 'Previous signing key, still accepted during a rotation.',
    example: 'the-key-you-are-rotating-away-from-xxxxxxxxxxxxxxxxx',
  }),
  APPROVAL_LINK_TTL_HOURS: integer({
    description: 'How long an emailed approval link stays valid.',
    default: '24',
    example: '24',
    min: 1,
    max: 720,
  }),
  APPROVAL_REMINDER_MINUTES: integer({
    description: 'Interval between reminder emails while a trip waits for approval.',
    default: '60',
    example: '60',
    min: 1,
    max: 10_080,
  }),
  APPROVAL_MAX_REMINDERS: integer({
    description: 'Reminders sent before the orchestration keeps waiting silently.',
    default: '3',
    example: '3',
    min: 0,
    max: 100,
  }),
  PUBLIC_BASE_URL: baseUrl({
    description:
      'Base URL of this app used in emailed links; defaults to https://WEBSITE_HOSTNAME in Azure, http://localhost:7071 locally.',
    example: 'http://localhost:7071',
  }),
} as const;
