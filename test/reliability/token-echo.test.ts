/**
 * A service that echoes the token back, in every encoding: raw, URL-encoded, base64 (at each of
 * the three alignments, and as `user:token`), base64url, JSON-escaped, HTML-escaped; and in the
 * forms an echo takes by accident (issue 25 item 11): its first 16 characters, lower- or
 * upper-cased, hex bytes separated by spaces, UTF-16LE hex, base64 wrapped across lines. It echoes it
 * in a field that fails validation (which becomes the plan's `reason`), in error messages, in an
 * HTML error page, in a rule name, in aliases and user IDs, and in the answers to writes. No sink
 * (stdout, stderr, the saved plan, both apply reports, import's file) may contain the token in
 * any form.
 *
 * Also: NODE_DEBUG naming http/net/tls/fetch/undici/http2 is refused before any request unless
 * --unsafe-allow-node-debug is passed, and a URL password with reserved characters is not echoed.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServerResponse } from "node:http";
import { runCli, workspace, type CliResult, type Workspace } from "../support/cli";
import { metadataPage, ruleId, ruleMetadata, sendJson, startHostileService, usersPage, type HostileRequest, type HostileService } from "./hostile-service";
import { TENANT } from "./support";
import { filesUnder } from "../support/files";

/** A token with characters that every encoding changes: / + = " & ' ~ */
const TOKEN = `Hx/T0KEN+9f"3&c'q=z~7c1f0e9a4b`;

