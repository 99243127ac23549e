import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { repoRoot } from './armTemplate';

interface WorkbookItem {
  readonly type: number;
  readonly name: string;
  readonly content: { readonly query?: string; readonly title?: string };
}

/** The query items of infra/core/workbook.json: title, query, the events it selects and the fields it reads. */
export function workbookQueries() {
  const workbook = JSON.parse(readFileSync(resolve(repoRoot, 'infra/core/workbook.json'), 'utf8')) as {
    items: WorkbookItem[];
  };
  return workbook.items
    .filter((i) => i.type === 3)
    .map((i) => {
      const query = i.content.query ?? '';
      return {
        title: i.content.title ?? i.name,
        query,
        events: [...query.matchAll(/customDimensions\.event\) == "([^"]+)"/g)].map((m) => m[1] ?? ''),
        fields: [...query.matchAll(/customDimensions\.(\w+)/g)]
          .map((m) => m[1] ?? '')
          .filter((f) => f !== 'event'),
      };
    });
}
