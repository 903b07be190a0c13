/**
 * The rules an app declares, one entry per RuleUserList: what the Terraform path needs to refuse
 * one rule declared by two constructs, as `plan` does. The construct writes the whole app's list
 * once per stack, into a file beside the stack's `cdk.tf.json` ({@link DECLARED_RULES_FILE}), and
 * each provisioner names it in {@link ENV_DECLARED_RULES}. The provisioner applies one list; after
 * it has read its rule (which it does anyway) it knows both the rule's ID and its name, and
 * {@link declaredAgain} finds another construct that declares the same rule the other way (by ID
 * when this one is by name, by name when this one is by ID). Same ID or same name twice in one app
 * fails synth already (see {@link duplicateKey}).
 */
import { z } from "zod";
import { DeclarationError } from "../../errors";
import type { RuleReference } from "./desired";

export type { RuleReference } from "./desired";

/** The file, in the stack's working directory, that lists the app's rule declarations. */
export const DECLARED_RULES_FILE = "alert-rule-users.rules.json";
/** The provisioner's variable that names {@link DECLARED_RULES_FILE} (relative to Terraform's working directory). */
export const ENV_DECLARED_RULES = "ALERT_RULE_USERS_DECLARED_RULES";
/** The format of the file. */
export const DECLARED_RULES_FORMAT = 1;

const fileSchema = z
  .object({
    format: z.literal(DECLARED_RULES_FORMAT),
    rules: z.array(z.object({ constructPath: z.string(), ruleId: z.string().nullable(), ruleName: z.string().nullable() }).strict()),
  })
  .strict();

/** The key under which two declarations are the same rule at synth: the same ID, or the same name. */
export function duplicateKey(reference: Pick<RuleReference, "ruleId" | "ruleName">): string | null {
  if (reference.ruleId !== null && reference.ruleId !== "") return `id:${reference.ruleId}`;
  if (reference.ruleName !== null && reference.ruleName !== "") return `name:${reference.ruleName}`;
  return null;
}

/** The file's text for these declarations (sorted by construct path, so the same app writes the same file). */
export function encodeDeclaredRules(references: readonly RuleReference[]): string {
  const rules = [...references]
    .sort((a, b) => (a.constructPath < b.constructPath ? -1 : a.constructPath > b.constructPath ? 1 : 0))
    .map((r) => ({ constructPath: r.constructPath, ruleId: r.ruleId, ruleName: r.ruleName }));
  return JSON.stringify({ format: DECLARED_RULES_FORMAT, rules }) + "\n";
}

/**
 * The declarations in the file's `text`. Throws a DeclarationError, at `constructPath`, naming
 * `source` when the text is not such a file or does not list `constructPath` itself (a file from
 * another synth than the stack Terraform applies).
 */
export function decodeDeclaredRules(text: string, source: string, constructPath: string): RuleReference[] {
  const fail = (why: string): never => {
    throw new DeclarationError([
      { path: constructPath, message: `${source} ${why}; synthesize again with this version of alert-rule-users (cdktf synth) and run terraform apply from the stack's directory` },
    ]);
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return fail("is not JSON");
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) return fail(`is not a list of the app's rule declarations (format ${DECLARED_RULES_FORMAT})`);
  if (!parsed.data.rules.some((r) => r.constructPath === constructPath)) return fail(`does not list this RuleUserList (${constructPath})`);
  return parsed.data.rules;
}

/**
 * The other constructs of the app that declare the rule `rule` is (after it was read: its resolved
 * ID and the name the service reports): same ID, or same name, at another construct path.
 */
export function declaredAgain(rule: RuleReference, elsewhere: readonly RuleReference[]): RuleReference[] {
  return elsewhere.filter(
    (other) =>
      other.constructPath !== rule.constructPath &&
      ((other.ruleId !== null && other.ruleId === rule.ruleId) || (other.ruleName !== null && other.ruleName === rule.ruleName)),
  );
}