const base64 = (text: string, url = false): string => Buffer.from(text, "utf8").toString(url ? "base64url" : "base64");
const percentEveryByte = (text: string): string => [...Buffer.from(text, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join("");
const unicodeEscapes = (text: string): string => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
const htmlNamed = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
const htmlNumeric = (text: string): string => [...text].map((c) => `&#${c.charCodeAt(0)};`).join("");
const hexSpaced = (text: string): string => [...Buffer.from(text, "utf8")].map((b) => b.toString(16).padStart(2, "0")).join(" ");
const wrapped = (text: string, width: number): string => (text.match(new RegExp(`.{1,${width}}`, "g")) ?? []).join("\r\n");

/** How the hostile service echoes the token. */
const ECHOES: Record<string, (token: string) => string> = {
  raw: (t) => t,
  "URL-encoded": (t) => encodeURIComponent(t),
  "URL-encoded, every byte": (t) => percentEveryByte(t),
  "base64, aligned": (t) => base64(t),
  "base64, one byte in": (t) => base64(`x${t}`),
  "base64, two bytes in": (t) => base64(`xy${t}`),
  "base64 of user:token (basic auth)": (t) => base64(`user:${t}`),
  base64url: (t) => base64(`z${t}`, true),
  "JSON-escaped": (t) => JSON.stringify(t).slice(1, -1),
  "JSON-escaped, every character": (t) => unicodeEscapes(t),
  "HTML-escaped": (t) => htmlNamed(t),
  "HTML numeric entities": (t) => htmlNumeric(t),
  // issue 25 item 11: forms a service reaches by accident
  "its first 16 characters, cut off (an error quoting part of the header)": (t) => `${t.slice(0, 16)}...`,
  "lower-cased (a service that lower-cases what it echoes)": (t) => t.toLowerCase(),
  "upper-cased": (t) => t.toUpperCase(),
  "hex bytes separated by spaces (a dump of the request)": (t) => hexSpaced(t),
  "UTF-16LE hex (a dump of a wide string)": (t) => Buffer.from(t, "utf16le").toString("hex"),
  "base64 of user:token, wrapped every 20 characters (MIME, PEM)": (t) => wrapped(base64(`user:${t}`), 20),
};

/**
 * The part of base64(prefix + secret) that depends on the secret only, for a prefix of 0, 1 and
 * 2 bytes: whatever surrounds the secret, its base64 contains one of these.
 */
function base64Cores(secret: string, url: boolean): string[] {
  const bytes = Buffer.from(secret, "utf8");
  return [0, 1, 2].map((k) => {
    const all = Buffer.concat([Buffer.alloc(k, 0x41), bytes]);
    const text = all.toString(url ? "base64url" : "base64").replace(/=+$/, "");
    return text.slice(k === 0 ? 0 : k + 1, text.length - (all.length % 3 === 0 ? 0 : 1));
  });
}

/** Every form of `secret` a sink must not contain: [name, form, case-insensitive]. */
function forms(secret: string): Array<[string, string, boolean]> {
  return [
    ["raw", secret, false],
    ["URL-encoded", encodeURIComponent(secret), true],
    ["URL-encoded, every byte", percentEveryByte(secret), true],
    ...base64Cores(secret, false).map((core, k): [string, string, boolean] => [`base64 (alignment ${k})`, core, false]),
    ...base64Cores(secret, true).map((core, k): [string, string, boolean] => [`base64url (alignment ${k})`, core, false]),
    ["JSON-escaped", JSON.stringify(secret).slice(1, -1), false],
    ["JSON-escaped, every character", unicodeEscapes(secret), true],
    ["HTML-escaped", htmlNamed(secret), false],
    ["HTML numeric entities", htmlNumeric(secret), false],
    ["its first 16 characters, any case", secret.slice(0, 16), true],
    ["hex bytes separated by spaces", hexSpaced(secret), true],
    ["UTF-16LE hex", Buffer.from(secret, "utf16le").toString("hex"), true],
  ];
}

/** Which forms of `secret` each text contains: "where: form" lines, [] when none. */
function leaksIn(texts: ReadonlyArray<{ where: string; text: string }>, secret: string): string[] {
  const found: string[] = [];
  for (const { where, text } of texts) {
    for (const [name, form, caseless] of forms(secret)) {
      if (caseless ? text.toLowerCase().includes(form.toLowerCase()) : text.includes(form)) found.push(`${where}: ${name}`);
    }
    // base64 wrapped across lines
    const unwrapped = text.replace(/\r?\n/g, "");
    for (const [name, form] of forms(secret).filter(([n]) => n.startsWith("base64"))) {
      if (!text.includes(form) && unwrapped.includes(form)) found.push(`${where}: ${name}, wrapped`);
    }
  }
  return found;
}

/**
 * The declaration: rules 1-3 (stack "reads", whose reads fail) with one user each; rule 4 (stack
 * "writes", whose writes fail) keeps user 3 and gains user 2.
 */
const STACKS = [
  {
    name: "reads",
    lists: [1, 2, 3].map((i) => ({ id: `rule-${i}`, props: { ruleId: ruleId(i), users: [{ userId: "2001", aliases: [`a${i}@example.com`] }] } })),
  },
  {
    name: "writes",
    lists: [
      {
        id: "rule-4",
        props: {
          ruleId: ruleId(4),
          users: [
            { userId: "3", aliases: ["keep@example.com"] },
            { userId: "2", aliases: ["new@example.com"] },
          ],
        },
      },
    ],
  },
];

/** The rule IDs a metadata search asks for by ObserverRuleId ([] for a search of every rule). */
function requestedRuleIds(body: Record<string, unknown>): string[] {
  const groups = Array.isArray(body["groups"]) ? (body["groups"] as Array<{ filters?: Array<{ term?: string; value?: string }> }>) : [];
  return groups.flatMap((g) => (g.filters ?? []).filter((f) => f.term === "ObserverRuleId").map((f) => String(f.value)));
}

/** Answers every operation with the token echoed by `echo`, in a different place each time. */
function echoing(echo: (token: string) => string) {
  return (request: HostileRequest, res: ServerResponse): void => {
    const e = echo(request.token);
    const rule = request.body["ruleId"];
    switch (request.operation) {
      case "query-rule-metadata": {
        const all = [1, 2, 3].map((i) => ruleMetadata(i)).concat(ruleMetadata(4, `Echo ${e}`));
        const asked = requestedRuleIds(request.body);
        return sendJson(res, 200, metadataPage(asked.length === 0 ? all : all.filter((r) => asked.includes(String(r["observerRuleId"])))));
      }
      case "query-users":
        if (rule === ruleId(1)) return sendJson(res, 200, usersPage([], `ALL_${e}`)); // fails validation
        if (rule === ruleId(2)) return sendJson(res, 400, { type$: "ERROR", code: `BAD_${e}`, message: `token ${e} is not valid here` });
        if (rule === ruleId(3)) {
          res.writeHead(403, { "content-type": "text/html" });
          return void res.end(`<html><body><h1>Forbidden</h1><p>${e}</p></body></html>`);
        }
        return sendJson(res, 200, usersPage([
          { userId: "3", aliases: ["keep@example.com"] },
          { userId: "1", aliases: [`${e}@example.com`] },
          { userId: `id-${e}`, aliases: ["x@example.com"] },
        ]));
      default:
        return sendJson(res, 400, { type$: "ERROR", code: "DENIED", message: `write refused for ${e}` });
    }
  };
}

const env = (url: string, token = TOKEN): NodeJS.ProcessEnv => ({ ALERTS_API_URL: url, ALERTS_API_TOKEN: token, ALERTS_TENANT_ID: TENANT });

describe("a service that echoes the token", () => {
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace(STACKS);
  });
  afterAll(() => ws.cleanup());

  it.each(Object.entries(ECHOES))("%s: no sink holds the token in any form", async (_name, echo) => {
    // given a hostile service and an app declaring its four rules
    const service = await startHostileService(echoing(echo));
    const outputs: Array<{ where: string; text: string }> = [];
    const run = async (what: string, args: string[]): Promise<CliResult> => {
      const result = await runCli(args, { cwd: ws.dir, env: env(service.url) });
      outputs.push({ where: `${what} stdout`, text: result.stdout }, { where: `${what} stderr`, text: result.stderr });
      return result;
    };
    try {
      // when the plan is saved (JSON on stdout), shown as markdown, the tenant imported into a file,
      // and the stack that can be read is applied with both reports
      const plan = await run("plan --format json", ["plan", "--format", "json", "--out", "plan.json"]);
      await run("plan --format markdown", ["plan", "--format", "markdown", "--skip-synth"]);
      const imported = await run("import", ["import", "--rule", ruleId(4), "--out", "imported.ts"]);
      const apply = await run("apply", ["apply", "--auto-approve", "--skip-synth", "--stack", "writes", "--report-json", "report.json", "--report-markdown", "report.md"]);
      // then the runs saw the echoes (each sink was exercised) ...
      expect([plan.code, apply.code]).toEqual([1, 1]);
      // (an echo with spaces or line breaks makes rule 4's listed alias invalid, so its rule writes nothing)
      if (!/\s/.test(echo(TOKEN))) expect(service.requests.some((r) => r.operation === "add-users")).toBe(true);
      expect(imported.code).toBe(0);
      for (const file of ["plan.json", "report.json", "report.md", "imported.ts"]) expect([file, existsSync(join(ws.dir, file))]).toEqual([file, true]);
      expect(readFileSync(join(ws.dir, "plan.json"), "utf8")).toMatch(/query-users/);
      // ... and no output and no file holds the token in any form
      for (const file of filesUnder(ws.dir, { skip: ["node_modules"] })) outputs.push({ where: file.slice(ws.dir.length + 1), text: readFileSync(file, "utf8") });
      expect(leaksIn(outputs, TOKEN)).toEqual([]);
    } finally {
      await service.stop();
    }
  });
});

