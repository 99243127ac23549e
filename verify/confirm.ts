import { createInterface } from 'node:readline/promises';

/**
 * On a terminal, a question the operator answers (`yes` or `y` goes on, anything else, Ctrl-C at the
 * prompt or a stop does not); undefined when stdin is not a terminal: then only --yes goes on.
 */
export function terminalConfirm(
  input: NodeJS.ReadableStream & { readonly isTTY?: boolean },
  output: NodeJS.WritableStream,
  signal: AbortSignal,
): ((question: string) => Promise<boolean>) | undefined {
  if (input.isTTY !== true) return undefined;
  return async (question) => {
    const rl = createInterface({ input, output });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        rl.on('SIGINT', () => {
          resolve('');
        });
        rl.question(question, { signal }).then(resolve, reject);
      });
      return /^\s*y(es)?\s*$/i.test(answer);
    } catch {
      return false;
    } finally {
      rl.close();
    }
  };
}
