/** The sample sink refused a call because the fault switch is set: outage-like (a 503), on purpose. */
export class InjectedFaultError extends Error {
  readonly code = 'INJECTED_FAULT';
  override readonly name = 'InjectedFaultError';
  /** Read by classifyError like a storage 503, so the breaker counts it as the outage it simulates. */
  readonly statusCode = 503;
}
