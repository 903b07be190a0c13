/**
 * `terraform-provider-alertrules data-answers`: the trusted half of a data source read in a team's
 * CI (src/provider/framework/offline-data.ts, docs/provider-workflows.md "Data sources"). It reads, with the
 * job's credentials, exactly the reads an offline evaluation of a pull request's configuration
 * asked for, through the provider's own data sources, as Terraform would call them; the requests
 * are data (checked, never evaluated), and the configuration itself never runs here.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parse } from "../cli/args";
import type { Command, Io } from "../cli/io";
import { UsageError } from "../io/door-words";
import { alertRulesProvider } from "../provider/provider";
import { DATA_ANSWERS_VARIABLE, DATA_ANSWERS_VERSION, DATA_REQUESTS_VARIABLE, dataRequestKey, parseDataRequests, type DataAnswer, type DataRequest } from "../provider/framework/offline-data";
import type { Diagnostic, ObjectValue, Value } from "../provider/protocol";

/** At most this many reads are answered for one evaluation (a configuration that asks for more is refused). */
export const MAX_DATA_REQUESTS = 200;

/** The answers to `requests` (each once), read through the provider's data sources with the environment's connection. */
export async function answerDataRequests(requests: readonly DataRequest[], env: NodeJS.ProcessEnv, cwd: string, log: (line: string) => void): Promise<DataAnswer[]> {
  const provider = alertRulesProvider({ env, cwd, log });
  const unique = new Map<string, DataRequest>();
  for (const request of requests) {
    const type = provider.dataSources[request.type];
    if (type === undefined) throw new UsageError(`data-answers: ${JSON.stringify(request.type)} is not a data source of this provider (${Object.keys(provider.dataSources).join(", ")}).`);
    unique.set(dataRequestKey(request.type, type.schema, request.config), request);
  }
  if (unique.size > MAX_DATA_REQUESTS) throw new UsageError(`data-answers: the configuration asks for ${unique.size} data source reads; at most ${MAX_DATA_REQUESTS} are answered for one evaluation.`);
  const configured = await provider.configureProvider({}, { terraformVersion: "" });
  const failed = configured.filter((d) => d.severity === "error");
  if (failed.length > 0) throw new UsageError(`data-answers: the provider cannot connect: ${failed.map((d) => `${d.summary}: ${d.detail ?? ""}`).join("; ")}`);
  const answers: DataAnswer[] = [];
  try {
    for (const request of unique.values()) {
      const type = provider.dataSources[request.type]!;
      // the config as Terraform sends it: every attribute of the schema, null where not set
      const config: ObjectValue = Object.fromEntries(type.schema.attributes.map((a): [string, Value] => [a.name, request.config[a.name] ?? null]));
      const problems: Diagnostic[] = (await type.validateDataResourceConfig?.(config)) ?? [];
      if (problems.some((d) => d.severity === "error")) {
        answers.push({ ...request, state: null, diagnostics: problems });
        continue;
      }
      const read = await type.readDataSource(config);
      const diagnostics = [...problems, ...(read.diagnostics ?? [])];
      answers.push({ ...request, state: diagnostics.some((d) => d.severity === "error") ? null : read.state, diagnostics });
    }
  } finally {
    await provider.stopProvider();
  }
  return answers;
}

export const dataAnswersCommand: Command = {
  name: "data-answers",
  summary: "Answer the data source reads an offline evaluation recorded (the trusted job of a team's CI)",
  help: `Usage: terraform-provider-alertrules data-answers --requests FILE --out FILE

Reads, with the connection of the environment (ALERTS_API_URL, ALERTS_TENANT_ID, ALERTS_API_TOKEN
or ALERTS_API_TOKEN_COMMAND), the data source reads that an offline evaluation recorded in FILE
(${DATA_REQUESTS_VARIABLE}), each once, through the provider's own data sources, and writes the
answers for the second evaluation (${DATA_ANSWERS_VARIABLE}). The requests are data: nothing of
the configuration runs here. At most ${MAX_DATA_REQUESTS} distinct reads.

Flags:
  --requests FILE   the requests the offline provider recorded (JSON lines)
  --out FILE        where the answers are written (JSON)
  -h, --help

Exit codes: 0 every read answered (a read the service refused is answered with its error),
1 the requests could not be read or the service could not be reached.
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parse("data-answers", argv, { requests: { type: "string" }, out: { type: "string" }, help: { type: "boolean", short: "h" } });
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    if (values.requests === undefined || values.out === undefined) throw new UsageError("data-answers: give --requests FILE and --out FILE.");
    const source = resolve(io.cwd, values.requests);
    const requests = parseDataRequests(readFileSync(source, "utf8"), values.requests);
    const answers = await answerDataRequests(requests, io.env, io.cwd, (line) => void io.stderr.write(`${line}\n`));
    writeFileSync(resolve(io.cwd, values.out), `${JSON.stringify({ version: DATA_ANSWERS_VERSION, answers }, null, 2)}\n`);
    const failed = answers.filter((a) => a.state === null).length;
    io.stderr.write(`Answered ${answers.length} data source read${answers.length === 1 ? "" : "s"}${failed === 0 ? "" : ` (${failed} with an error, which the evaluation shows)`} in ${values.out}.\n`);
    return 0;
  },
};
