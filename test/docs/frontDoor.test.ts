import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { repoRoot } from '../deploy/armTemplate';

/**
 * The statements in the README and the docs that went stale before: a command that no longer exists, a
 * link to a moved page, the Node version, the local hub's retention. Each is checked against its one source.
 */
const read = (file: string) => readFileSync(resolve(repoRoot, file), 'utf8');
const readme = read('README.md');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};
const nodeMajor = pkg.engines.node.replace(/\.x$/, '');

/** The Event Hubs emulator keeps events for one hour, a fixed limit (docs/operations.md cites the page). */
const EMULATOR_RETENTION_HOURS = 1;

/** The commands a page shows: its code blocks (comments dropped) and its inline code. */
function codeOf(markdown: string): string {
  const fence = /```[a-z]*\n([\s\S]*?)```/g;
  const blocks = [...markdown.matchAll(fence)].map((m) => (m[1] ?? '').replace(/#.*$/gm, ''));
  const prose = markdown.replace(fence, '');
  const inline = [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] ?? '');
  return [...blocks, ...inline].join('\n');
}

describe("the README's commands and links", () => {
  it('every `npm run <script>` and `npm <builtin-script>` it shows exists in package.json', () => {
    const code = codeOf(readme);
    const named = [...code.matchAll(/\bnpm (?:run )?([a-z][\w-]*(?::[\w-]+)*)/g)].map((m) => m[1] ?? '');
    const npmOwn = new Set(['install', 'ci', 'test', 'start', 'exec', 'i']);
    const scripts = named.filter((name) => !npmOwn.has(name) || name === 'test' || name === 'start');
    expect(scripts.length).toBeGreaterThan(5);
    const missing = scripts.filter((name) => pkg.scripts[name] === undefined);
    expect(missing).toEqual([]);
  });

  it('every `bash <file>` it shows exists', () => {
    const files = [...codeOf(readme).matchAll(/\bbash ([\w./-]+)/g)].map((m) => m[1] ?? '');
    expect(files).toContain('.ci/run');
    expect(files.filter((file) => !existsSync(resolve(repoRoot, file)))).toEqual([]);
  });

  it('every relative link of the README and the docs leads to a file that exists', () => {
    const pages = ['README.md', ...readdirMarkdown('docs')];
    const broken = pages.flatMap((page) =>
      [...read(page).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1] ?? '')
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(resolve(repoRoot, dirname(page), target)))
        .map((target) => `${page} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("every relative link's #anchor names a heading of the page it leads to", () => {
    const pages = ['README.md', ...readdirMarkdown('docs')];
    const broken = pages.flatMap((page) =>
      [...withoutCode(read(page)).matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)]
        .map((m) => ({ target: m[1] ?? '', anchor: m[2] ?? '' }))
        .filter(({ target }) => !/^[a-z]+:/.test(target))
        .map(({ target, anchor }) => ({
          file: target === '' ? page : `${dirname(page)}/${target}`,
          target,
          anchor,
        }))
        .filter(({ file, anchor }) => !anchorsOf(read(file)).includes(decodeURIComponent(anchor)))
        .map(({ target, anchor }) => `${page} -> ${target}#${anchor}`),
    );
    expect(broken).toEqual([]);
  });

  it('stays a front door: at most 1,500 words and 200 lines', () => {
    expect(readme.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(1500);
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });
});

describe('the statements that recur', () => {
  it('the Node version a reader is told to install is the one in engines', () => {
    // Measurement records ("Node 20.20.2" in a benchmark's machine line) are history, not instructions.
    const instructions = ['README.md', 'docs/operations.md', 'docs/demo.md'].flatMap((page) =>
      [...read(page).matchAll(/Node(?:\.js)? (\d+)(?![.\d])/g)].map((m) => ({ page, major: m[1] })),
    );
    expect(instructions.length).toBeGreaterThan(0);
    expect(instructions.filter((i) => i.major !== nodeMajor)).toEqual([]);
  });

  it("the local example's retention is the emulator's, so the deadline shown locally is real", () => {
    const example = JSON.parse(read('local.settings.json.example')) as { Values: Record<string, string> };
    expect(Number(example.Values.EVENTHUB_RETENTION_HOURS)).toBe(EMULATOR_RETENTION_HOURS);
    expect(read('docs/operations.md')).toMatch(/emulator keeps events for one hour/);
  });

  it('the Redis connection is named a plain setting, never a Key Vault secret', () => {
    const misplaced =
      /Redis (?:URL|connection)[^.]{0,40}Key Vault|Key Vault[^.]{0,40}Redis (?:URL|connection)/i;
    expect(['README.md', 'docs/operations.md'].filter((page) => misplaced.test(read(page)))).toEqual([]);
  });
});

/** A page without its fenced code blocks (a `#` line in a shell block is no heading). */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/**
 * The anchors GitHub gives a page's headings: the heading's text (inline code and emphasis marks and
 * link targets dropped) lower-cased, every character but letters, digits, spaces, hyphens and
 * underscores dropped, spaces turned into hyphens; a repeated one gets -1, -2, ...
 */
function anchorsOf(markdown: string): string[] {
  const seen = new Map<string, number>();
  return [...withoutCode(markdown).matchAll(/^#{1,6} +(.+?) *#* *$/gm)].map((m) => {
    const text = (m[1] ?? '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      // Inline code stays as written; outside it, `_` that opens or closes emphasis goes.
      .replace(/`([^`]*)`|(^|\s)_+|_+(?=\s|$)/g, (_, code?: string, before?: string) => code ?? before ?? '');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    return count === 0 ? slug : `${slug}-${count}`;
  });
}

function readdirMarkdown(folder: string): string[] {
  return readdirSync(resolve(repoRoot, folder))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `${folder}/${name}`);
}
