/**
 * The files `alert-rule-users init` writes: a ready cdktf app in TypeScript with one RuleUserList.
 * Pure: names and versions in, file paths and contents out (the CLI checks that none exists and
 * writes them).
 */
import { tsString } from "../import/import-code";

/** One file of the app, by its path relative to the app's directory (`/`-separated). */
export interface InitFile {
  readonly path: string;
  readonly content: string;
}

/** The dependency ranges the app gets: this package's peer ranges, and the runner of main.ts. */
export interface InitVersions {
  /** The Node.js versions the app runs on (its `engines.node`): this package's own. */
  readonly node: string;
  readonly cdktf: string;
  readonly constructs: string;
  /** cdktn, for `init --cdktn`: this package's peer range. */
  readonly cdktn: string;
  /** The `constructs` range of a cdktn app: the part of this package's that cdktn accepts. */
  readonly constructsForCdktn: string;
  readonly providerNull: string;
  readonly tsNode: string;
  readonly typescript: string;
  readonly typesNode: string;
}

export interface InitOptions {
  /** The directory's name, made into the package name. */
  readonly dirName: string;
  /**
   * What the app's package.json depends on for alert-rule-users: a range of the published package
   * (`^0.1.0`), a tarball (`file:../alert-rule-users-0.1.0.tgz`), a git URL.
   */
  readonly packageSpec: string;
  readonly versions: InitVersions;
  /**
   * The CDK the app is written for: cdktf (the default), or CDK Terrain (`cdktn`, cdktf's
   * maintained fork: main.ts imports `alert-rule-users/cdktn`, and the app depends on neither
   * cdktf nor @cdktf/provider-null).
   * @default "cdktf"
   */
  readonly framework?: "cdktf" | "cdktn";
  /**
   * The GitHub workflows to add under `.github/workflows/`, by their file name there
   * (`alert-rule-users-plan.yml`) with their text.
   * @default - none
   */
  readonly workflows?: readonly InitFile[];
}

/** The command that runs the app (cdktf.json's `app`): ts-node, without type checking, like `cdktf init`. */
export const INIT_APP_COMMAND = "npx ts-node --transpile-only main.ts";

/** The rule main.ts declares: the sample tenant's inclusion list that the simulator serves. */
const SAMPLE_RULE_ID = "a33e7c21-5cb0-4cf5-a266-852063111751";

/** An npm package name from a directory name: lower case, `-` for anything else; `alert-rules` when nothing is left. */
export function packageNameFor(dirName: string): string {
  const name = dirName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[._-]+|[-]+$/g, "")
    .slice(0, 214);
  return name === "" || name === "node_modules" || name === "favicon.ico" ? "alert-rules" : name;
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function packageJson(options: InitOptions): string {
  const v = options.versions;
  const cdktn = options.framework === "cdktn";
  return json({
    name: packageNameFor(options.dirName),
    version: "0.0.0",
    private: true,
    description: "The user lists of our security alert rules, kept in git (alert-rule-users)",
    scripts: {
      plan: "alert-rule-users plan",
      apply: "alert-rule-users apply",
      synth: "ts-node --transpile-only main.ts",
      typecheck: "tsc --noEmit",
    },
    dependencies: cdktn
      ? { "alert-rule-users": options.packageSpec, cdktn: v.cdktn, constructs: v.constructsForCdktn }
      : {
          "@cdktf/provider-null": v.providerNull,
          "alert-rule-users": options.packageSpec,
          cdktf: v.cdktf,
          constructs: v.constructs,
        },
    devDependencies: {
      "@types/node": v.typesNode,
      "ts-node": v.tsNode,
      typescript: v.typescript,
    },
    engines: { node: v.node },
  });
}

const CDKTF_JSON = json({
  language: "typescript",
  app: INIT_APP_COMMAND,
  sendCrashReports: "false",
  terraformProviders: [],
  terraformModules: [],
  context: {},
});

const TSCONFIG_JSON = json({
  compilerOptions: {
    target: "ES2022",
    module: "commonjs",
    moduleResolution: "node",
    lib: ["ES2022"],
    types: ["node"],
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
  },
  include: ["**/*.ts"],
  exclude: ["node_modules", "cdktf.out"],
});

