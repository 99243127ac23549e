import { createRequire } from 'node:module';

/** The few parts of Microsoft's KQL language service (@kusto/language-service-next) the tests use. */
interface KustoDiagnostics {
  readonly Count: number;
  getItem(i: number): { readonly Severity: string; readonly Message: string; readonly Start: number };
}
interface KustoLanguage {
  readonly KustoCode: {
    ParseAndAnalyze(text: string, globals: unknown): { GetDiagnostics(): KustoDiagnostics };
  };
  readonly GlobalState: { readonly Default: { WithDatabase(db: unknown): unknown } };
  readonly Symbols: {
    readonly TableSymbol: { $ctor7: new (name: string, schema: string, description: string) => unknown };
    readonly DatabaseSymbol: { $ctor1: new (name: string, members: unknown[]) => unknown };
  };
}

// The service is a Bridge.NET build: bridge.js defines the runtime, then the library adds the global Kusto.
const require = createRequire(import.meta.url);
require('@kusto/language-service-next/bridge.js');
require('@kusto/language-service-next');
const kusto = (globalThis as unknown as { Kusto: { Language: KustoLanguage } }).Kusto.Language;

/**
 * The Application Insights tables the queries read, with the columns they use (the classic schema a
 * log alert scoped to the component and a workbook query see).
 */
const tables = {
  traces:
    '(timestamp:datetime, message:string, severityLevel:int, customDimensions:dynamic, operation_Id:string, cloud_RoleName:string, cloud_RoleInstance:string)',
  dependencies:
    '(timestamp:datetime, name:string, type:string, target:string, data:string, success:bool, resultCode:string, duration:real, customDimensions:dynamic, operation_Id:string)',
};

const globals = kusto.GlobalState.Default.WithDatabase(
  new kusto.Symbols.DatabaseSymbol.$ctor1(
    'applicationInsights',
    Object.entries(tables).map(([name, schema]) => new kusto.Symbols.TableSymbol.$ctor7(name, schema, '')),
  ),
);

/** The errors of one query, parsed and resolved against those tables: syntax, unknown names, types. */
export function kqlErrors(query: string): string[] {
  const diagnostics = kusto.KustoCode.ParseAndAnalyze(query, globals).GetDiagnostics();
  const errors: string[] = [];
  for (let i = 0; i < diagnostics.Count; i++) {
    const d = diagnostics.getItem(i);
    if (d.Severity === 'Error') errors.push(`${d.Message} (at ${d.Start})`);
  }
  return errors;
}
