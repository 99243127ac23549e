/**
 * Polls until `check` returns a value (not undefined), bounded. The extension is another process with
 * its own queue polling: there is nothing to await but its answers, so the harness asks every 200 ms.
 */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 30_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > until)
      throw new Error(
        `${what}: not within ${timeoutMs / 1000} s${last instanceof Error ? ` (last error: ${last.message})` : ''}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
