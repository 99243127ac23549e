import type { HttpResponseInit } from '@azure/functions';

import { html, raw, type SafeHtml } from './html';

/**
 * Headers of every HTML page: nothing but inline styles may load, forms may only post back here, no
 * framing, no caching (the page shows live state and carries a token), and no Referer leaking the token.
 */
export const pageSecurityHeaders: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
};

const styles = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; background: #f4f6f8; color: #1d2733; }
  main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
  h1 { font-size: 1.4rem; margin: .5rem 0 1rem; } h2 { font-size: 1.05rem; margin: 0 0 .6rem; }
  .card { background: #fff; border-radius: .5rem; padding: 1rem; margin: 0 0 1rem;
          box-shadow: 0 1px 3px rgba(0,0,0,.12); overflow-x: auto; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: 0; }
  dt { color: #5b6b7c; } dd { margin: 0; overflow-wrap: anywhere; }
  .badge { display: inline-block; padding: .15rem .6rem; border-radius: 1rem; font-weight: 600; color: #fff; }
  .CLOSED { background: #2e7d32; } .OPEN { background: #c62828; } .HALF_OPEN { background: #ef6c00; }
  .UNKNOWN { background: #607d8b; }
  .notice { border-left: .35rem solid #607d8b; } .notice.ok { border-color: #2e7d32; }
  .notice.warn { border-color: #ef6c00; } .notice.error { border-color: #c62828; }
  label { display: block; font-weight: 600; margin: .5rem 0 .25rem; }
  input[type=text] { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem;
                     border: 1px solid #9aa8b6; border-radius: .35rem; }
  button { margin-top: .8rem; padding: .7rem 1.4rem; font-size: 1rem; border: 0; border-radius: .35rem;
           background: #1565c0; color: #fff; cursor: pointer; }
  table { border-collapse: collapse; width: 100%; font-size: .9rem; }
  th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid #e1e6eb; vertical-align: top; }
  svg { width: 100%; height: auto; display: block; }
  small, .muted { color: #5b6b7c; }
  @media (max-width: 600px) {
    table.stack thead { display: none; }
    table.stack tr { display: block; padding: .4rem 0; border-bottom: 1px solid #e1e6eb; }
    table.stack td { display: block; border: 0; padding: .1rem 0; }
    table.stack td[data-label]::before { content: attr(data-label) ": "; color: #5b6b7c; }
  }
  code { overflow-wrap: anywhere; }
  .env { margin: 0; font-size: .85rem; color: #5b6b7c; text-transform: none; }
  ol { margin: .3rem 0 .6rem; padding-left: 1.3rem; } li { margin: .2rem 0; }
`;

/** Where `withEnvironment` names the deployment (an HTML comment until then). */
export const ENVIRONMENT_SLOT = '<!--breakwater:environment-->';

/**
 * A complete, self-contained HTML page (no external assets) with the security headers above.
 * `refreshSeconds` reloads the page (a meta refresh: no script is needed, so the CSP stays closed).
 */
export function htmlPage(
  status: number,
  title: string,
  body: SafeHtml,
  options: { refreshSeconds?: number } = {},
): HttpResponseInit {
  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        ${
          options.refreshSeconds === undefined
            ? ''
            : html`<meta http-equiv="refresh" content="${options.refreshSeconds}" />`
        }
        <title>${title} · Breakwater</title>
        <style>
          ${raw(styles)}
        </style>
      </head>
      <body>
        <main>
          ${raw(ENVIRONMENT_SLOT)}
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html> `;
  return { status, headers: { ...pageSecurityHeaders }, body: page.value };
}
