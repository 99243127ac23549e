import type { VerifyOptions } from './args';
import { type Environment, selectedAzdEnvironment } from './azure/azdEnvironment';

/** `--target`, else azure when an azd environment is selected, else local. */
export function chooseTarget(options: VerifyOptions, cwd: string, env: Environment): 'azure' | 'local' {
  if (options.target !== undefined) return options.target;
  try {
    return selectedAzdEnvironment(cwd, env, options.env) === undefined ? 'local' : 'azure';
  } catch {
    // A broken .azure/config.json means someone meant azure: let that target say what is wrong.
    return 'azure';
  }
}
