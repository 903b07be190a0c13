/**
 * The declaration of `apply --from-env` (the provisioner of a RuleUserList): the list in the
 * environment, plus the app's rule declarations from the file the provisioner names
 * (`ALERT_RULE_USERS_DECLARED_RULES`, written at synth beside the stack's `cdk.tf.json`), so the
 * plan refuses a rule another construct of the app declares too. Without that variable (a
 * provisioner synthesized before it existed, a list applied by hand) the list is applied alone.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ENV_DECLARED_RULES, declarationFromEnv, decodeDeclaredRules } from "../core/declaration";
import type { DesiredList } from "../core/engine/desired";
import { DeclarationError } from "../errors";

export function declarationFromEnvironment(env: Readonly<Record<string, string | undefined>>, cwd: string): DesiredList {
  const declaration = declarationFromEnv(env);
  const named = env[ENV_DECLARED_RULES];
  if (named === undefined || named === "") return declaration;
  const file = resolve(cwd, named);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new DeclarationError([
      {
        path: declaration.constructPath,
        message: `${ENV_DECLARED_RULES} names ${file}, which could not be read (${reason}): run terraform in the stack's directory as synthesized (cdktf.out/stacks/${declaration.stack}), after synthesizing again; nothing was sent`,
      },
    ]);
  }
  return { ...declaration, declaredElsewhere: decodeDeclaredRules(text, file, declaration.constructPath) };
}
