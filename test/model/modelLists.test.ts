import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

import { BREAKER_STATES } from '../../src/breaker/breakerStore';
import { NOTICE_CHANNELS } from '../../src/notify/channelList';
import { BreakerActivity, sendActivityName } from '../../src/orchestration/activityNames';
import { BREAKER_PHASES } from '../../src/orchestration/breakerStatus';

// The model checker proves things about model/breaker.pml, not about src/: these checks keep the two
// telling the same story. No SPIN needed (scripts/check-model.sh runs the checker itself).

const root = resolve(__dirname, '../..');
const model = readFileSync(join(root, 'model/breaker.pml'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}
const source = sourceFiles(join(root, 'src'))
  .map((path) => readFileSync(path, 'utf8'))
  .join('\n');

/** The names of `mtype:<name> = { a, b, … }` in the model, in order. */
function mtype(name: string): string[] {
  const match = new RegExp(`mtype:${name}\\s*=\\s*\\{([^}]*)\\}`).exec(model);
  if (match?.[1] === undefined) throw new Error(`the model declares no mtype:${name}`);
  return match[1].split(',').map((s) => s.trim());
}

/** Names after a tag (`@code name`, `@planned name`) in the model's comments. */
function tagged(tag: string): string[] {
  return [
    ...new Set([...model.matchAll(new RegExp(`@${tag}\\s+([A-Za-z_$][\\w$]*)`, 'g'))].map((m) => m[1]!)),
  ];
}

/** A function, method or constant of that name is declared somewhere in src/. */
function declaredInSource(name: string): boolean {
  const declaration = new RegExp(
    `(function\\*?\\s+${name}\\b|\\b(const|let)\\s+${name}\\b|^\\s*(async\\s+)?${name}\\s*[(:]|\\b${name}\\s*:\\s*(async\\s*)?\\()`,
    'm',
  );
  return declaration.test(source);
}

describe('the protocol model and the code', () => {
  it("declares the breaker's states as the store does", () => {
    expect(mtype('bstate')).toEqual([...BREAKER_STATES]);
  });

  it("declares the orchestration's phases in the status page's order", () => {
    expect(mtype('phase').map((p) => p.replace(/_/g, '-'))).toEqual([...BREAKER_PHASES]);
  });

  it("declares the orchestration's activities: the fixed ones and one send activity per channel", () => {
    const registered = [...Object.values(BreakerActivity), ...NOTICE_CHANNELS.map(sendActivityName)];
    expect(
      mtype('activity')
        .map((a) => `Breaker_${a.charAt(0).toUpperCase()}${a.slice(1)}`)
        .sort(),
    ).toEqual(registered.sort());
  });

  it('declares the outcomes of switching the trigger', () => {
    const outcomeType = readFileSync(join(root, 'src/control/triggerSwitchOutcome.ts'), 'utf8');
    const kinds = [...new Set([...outcomeType.matchAll(/kind: '([a-z]+)'/g)].map((m) => m[1]))];
    expect(mtype('outcome')).toEqual(kinds);
  });

  it('names, for each step, a function that exists in src/', () => {
    const names = tagged('code');
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((name) => !declaredInSource(name))).toEqual([]);
  });

  it('marks as planned only steps whose code has not landed (then they become @code)', () => {
    const planned = tagged('planned');
    expect(planned.filter((name) => declaredInSource(name))).toEqual([]);
  });
});
