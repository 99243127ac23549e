import { settingNames, settings } from '../../src/config/settings';

export const tableStart =
  '<!-- settings-table:start (generated from src/config/settings.ts: npm run settings-table -- --write) -->';
export const tableEnd = '<!-- settings-table:end -->';

export interface SettingRow {
  readonly name: string;
  readonly defaultValue: string;
  readonly example: string;
  readonly description: string;
}

/** One row per catalogue setting, in catalogue order. */
export function settingRows(): SettingRow[] {
  return settingNames.map((name) => {
    const spec = settings[name];
    const secret = 'secret' in spec && spec.secret;
    return {
      name,
      defaultValue: 'default' in spec && spec.default !== undefined ? spec.default : '',
      example: spec.example,
      description: secret ? `${spec.description} **Secret.**` : spec.description,
    };
  });
}

/** The configuration reference as a markdown table (before any prettier alignment). */
export function renderSettingsTable(rows: readonly SettingRow[] = settingRows()): string {
  const code = (text: string) => (text === '' ? '—' : `\`${text.replace(/`/g, "'")}\``);
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [
    '| Setting | Default | Example | Meaning |',
    '| --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${code(r.name)} | ${cell(code(r.defaultValue))} | ${cell(code(r.example))} | ${cell(r.description)} |`,
    ),
  ];
  return lines.join('\n');
}

/** Replaces what lies between the markers of `document` with `table`; throws when a marker is missing. */
export function replaceSettingsTable(document: string, table: string): string {
  const start = document.indexOf(tableStart);
  const end = document.indexOf(tableEnd);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`the document lacks the markers ${tableStart} ... ${tableEnd}`);
  }
  return `${document.slice(0, start + tableStart.length)}\n\n${table}\n\n${document.slice(end)}`;
}

/** The table rows between the markers, as trimmed cells (so prettier's column alignment does not matter). */
export function tableCells(markdown: string): string[][] {
  const start = markdown.indexOf(tableStart);
  const end = markdown.indexOf(tableEnd);
  const body = start === -1 || end === -1 ? '' : markdown.slice(start + tableStart.length, end);
  return body
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith('|') && !/^\|[\s:|-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}
