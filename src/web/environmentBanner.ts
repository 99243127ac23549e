import type { HttpHandler, HttpResponseInit } from '@azure/functions';
import escapeHtml from 'escape-html';

import { ENVIRONMENT_SLOT } from './pageResponse';

/**
 * Names the deployment on every HTML page a handler returns ("breakwater-prod"), in the title and above
 * the heading, so an operator with links from several environments knows which one this is.
 */
export function withEnvironment(environmentName: string | undefined, handler: HttpHandler): HttpHandler {
  if (environmentName === undefined) return handler;
  return async (request, context) => stamp(await handler(request, context), environmentName);
}

export function stamp(response: HttpResponseInit, environmentName: string): HttpResponseInit {
  if (typeof response.body !== 'string' || !response.body.includes(ENVIRONMENT_SLOT)) return response;
  const name = escapeHtml(environmentName);
  const body = response.body
    .replace(' · Breakwater</title>', ` · ${name} · Breakwater</title>`)
    .replace(ENVIRONMENT_SLOT, `<p class="env">Environment <strong id="environment">${name}</strong></p>`);
  return { ...response, body };
}
