import type * as azureFunctions from '@azure/functions';
import { context as otelContext, propagation } from '@opentelemetry/api';
import { logs, SeverityNumber } from '@opentelemetry/api-logs';

import { categoryAttribute, functionAttribute, telemetryScope } from '../kernel/appEvent';
import { boundText } from '../kernel/boundText';
import { redactSecrets } from '../kernel/redactSecrets';
import { parseTelemetryLine } from '../kernel/telemetryNames';

const severities: Record<azureFunctions.LogLevel, SeverityNumber> = {
  trace: SeverityNumber.TRACE,
  debug: SeverityNumber.DEBUG,
  information: SeverityNumber.INFO,
  warning: SeverityNumber.WARN,
  error: SeverityNumber.ERROR,
  critical: SeverityNumber.FATAL,
  none: SeverityNumber.UNSPECIFIED,
};

/** The longest log message a record carries (Application Insights truncates a trace message at 32,768). */
const MAX_MESSAGE = 8_192;

/**
 * The worker's side of the Functions OpenTelemetry mode, in place of
 * `@azure/functions-opentelemetry-instrumentation` (docs/development.md, "Dependencies, and why", says why):
 * tells the host the worker exports (`WorkerOpenTelemetryEnabled`: the host then exports no `Function.*` logs
 * itself), turns each log of an invocation into one record with the function it came from, and makes the
 * invocation's trace the parent of the app's spans. Known secret shapes (keys, SAS, `token=`, `code=`) are
 * masked. A line that is an app event (`Breakwater.<Name> {…}`) is skipped: `emitEvent` already wrote its
 * record, with its fields as dimensions (one record per event). Which records leave the process is the level
 * filter's call (composition/telemetrySetup.ts, host.json levels). Call before the worker asks for the app's
 * capabilities (at module load, as runtime.ts does).
 */
export function exportWorkerLogs(functions: typeof azureFunctions): azureFunctions.Disposable {
  functions.app.setup({ capabilities: { WorkerOpenTelemetryEnabled: true } });
  const logger = logs.getLogger(telemetryScope);
  const onLog = functions.app.hook.log((hook) => {
    if (hook.category === 'customMetric' || hook.level === 'none') return;
    if (parseTelemetryLine(hook.message) !== undefined) return;
    const functionName = hook.invocationContext?.functionName;
    logger.emit({
      body: boundText(redactSecrets(hook.message), MAX_MESSAGE),
      severityNumber: severities[hook.level],
      severityText: hook.level,
      attributes: {
        ...(functionName === undefined ? {} : { [functionAttribute]: functionName }),
        [categoryAttribute]: logCategory(functionName, hook.category),
      },
    });
  });
  const onInvocation = functions.app.hook.preInvocation((hook) => {
    const trace = hook.invocationContext.traceContext;
    if (trace?.traceParent === undefined) return;
    const parent = propagation.extract(otelContext.active(), {
      traceparent: trace.traceParent,
      ...(trace.traceState === undefined ? {} : { tracestate: trace.traceState }),
    });
    hook.functionHandler = otelContext.bind(parent, hook.functionHandler);
  });
  return functions.Disposable.from(onLog, onInvocation);
}

/**
 * The category the host gives a log in host.json's terms (and in `customDimensions.Category` when the
 * host exports): a function's own logs `Function.<name>.User`, the library's `Function.<name>`, output
 * outside an invocation `Host.Function.Console`.
 */
export function logCategory(functionName: string | undefined, category: string): string {
  if (functionName === undefined) return 'Host.Function.Console';
  return category === 'user' ? `Function.${functionName}.User` : `Function.${functionName}`;
}