describe("a token from --token-file", () => {
  it("is redacted like one from the environment: in the plan file, the reports and the output", async () => {
    // given the token in a file (outside the scanned workspace) and a service that echoes it
    const ws = workspace(STACKS);
    const secretDir = mkdtempSync(join(tmpdir(), "aru-token-"));
    const tokenFile = join(secretDir, "token");
    writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    const service = await startHostileService(echoing((t) => base64(`user:${t}`)));
    const outputs: Array<{ where: string; text: string }> = [];
    const { ALERTS_API_TOKEN: _unused, ...noToken } = env(service.url);
    void _unused;
    try {
      // when
      for (const args of [
        ["plan", "--format", "json", "--out", "plan.json", "--token-file", tokenFile],
        ["apply", "--auto-approve", "--skip-synth", "--stack", "writes", "--token-file", tokenFile, "--report-json", "report.json", "--report-markdown", "report.md"],
      ]) {
        const result = await runCli(args, { cwd: ws.dir, env: noToken });
        outputs.push({ where: `${args[0]} stdout`, text: result.stdout }, { where: `${args[0]} stderr`, text: result.stderr });
      }
      // then the service did see the token, and no sink holds it
      expect(service.requests.every((r) => r.token === TOKEN)).toBe(true);
      for (const file of filesUnder(ws.dir, { skip: ["node_modules"] })) outputs.push({ where: file.slice(ws.dir.length + 1), text: readFileSync(file, "utf8") });
      expect(outputs.map((o) => o.where)).toEqual(expect.arrayContaining(["plan.json", "report.json", "report.md"]));
      expect(leaksIn(outputs, TOKEN)).toEqual([]);
    } finally {
      await service.stop();
      ws.cleanup();
      rmSync(secretDir, { recursive: true, force: true });
    }
  });
});

