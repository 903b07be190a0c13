/**
 * `alert-rule-users doctor`: one line per check of what a first run needs, each failure with what
 * to do (src/io/workflow/runs/doctor.ts observes, src/core/doctor/doctor.ts decides). Exit 0 only when every
 * check passed or did not apply.
 */
import { shownJson } from "../../core/render";
import { resolve } from "node:path";
import { doctorRun } from "../../io/workflow";
import type { DoctorCheck } from "../../core/doctor/doctor";
import { intFlag, oneOf, parse } from "../args";
import type { Command, Io } from "../io";
import { cliReporter } from "../reporter";

const FORMATS = ["text", "json"] as const;
const MARK = { pass: "ok  ", fail: "FAIL", skip: "skip" } as const;

export const doctorCommand: Command = {
  name: "doctor",
  summary: "Check Node.js, the connection, the token, the tenant, Terraform, the provider and the app",
  help: `Usage: alert-rule-users doctor [flags]

Checks, one line each, with what to do when one fails:
  node        the Node.js version against the supported range (engines)
  base-url    the base URL: http(s), no /v1 at the end (the client adds it)
  connection  the service answers: DNS, TLS (https against a plain-HTTP server), a refused port
  token       the token reads (one rule-metadata search of page size 1; no write is sent)
  tenant      the service accepts the tenant for this token
  rate        no 429 (Retry-After) while reading
  terraform   terraform on PATH, 1.5 or later
  provider    the provider where terraform init looks (./terraform.d/plugins/...), where a
              Terraform configuration (*.tf) is
  app         cdktf.json and its app command
  synth       the app synthesizes (into a temporary directory: cdktf.out is left alone)
With --github OWNER/REPO, also (a token of the repository in GITHUB_TOKEN, which may read its
secrets and environments; GitHub's API at GITHUB_API_URL, default https://api.github.com):
  github-secrets      no secret the workflows read is a repository or organization secret (those
                      reach every workflow any branch pushes)
  github-environment  the environment (alert-rules) deploys from the default branch only and holds
                      the token and the plan key
A check that does not apply here (no cdktf.json: app and synth) is skipped with its reason.

Flags:
  --format FORMAT     text (default) or json: {"ok", "checks": [{"check", "status", "message", "fix"}]}
  --app CMD           the app command (default: "app" of ./cdktf.json)
  --timeout SECONDS   how long the read may take (default 30)
  --github OWNER/REPO check where the workflows' secrets are (above)
  --environment NAME  the workflows' environment (default alert-rules)
  --base-url URL, --tenant-id ID, --token-file FILE, --token-command CMD
  -h, --help

Exit codes: 0 every check passed or was skipped, 1 a check failed.
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parse("doctor", argv, {
      "base-url": { type: "string" },
      "tenant-id": { type: "string" },
      "token-file": { type: "string" },
      "token-command": { type: "string" },
      timeout: { type: "string" },
      app: { type: "string" },
      github: { type: "string" },
      environment: { type: "string" },
      format: { type: "string" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    const format = oneOf("doctor", "format", values.format, FORMATS, "text");
    const { checks, ok } = await doctorRun(
      {
        env: io.env,
        cwd: io.cwd,
        baseUrl: values["base-url"],
        tenantId: values["tenant-id"],
        tokenFile: values["token-file"] === undefined ? undefined : resolve(io.cwd, values["token-file"]),
        tokenCommand: values["token-command"],
        timeoutSeconds: intFlag("doctor", "timeout", values.timeout, 30, 1, 3600),
        app: values.app,
        github: values.github === undefined ? undefined : { repository: values.github, environment: values.environment ?? "alert-rules" },
      },
      cliReporter(io),
    );
    if (format === "json") io.stdout.write(`${shownJson({ ok, checks }, 2)}\n`);
    else io.stdout.write(renderText(checks, ok));
    return ok ? 0 : 1;
  },
};

function renderText(checks: readonly DoctorCheck[], ok: boolean): string {
  const width = Math.max(...checks.map((c) => c.check.length));
  const lines = checks.map((c) => {
    const head = `${MARK[c.status]} ${c.check.padEnd(width)}  ${c.message}`;
    if (c.fix === undefined) return head;
    return c.status === "skip" ? `${head} (${c.fix})` : `${head}: ${c.fix}`;
  });
  const failed = checks.filter((c) => c.status === "fail").length;
  return `${lines.join("\n")}\n\n${ok ? "Every check passed." : `${failed} check${failed === 1 ? "" : "s"} failed.`}\n`;
}
