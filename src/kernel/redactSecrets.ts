/**
 * Error messages in the failure sample come from SDKs and may quote connection strings, SAS URLs or
 * function keys. Emails leave the system, so known secret shapes are masked before rendering.
 */
const RULES: readonly (readonly [RegExp, string])[] = [
  [/\b(AccountKey|SharedAccessKey|SharedAccessSignature|accesskey|password|pwd)=[^;&\s"']+/gi, '$1=***'],
  [/([?&](?:sig|code|token|key)=)[^&\s"']+/gi, '$1***'],
  [/\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 ***'],
  [/\b(rediss?:\/\/[^:@/\s]*:)[^@\s]+@/gi, '$1***@'],
];

export function redactSecrets(text: string): string {
  return RULES.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}