describe("NODE_DEBUG", () => {
  let ws: Workspace;
  let service: HostileService;
  beforeAll(async () => {
    ws = workspace(STACKS);
    service = await startHostileService(echoing((t) => t));
  });
  afterAll(async () => {
    await service.stop();
    ws.cleanup();
  });
  beforeEach(() => service.requests.splice(0));

  it.each(["http", "net", "tls", "fetch", "undici", "http2", "fs,HTTP"])("NODE_DEBUG=%s is refused before any request, naming the variable and the override", async (value) => {
    // when
    const result = await runCli(["plan"], { cwd: ws.dir, env: { ...env(service.url), NODE_DEBUG: value } });
    // then
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/NODE_DEBUG/);
    expect(result.stderr).toMatch(/--unsafe-allow-node-debug/);
    expect(service.requests).toEqual([]);
    expect(leaksIn([{ where: "stderr", text: result.stderr }, { where: "stdout", text: result.stdout }], TOKEN)).toEqual([]);
  });

  it("NODE_DEBUG that names no network module runs as usual", async () => {
    const result = await runCli(["plan", "--format", "json"], { cwd: ws.dir, env: { ...env(service.url), NODE_DEBUG: "fs,module" } });
    expect(result.stderr).not.toMatch(/--unsafe-allow-node-debug/);
    expect(service.requests.length).toBeGreaterThan(0);
  });

  it("--unsafe-allow-node-debug lets the run go ahead, with a warning", async () => {
    const result = await runCli(["plan", "--format", "json", "--unsafe-allow-node-debug"], { cwd: ws.dir, env: { ...env(service.url), NODE_DEBUG: "http" } });
    expect(result.stderr).toMatch(/Warning: NODE_DEBUG=http/);
    expect(service.requests.length).toBeGreaterThan(0);
  });
});

describe("a URL with a password", () => {
  const PASSWORD = `pa/ss+Wd"9&k'7c1f0e9a`;
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace(STACKS);
  });
  afterAll(() => ws.cleanup());

  it.each([
    ["raw, with reserved characters", (p: string) => `http://user:${p}@127.0.0.1:9/api`],
    ["URL-encoded", (p: string) => `http://user:${encodeURIComponent(p)}@127.0.0.1:9/api`],
    ["in --base-url", (p: string) => `https://user:${p}@alerts.example.com`],
  ])("%s: refused without echoing the password in any form", async (_name, url) => {
    const args = _name === "in --base-url" ? ["plan", "--base-url", url(PASSWORD)] : ["plan"];
    const result = await runCli(args, { cwd: ws.dir, env: { ...env(url(PASSWORD)) } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/credentials|not a URL/);
    expect(leaksIn([{ where: "stderr", text: result.stderr }, { where: "stdout", text: result.stdout }], PASSWORD)).toEqual([]);
  });
});
