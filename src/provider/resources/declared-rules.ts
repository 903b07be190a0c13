/**
 * The rules a configuration names, recorded as Terraform validates each resource (before any
 * plan), in the command's run directory (src/io/terraform-run.ts `declared`): the first metadata
 * search of a plan then fills its page with them, so N creates send ⌈N/page⌉ searches instead of
 * one per batch of Terraform's parallel plans (docs/provider.md). Only rule IDs and names the
 * configuration spells out as plain strings are recorded; nothing else is kept.
 */
import { TerraformRun } from "../../io/terraform-run";
import { messageOf } from "../../io/door-words";

/** The recorder of one provider process: each rule once. */
export class DeclaredRules {
  private readonly seen = new Set<string>();
  private terraformRun: TerraformRun | undefined;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly log: (line: string) => void,
  ) {}

  /** Records the rule a configuration names (by ID, by name, or both as written); a rule recorded already, or none, is no work. */
  record(ruleId: string | null, ruleName: string | null): void {
    if (ruleId === null && ruleName === null) return;
    const key = JSON.stringify([ruleId, ruleName]);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    try {
      this.terraformRun ??= TerraformRun.current(this.env);
      this.terraformRun.declare({ ruleId, ruleName });
    } catch (err) {
      // only a saving of searches is lost
      this.log(`[WARN] alertrules provider: could not record a declared rule: ${messageOf(err)}`);
    }
  }
}