const GITIGNORE = `node_modules/
cdktf.out/
.terraform/
terraform.tfstate*
# cdktf's local backend writes terraform.<stack>.tfstate: it holds every alias
terraform.*.tfstate*
# saved plans, apply reports and access reports (they name users; keep them out of git)
plan.json
plan.md
apply-report*.json
apply-report*.md
access-report/
access.html
access.csv
`;

/** The sample users main.ts declares (the simulator's sample tenant, Erin added). */
const SAMPLE_USERS = `        { userId: "908712345678901234", aliases: ["alice.nguyen@example.com", "alice.nguyen@eng.example.com"] },
        { userId: "908712345678901235", aliases: ["bob.okafor@example.com"] },
        { userId: "908712345678901236", aliases: ["carmen.diaz@example.com", "cdiaz@eng.example.com"] },
        { userId: "908712345678901237", aliases: ["dmitri.volkov@example.com"] },
        { userId: "908712345678901238", aliases: ["erin.walker@example.com"] },`;

/**
 * The policy main.ts declares: every alias in the tenant's domains, so a typo of a domain
 * (`alice.nguyen@exmaple.com`, `alice.nguyen@example`) is a plan error, not an alias swap.
 */
const SAMPLE_POLICY = `    // Checks every list of this stack must pass at plan time. An alias outside these domains (a typo
    // such as alice.nguyen@exmaple.com, or alice.nguyen@example) makes the plan an error naming the
    // user, and apply sends nothing: list your tenant's domains here.
    new RuleUserListPolicy(this, "guardrails", {
      allowedAliasDomains: ["example.com", "eng.example.com"],
    });`;

function mainTs(framework: "cdktf" | "cdktn"): string {
  const cdktn = framework === "cdktn";
  const resourceType = cdktn
    ? `      // terraform_data (the default from alert-rule-users/cdktn) is built into Terraform (1.4+):
      // \`terraform init\` needs no provider download.`
    : `      // terraform_data is built into Terraform (1.4+): \`terraform init\` needs no provider download
      // (the default, null_resource, needs hashicorp/null from the registry).
      resourceType: "terraform_data",`;
  return `/**
 * The user lists of our alert rules${cdktn ? ", as a CDK Terrain (cdktn) app" : ""}. \`npx --no alert-rule-users plan\` shows
 * what would change on the service, \`npx --no alert-rule-users apply\` converges it (review the
 * plan, then answer yes).
 *
 * The rule below is the sample tenant's that the simulator serves (\`npx --no alert-rule-users simulator\`).
 * For your tenant, list its rules with \`npx --no alert-rule-users rules list\`, or write the
 * declarations of every rule as they are now with
 * \`npx --no alert-rule-users import --all --out rule-user-lists.ts\` and call it from the stack.
 */
import { App, TerraformStack } from "${framework}";
import type { Construct } from "constructs";
import { RuleUserList, RuleUserListPolicy } from "${cdktn ? "alert-rule-users/cdktn" : "alert-rule-users"}";

class AlertRulesStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);

${SAMPLE_POLICY}

    // "Endpoint exfiltration - Engineering", an inclusion list (alerts only on these users). The
    // list becomes exactly these users (mode "authoritative", the default): Erin is added, anyone
    // else on the live list is removed. "additive" would only ever add.
    new RuleUserList(this, "engineering-exfiltration", {
      ruleId: ${tsString(SAMPLE_RULE_ID)},
${resourceType}
      users: [
${SAMPLE_USERS}
      ],
    });
  }
}

const app = new App();
new AlertRulesStack(app, "alert-rules");
app.synth();
`;
}

/** Every file of the app, in the order they are written and listed. */
export function initFiles(options: InitOptions): InitFile[] {
  return [
    { path: "package.json", content: packageJson(options) },
    { path: "cdktf.json", content: CDKTF_JSON },
    { path: "main.ts", content: mainTs(options.framework ?? "cdktf") },
    { path: "tsconfig.json", content: TSCONFIG_JSON },
    { path: ".gitignore", content: GITIGNORE },
    ...(options.workflows ?? []).map((w) => ({ path: `.github/workflows/${w.path}`, content: w.content })),
  ];
}
