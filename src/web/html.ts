import escapeHtml from 'escape-html';

/** Markup that is already safe to emit: produced only by the `html` tag or `raw` below. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | undefined | readonly HtmlValue[];

/**
 * Tagged template that HTML-escapes every interpolated value (escape-html) unless it is already
 * SafeHtml, so no caller can forget to escape a trip reason, approver name or query string.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Trusted markup written by this code base (never data). */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

function render(value: HtmlValue): string {
  if (value === undefined) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}
