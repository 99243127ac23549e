import { z } from 'zod';

/** Where the app answers and the key its operator API takes (never printed). */
export interface AppEndpoint {
  readonly baseUrl: string;
  readonly functionKey: string;
}

/** The fields of `GET /api/breaker/status` the run reads; anything else is ignored. */
const statusSchema = z.object({
  state: z.string().nullable(),
  tripId: z.string().nullable(),
  phase: z.string().nullable(),
  triggerDisabled: z.boolean().nullable().optional(),
  downstream: z.object({ healthy: z.boolean().nullable(), line: z.string() }).nullable().optional(),
  held: z
    .object({ known: z.boolean(), total: z.number().optional(), line: z.string().optional() })
    .nullable()
    .optional(),
});
export type AppStatus = z.infer<typeof statusSchema>;

/** The app answered something the run cannot use (a wrong key, an app that is down). */
export class AppCallError extends Error {
  readonly code = 'APP_CALL';
  override readonly name = 'AppCallError';
  /** True when the call got no answer within its bound (rather than a wrong one). */
  readonly noAnswer: boolean;
  constructor(message: string, options: { readonly noAnswer?: boolean } = {}) {
    super(message);
    this.noAnswer = options.noAnswer === true;
  }
}

const TIMEOUT_MS = 20_000;

/** The operator API (function key in a header, never in a printed URL) and the public approval page. */
export function makeAppClient(app: AppEndpoint, options: { readonly timeoutMs?: number } = {}) {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const url = (path: string) => `${app.baseUrl.replace(/\/+$/, '')}/api/${path}`;
  /** One request and its body within the bound; a call that gets no answer says which call it was. */
  const timed = async (what: string, request: (signal: AbortSignal) => Promise<Response>) => {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await request(signal);
      return { status: res.status, text: await res.text() };
    } catch (error) {
      if (!signal.aborted) throw error;
      throw new AppCallError(`${what}: no answer within ${timeoutMs / 1000} s`, { noAnswer: true });
    }
  };
  const call = (method: string, path: string, body?: unknown) =>
    timed(`${method} /api/${path}`, (signal) =>
      fetch(url(path), {
        method,
        headers: { 'x-functions-key': app.functionKey, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        // The key goes to the app's host only: fetch would carry this header across a redirect.
        redirect: 'error',
        signal,
      }),
    );
  const expectOk = (what: string, r: { status: number; text: string }, ok: number[] = [200]) => {
    if (!ok.includes(r.status)) throw new AppCallError(`${what}: HTTP ${r.status} ${r.text.slice(0, 200)}`);
    return r;
  };
  const status = async (): Promise<AppStatus> => {
    const r = expectOk('GET /api/breaker/status', await call('GET', 'breaker/status'));
    return statusSchema.parse(JSON.parse(r.text));
  };
  return {
    status,
    /**
     * The run's first call. An app that is starting (a cold start on a Consumption plan, a deployment
     * just swapped in) may miss the bound: up to `tries` calls, each retry said through `progress`.
     */
    async firstStatus(tries: number, progress: (line: string) => void): Promise<AppStatus> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await status();
        } catch (error) {
          if (!(error instanceof AppCallError) || !error.noAnswer || attempt >= tries) throw error;
          progress(
            `${error.message}; the app may still be starting: trying again (${attempt + 1} of ${tries})`,
          );
        }
      }
    },
    /** Whether the fault switch endpoint answers (after the app restarted with FAULT_SWITCH_ENABLED). */
    async faultSwitchAnswers(): Promise<boolean> {
      return (await call('GET', 'breaker/fault')).status === 200;
    },
    /** Whether a fault is in force (false too when the switch is off: nothing can be down then). */
    async faultDown(): Promise<boolean> {
      const r = await call('GET', 'breaker/fault');
      if (r.status === 404) return false;
      return (JSON.parse(expectOk('GET /api/breaker/fault', r).text) as { down?: unknown }).down === true;
    },
    async setFault(down: boolean, minutes: number, by: string): Promise<void> {
      const body = down ? { down, minutes, by } : { down, by };
      expectOk('POST /api/breaker/fault', await call('POST', 'breaker/fault', body));
    },
    /** Break-glass reset (cleanup only): closes the circuit and enables the trigger. */
    async forceReset(by: string): Promise<number> {
      return (await call('POST', 'breaker/reset', { by, force: true })).status;
    },
    /**
     * Approves like an operator: opens the link (a GET changes nothing), then submits the page's form.
     * Returns the POST's status and the page's text (without the token).
     */
    async approve(
      link: string,
      approver: string,
    ): Promise<{ getStatus: number; postStatus: number; page: string }> {
      // Named without the link: it carries the token.
      const get = await timed('GET approval page', (signal) => fetch(link, { signal }));
      const token = new URL(link).searchParams.get('token') ?? '';
      const post = await timed('POST approval page', (signal) =>
        fetch(new URL('approve', link), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token, approver }).toString(),
          signal,
        }),
      );
      return {
        getStatus: get.status,
        postStatus: post.status,
        page: post.text.replaceAll(token, '…'),
      };
    },
  };
}

export type AppClient = ReturnType<typeof makeAppClient>;
