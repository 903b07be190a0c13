/**
 * The tenant seed: the file format of examples/sample-tenant.json and of the simulator's
 * `--data` file (the persisted state is written in the same format, so it can be reloaded).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { ConfigError } from "../errors";
import { RULE_SOURCES, USERS_TO_ALERT_ON, ruleMetadataSchema, type RuleMetadata, type UsersToAlertOn } from "../api/rules/schemas";
import { describeIssues } from "./http-error";
import { seedAlertsSchema, seedCasesSchema, seedFileEventsSchema } from "./triage/seed";

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{7}Z$/;

const seedUserSchema = z.object({
  userIdFromAuthority: z.string().nullable(),
  userAliasList: z.array(z.string().trim().min(1, "an alias must not be empty")).min(1, "a user needs at least one alias"),
});

const seedRuleMetadataSchema = ruleMetadataSchema.extend({
  type$: z.literal("RULE_METADATA").default("RULE_METADATA"),
  /** @default - the seed's tenantId (the simulator always reports the tenant it serves) */
  tenantId: z.string().optional(),
  ruleSource: z.string().refine((source) => (RULE_SOURCES as readonly string[]).includes(source), { message: `one of ${RULE_SOURCES.join(", ")}` }),
  createdAt: z.string().regex(TIMESTAMP, "a timestamp like 2026-01-31T09:00:00.0000000Z"),
  modifiedAt: z.string().regex(TIMESTAMP, "a timestamp like 2026-01-31T09:00:00.0000000Z"),
});

const seedRuleSchema = z.object({
  metadata: seedRuleMetadataSchema,
  usersToAlertOn: z.enum(USERS_TO_ALERT_ON),
  users: z.array(seedUserSchema).default([]),
});

/** Zod schema of a tenant seed (and of the persisted data file). */
export const tenantSeedSchema = z
  .object({
    tenantId: z.string().trim().min(1),
    rules: z.array(seedRuleSchema),
    // The records of the alert, case and file-event routes (src/simulator/triage/seed.ts).
    alerts: seedAlertsSchema.optional(),
    cases: seedCasesSchema.optional(),
    fileEvents: seedFileEventsSchema.optional(),
  })
  .superRefine((seed, ctx) => {
    // Metadata IDs and rule IDs are all distinct: a rule is addressed by its observerRuleId.
    const seen = new Map<string, string>();
    seed.rules.forEach((rule, index) => {
      for (const field of ["id", "observerRuleId"] as const) {
        const value = rule.metadata[field];
        const where = `rules[${index}].metadata.${field}`;
        const owner = seen.get(value);
        if (owner !== undefined) {
          ctx.addIssue({ code: "custom", path: ["rules", index, "metadata", field], message: `"${value}" is already used by ${owner}` });
        } else {
          seen.set(value, where);
        }
      }
      if (rule.usersToAlertOn === "ALL_USERS" && rule.users.length > 0) {
        ctx.addIssue({ code: "custom", path: ["rules", index, "users"], message: "a rule that monitors ALL_USERS has no user list; leave it empty" });
      }
    });
  });

/** A tenant seed as written (defaults not yet applied). */
export type TenantSeed = z.input<typeof tenantSeedSchema>;
/** A validated tenant seed (defaults applied). */
export type ParsedTenantSeed = z.output<typeof tenantSeedSchema>;

/** A user bag as the simulator stores it. */
export interface SimUser {
  userIdFromAuthority: string | null;
  userAliasList: string[];
}

/** One rule of the simulated tenant: its metadata, whom it monitors, and its user list. */
export interface SimRule {
  metadata: RuleMetadata;
  usersToAlertOn: UsersToAlertOn;
  users: SimUser[];
}

/** Validates a seed; throws a ConfigError naming every offending field. */
export function parseSeed(seed: unknown, source = "seed"): ParsedTenantSeed {
  const result = tenantSeedSchema.safeParse(seed);
  if (!result.success) {
    throw new ConfigError(`Invalid tenant ${source}: ${describeIssues(result.error.issues)}`);
  }
  return result.data;
}

/** Reads and validates a seed (or data) file; errors name the file and the offending fields. */
export function loadSeedFile(file: string): TenantSeed {
  return parseSeedFile(file);
}

/** {@link loadSeedFile} with the defaults applied. */
export function parseSeedFile(file: string): ParsedTenantSeed {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`Cannot read tenant seed file ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Tenant seed file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return parseSeed(json, `seed file ${file}`);
}

const SAMPLE_RELATIVE = path.join("examples", "sample-tenant.json");

/**
 * The sample tenant shipped with the package. Found by walking up from this module's folder, so
 * it works from src/simulator (ts-jest, ts-node) and from dist/src/simulator (built package).
 */
export function sampleTenantPath(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, SAMPLE_RELATIVE);
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new ConfigError(`Cannot find ${SAMPLE_RELATIVE} above ${__dirname}; pass a seed or a seed file explicitly.`);
}
