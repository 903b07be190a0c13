/** The declared lists: from the synthesized app, or (the Terraform path) from one provisioner's environment. */
import type { DesiredList } from "../../../core/engine/desired";
import { declarationFromEnvironment } from "../../declaration-from-env";
import { readDeclarations } from "../../read-synth-output";
import { readAppCommand, runSynth } from "../../synth";
import type { SynthSettings } from "../session/session";

/** Synthesizes (unless skipSynth) and reads the declared lists. */
export async function readDesired(settings: SynthSettings): Promise<DesiredList[]> {
  if (!settings.skipSynth) {
    const app = settings.app ?? readAppCommand(settings.cwd);
    await runSynth({ app, outdir: settings.outdir, cwd: settings.cwd, env: settings.env });
  }
  return readDeclarations(settings.outdir, settings.stacks.length > 0 ? { stacks: settings.stacks } : {});
}

/**
 * The one list of `apply --from-env` (what a RuleUserList's local-exec provisioner runs), decoded
 * and validated from the ALERT_RULE_USERS_* variables before any request, with the app's other
 * declarations (the stack's file the variable ALERT_RULE_USERS_DECLARED_RULES names, relative to
 * `cwd`) so that one rule declared by two constructs is refused there too.
 */
export function readDesiredFromEnv(env: NodeJS.ProcessEnv, cwd: string): DesiredList[] {
  return [declarationFromEnvironment(env, cwd)];
}
