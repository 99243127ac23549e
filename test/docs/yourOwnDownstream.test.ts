import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { makeVersionedStoreSink, memoryVersionedStore } from '../../docs/snippets/versionedStoreSink';
import { describeSinkContract, sinkContractChecks } from '../support/sinkContract';

const root = resolve(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(resolve(root, path), 'utf8');
const doc = read('docs/your-own-downstream.md');

// #region contract-test
// The doc's example sink keeps every promise (one line per sink you bring).
const store = memoryVersionedStore();
describeSinkContract('the example sink of docs/your-own-downstream.md', () => ({
  newSink: () => makeVersionedStoreSink(store),
  newUnreachableSink: () => makeVersionedStoreSink(memoryVersionedStore(false)),
  readBack: (homeId, sensorId) => {
    const row = store.peek(`${homeId}/${sensorId}`);
    return Promise.resolve(
      row && {
        partitionId: row.record.partitionId,
        sequenceNumber: row.record.sequenceNumber,
        revision: row.etag,
      },
    );
  },
}));
// #endregion contract-test

/** The text between `// #region name` and `// #endregion name` of a file, without common indentation. */
function region(path: string, name: string): string {
  const match = new RegExp(`// #region ${name}\\n([\\s\\S]*?)\\n[ \\t]*// #endregion ${name}\\n`).exec(
    read(path),
  );
  if (!match?.[1]) throw new Error(`${path} has no region ${name}`);
  const lines = match[1].split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}

/** Every fenced block of the doc, with the snippet marker on the line before it (if any). */
function fences(markdown: string) {
  const out: { lang: string; body: string; source: string | undefined }[] = [];
  const pattern = /(?:<!-- snippet: ([^ ]+) -->\n\n?)?```(\w*)\n([\s\S]*?)\n```/g;
  for (const m of markdown.matchAll(pattern)) out.push({ source: m[1], lang: m[2] ?? '', body: m[3] ?? '' });
  return out;
}

describe('docs/your-own-downstream.md', () => {
  const blocks = fences(doc);

  it('takes every code fragment from a file that is compiled and tested', () => {
    const unmarked = blocks.filter((b) => b.lang !== 'sh' && b.source === undefined);
    expect(unmarked.map((b) => b.body.split('\n')[0])).toEqual([]);
  });

  it('runs only commands on files that exist', () => {
    const commands = blocks.filter((b) => b.lang === 'sh').flatMap((b) => b.body.split('\n'));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      expect(command).toMatch(/^npx vitest run /);
      for (const file of command.split(' ').slice(3)) expect(existsIn(file), file).toBe(true);
    }
  });

  it('shows each fragment exactly as it stands in its file', () => {
    const sourced = blocks.filter((b) => b.source !== undefined);
    expect(sourced.length).toBeGreaterThanOrEqual(6);
    for (const block of sourced) {
      const [path = '', name] = block.source!.split('#');
      const expected = name === undefined ? read(path).trimEnd() : region(path, name);
      expect(block.body, block.source).toBe(expected);
    }
  });

  it('explains every promise of the contract suite, by the name a failure quotes', () => {
    const rows = [...doc.matchAll(/^\| ([a-z][^|]*?) +\| \*\*G/gm)].map((m) => m[1]);
    expect(rows).toEqual(sinkContractChecks.map((c) => c.promise));
  });

  it('names only settings of the catalogue and files that exist', async () => {
    const { settingNames } = await import('../../src/config/settings');
    const named = [...doc.matchAll(/`(SINK[A-Z_]*)`/g)].map((m) => m[1]);
    expect(named.filter((n) => !settingNames.includes(n as (typeof settingNames)[number]))).toEqual([]);
    const paths = [...doc.matchAll(/`((?:src|test|docs|infra)\/[\w./-]+\.(?:ts|md|json|bicep))`/g)].map(
      (m) => m[1]!,
    );
    expect(paths.filter((p) => !existsIn(p))).toEqual([]);
  });
});

function existsIn(path: string): boolean {
  try {
    read(path);
    return true;
  } catch {
    return false;
  }
}
