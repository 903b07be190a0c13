/**
 * The rules a configuration names, recorded as Terraform validates each resource (before any
 * plan), in the command's run directory (src/io/terraform-run.ts `declared`): the first metadata
 * search of a plan then fills its page with them, so N creates send ⌈N/page⌉ searches instead of
 * one per batch of Terraform's parallel plans (docs/provider.md). Only rule IDs and names the
 * configuration spells out as plain strings are recorded; nothing else is kept.
 */
import type { TerraformRun } from "../../io/terraform-run";
import type * as TerraformRunModule from "../../io/terraform-run";
import type { ResourceType } from "../protocol";
import { messageOf } from "../../io/door-words";

/** `type` with its validate recording the rule each configuration names (once per rule and process). */
export function recordingDeclaredRules(type: ResourceType, env: NodeJS.ProcessEnv, log: (line: string) => void): ResourceType {
  const seen = new Set<string>();
  let terraformRun: TerraformRun | undefined;
  return {
    ...type,
    validate: (config) => {
      const ruleId = typeof config["rule_id"] === "string" ? config["rule_id"] : null;
      const ruleName = typeof config["rule_name"] === "string" ? config["rule_name"] : null;
      const key = JSON.stringify([ruleId, ruleName]);
      if ((ruleId !== null || ruleName !== null) && !seen.has(key)) {
        seen.add(key);
        try {
          /* eslint-disable-next-line @typescript-eslint/no-require-imports -- with the engine, after the handshake */
          terraformRun ??= (require("../../io/terraform-run") as typeof TerraformRunModule).TerraformRun.current(env);
          terraformRun.declare({ ruleId, ruleName });
        } catch (err) {
          // only a saving of searches is lost
          log(`[WARN] alertrules provider: could not record a declared rule: ${messageOf(err)}`);
        }
      }
      return type.validate?.(config) ?? [];
    },
  };
}
