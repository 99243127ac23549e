import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import {
  renderSettingsTable,
  replaceSettingsTable,
  settingRows,
  tableCells,
  tableEnd,
  tableStart,
} from '../../scripts/docs/renderSettingsTable';
import { settingNames, settings } from '../../src/config/settings';

const configurationDoc = readFileSync(
  resolve(import.meta.dirname, '..', '..', 'docs', 'configuration.md'),
  'utf8',
);
const wrap = (table: string) => `${tableStart}\n\n${table}\n\n${tableEnd}`;

describe('the settings table', () => {
  it('has one row per catalogue setting, in catalogue order, with default and example', () => {
    const cells = tableCells(wrap(renderSettingsTable()));
    expect(cells[0]).toEqual(['Setting', 'Default', 'Example', 'Meaning']);
    expect(cells.slice(1).map((row) => row[0])).toEqual(settingNames.map((n) => `\`${n}\``));
    const threshold = cells.find((row) => row[0] === '`BREAKER_THRESHOLD`');
    expect(threshold).toEqual([
      '`BREAKER_THRESHOLD`',
      '`100`',
      '`100`',
      settings.BREAKER_THRESHOLD.description,
    ]);
  });

  it('marks settings without a default and secret settings', () => {
    const rows = settingRows();
    expect(rows.find((r) => r.name === 'EVENTHUB_NAME')?.defaultValue).toBe('');
    expect(rows.find((r) => r.name === 'APPROVAL_SIGNING_KEY')?.description).toMatch(/\*\*Secret\.\*\*$/);
    expect(tableCells(wrap(renderSettingsTable())).find((r) => r[0] === '`EVENTHUB_NAME`')?.[1]).toBe('—');
  });

  it('escapes pipes so a description cannot break the table', () => {
    const table = renderSettingsTable([
      { name: 'X', defaultValue: 'a|b', example: 'e', description: 'one | two' },
    ]);
    expect(tableCells(wrap(table))[1]).toEqual(['`X`', '`a\\|b`', '`e`', 'one \\| two']);
  });

  it('replaces only what lies between the markers', () => {
    const doc = `# Title\n\n${tableStart}\nold\n${tableEnd}\n\nAfter.\n`;
    expect(replaceSettingsTable(doc, 'NEW')).toBe(
      `# Title\n\n${tableStart}\n\nNEW\n\n${tableEnd}\n\nAfter.\n`,
    );
    expect(() => replaceSettingsTable('# no markers', 'NEW')).toThrow(/lacks the markers/);
  });
});

describe('docs/configuration.md', () => {
  it('contains the table generated from the catalogue, up to date (npm run settings-table -- --write)', () => {
    expect(tableCells(configurationDoc)).toEqual(tableCells(wrap(renderSettingsTable())));
  });

  it('names every setting of the catalogue', () => {
    expect(settingNames.filter((name) => !configurationDoc.includes(`\`${name}\``))).toEqual([]);
  });
});
