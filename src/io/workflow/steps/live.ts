/**
 * Live reads that write nothing to the service: `import`, `rules list` and `who`. Each reads every
 * list it needs or fails naming the lists it could not read: never a partial answer.
 */
import type { ImportCode } from "../../../core/import/import-code";
import { generateImportCode } from "../../../core/import/import-code";
import type { ImportedRule } from "../../../core/import/import-code";
import { generateImportHcl } from "../../../core/import/import-hcl";
import type { ProviderConfigured } from "../../../core/import/import-hcl";
import { byNameThenId } from "../../../core/engine/canonical";
import type { DesiredList } from "../../../core/engine/desired";
import type { LiveRule, RuleRow, WhoMatch } from "../../../core/live/who";
import { findPeople, ruleRows } from "../../../core/live/who";
import { ImportError, LiveReadError } from "../../../errors";
import { readRuleLists, searchRules } from "../../observe";
import { TOOL_VERSION } from "../../version";
import type { Session } from "../session/session";

/**
 * Reads live rules (every rule of the tenant with ruleIds null) and generates their declarations.
 * Throws an ImportError, writing nothing, when a requested rule does not exist or a list cannot be read.
 * `fileName` (the module's file, as the user named it) goes into the header's command that runs it.
 */
export async function importRules(session: Session, ruleIds: readonly string[] | null, functionName: string, fileName?: string): Promise<ImportCode> {
  return generateImportCode(await readImported(session, ruleIds), { functionName, toolVersion: TOOL_VERSION, ...(fileName === undefined ? {} : { fileName }) });
}

/**
 * `import --format hcl`: the same live read, written as an HCL configuration of the native
 * provider (resources with their import blocks, the provider's blocks).
 */
export async function importRulesHcl(session: Session, ruleIds: readonly string[] | null, configured?: ProviderConfigured): Promise<ImportCode> {
  return generateImportHcl(await readImported(session, ruleIds), { providerVersion: TOOL_VERSION, toolVersion: TOOL_VERSION, ...(configured === undefined ? {} : { configured }) });
}

/** The requested rules (all with null) by name, each with its live list; an ImportError when one is missing or unreadable. */
async function readImported(session: Session, ruleIds: readonly string[] | null): Promise<ImportedRule[]> {
  const metadata = await searchRules(session.client, ruleIds, session.connection.tenantId, session.pageSize);
  if (ruleIds !== null) {
    const found = new Set(metadata.map((m) => m.observerRuleId));
    const missing = ruleIds.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new ImportError(`import: no rule with observerRuleId ${missing.join(", ")} in this tenant; nothing was written. Check the IDs (the rule search of the console shows them).`);
    }
  }
  const rules = [...metadata].sort(byNameThenId);
  const read = await readRuleLists(session.client, rules, {
    parallelism: session.parallelism,
    onProgress: (done, total) => session.onProgress?.("observe", done, total),
  });
  const failed = read.filter((r) => r.failure !== null);
  if (failed.length > 0) {
    throw new ImportError(
      "import: nothing was written: these rule lists could not be read:\n" +
        failed.map((r) => `  "${r.rule.name}" (${r.rule.observerRuleId}): ${r.failure ?? ""}`).join("\n") +
        "\nRun import again (the service may have been unavailable).",
    );
  }
  return read.map(({ rule, list }) => ({ rule, list }));
}

/**
 * Every rule of the tenant with its list, live: one metadata search (every page) and one
 * query-users per editable rule (system rules are not read). Throws a LiveReadError naming every
 * list that could not be read: `rules list` and `who` never print a partial answer.
 */
export async function readLiveRules(session: Session, command: string): Promise<LiveRule[]> {
  const metadata = await searchRules(session.client, null, session.connection.tenantId, session.pageSize);
  const read = await readRuleLists(session.client, metadata, {
    parallelism: session.parallelism,
    onProgress: (done, total) => session.onProgress?.("observe", done, total),
  });
  const failed = read.filter((r) => r.failure !== null);
  if (failed.length > 0) {
    throw new LiveReadError(
      `${command}: these rule lists could not be read, so the answer would be incomplete:\n` +
        failed.map((r) => `  "${r.rule.name}" (${r.rule.observerRuleId}): ${r.failure ?? ""}`).join("\n") +
        `\nRun ${command} again (the service may have been unavailable).`,
    );
  }
  return read.map(({ rule, list }) => ({ rule, list }));
}

/** `rules list`: every rule of the tenant, live, as rows. */
export async function listRules(session: Session): Promise<RuleRow[]> {
  return ruleRows(await readLiveRules(session, "rules list"));
}

/** `who`: where each query (alias or user ID) is, live; with `declared`, which constructs declare it. */
export async function findPeopleLive(queries: readonly string[], session: Session, declared: readonly DesiredList[] | undefined): Promise<WhoMatch[]> {
  return findPeople(queries, await readLiveRules(session, "who"), declared);
}
