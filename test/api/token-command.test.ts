/**
 * Contract (docs/contract.md §10.2): a token command's token is cached, fetched again ahead of its expiry
 * and once after a 401 (the refused request sent again, once), one run at a time however many
 * requests need it; a second 401 in a row is an auth error naming the command, never its output.
 *
 * The command is a real `sh -c` script: each run appends a line to a counter file and prints the
 * file the test prepared for that run (tokens minted by the simulator, or anything else), so the
 * test counts runs and decides what each prints. The client's clock is injected where a test
 * moves it past a renewal point; the simulator's tokens live on its own clock.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, CredentialError, ReadLimitError, TokenCommand, openTokenSource, registerEnvironmentSecrets, resolveConnection } from "../../src/api";
import { redactString } from "../../src/api/http/redact";
import { useSimulator } from "../support/simulator";
import { clientFor, rejectionOf, sampleRules } from "./helpers";

const TTL_SECONDS = 60;
const sim = useSimulator({ tokenTtlSeconds: TTL_SECONDS }, { perTest: true });

/** A token command whose run n prints `outputs[n - 1]` (the last one again after that), counting its runs. */
function scriptedCommand(outputs: string[]): { command: string; runs: () => number; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "aru-token-cmd-"));
  outputs.forEach((text, i) => writeFileSync(join(dir, `out.${i + 1}`), text));
  const counter = join(dir, "runs");
  const last = outputs.length;
  const command = `echo run >> '${counter}'; n=$(wc -l < '${counter}'); [ "$n" -gt ${last} ] && n=${last}; cat '${dir}'/out.$n`;
  return {
    command,
    runs: () => (existsSync(counter) ? readFileSync(counter, "utf8").split("\n").filter(Boolean).length : 0),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** `{"token", "expiresAt"}` for a token minted now, as `simulator token` prints it. */
function mintedJson(now: number): { json: string; token: string } {
  const minted = sim.mintToken();
  return { json: JSON.stringify({ token: minted.token, expiresAt: new Date(now + minted.expiresInSeconds * 1000).toISOString() }), token: minted.token };
}

function statuses(): number[] {
  return sim.requestLog().map((r) => r.status);
}

describe("a token with an expiry", () => {
  it("is fetched once and reused until less than a tenth of its life remains, then fetched again before the request", async () => {
    // given a clock the test moves, and two minted tokens of 60 s
    let now = Date.parse("2026-11-24T12:00:00Z");
    const first = mintedJson(now);
    const second = mintedJson(now + 55_000);
    const script = scriptedCommand([first.json, second.json]);
    try {
      const source = new TokenCommand({ command: script.command, given: "ALERTS_API_TOKEN_COMMAND", env: process.env, now: () => now });
      const { client } = clientFor(sim, { tokenSource: source });
      const { inclusion } = sampleRules(sim);
      // when three requests are sent at 0 s, 30 s and 53.9 s (more than 6 s of 60 left)
      for (const at of [0, 30_000, 53_900]) {
        now = Date.parse("2026-11-24T12:00:00Z") + at;
        await client.queryUsers(inclusion);
      }
      // then one run served them all
      expect(script.runs()).toBe(1);
      // when one is sent at 54.1 s (less than a tenth of the life, 6 s, remains)
      now = Date.parse("2026-11-24T12:00:00Z") + 54_100;
      await client.queryUsers(inclusion);
      // then the command ran again before it, and the service refused nothing
      expect(script.runs()).toBe(2);
      expect(statuses()).toEqual([200, 200, 200, 200]);
      expect(sim.requestLog().map((r) => r.tokenSerial)).toEqual([1, 1, 1, 2]);
    } finally {
      script.cleanup();
    }
  });

  it("is renewed at most 60 s ahead for a long life (a 15-minute token a minute early)", async () => {
    // given a 15-minute token (expiresIn), fetched at 0
    let now = 0;
    const script = scriptedCommand([JSON.stringify({ token: "long-lived-token-1", expiresIn: 900 }), JSON.stringify({ token: "long-lived-token-2", expiresIn: 900 })]);
    try {
      const source = new TokenCommand({ command: script.command, given: "--token-command", env: process.env, now: () => now });
      // when asked at 839 s and at 841 s
      expect(await source.token()).toBe("long-lived-token-1");
      now = 839_000;
      expect(await source.token()).toBe("long-lived-token-1");
      now = 841_000;
      // then the second ask runs the command again (60 s, not 90 s, ahead)
      expect(await source.token()).toBe("long-lived-token-2");
      expect(script.runs()).toBe(2);
    } finally {
      script.cleanup();
    }
  });

  it("shares one run among concurrent requests that all find it due", async () => {
    // given a token past its renewal point when 8 requests start at once
    let now = 0;
    const script = scriptedCommand([mintedJson(0).json, mintedJson(0).json]);
    try {
      const source = new TokenCommand({ command: script.command, given: "ALERTS_API_TOKEN_COMMAND", env: process.env, now: () => now });
      await source.token();
      now = 59_000;
      const { client } = clientFor(sim, { tokenSource: source });
      const { inclusion } = sampleRules(sim);
      // when
      await Promise.all(Array.from({ length: 8 }, () => client.queryUsers(inclusion)));
      // then the command ran once more, not eight times, and every request went through
      expect(script.runs()).toBe(2);
      expect(statuses()).toEqual(Array(8).fill(200));
    } finally {
      script.cleanup();
    }
  });
});

describe("a 401", () => {
  it("runs the command once more and sends the refused request again, once", async () => {
    // given a command whose first token the service does not know (a bare token) and whose second it minted
    const script = scriptedCommand(["not-a-minted-token-1234\n", `${sim.mintToken().token}\n`]);
    try {
      const source = new TokenCommand({ command: script.command, given: "ALERTS_API_TOKEN_COMMAND", env: process.env });
      const { client, events } = clientFor(sim, { tokenSource: source });
      const { inclusion } = sampleRules(sim);
      // when
      await client.queryUsers(inclusion);
      // then one 401, one new run, the request sent again and answered
      expect(statuses()).toEqual([401, 200]);
      expect(script.runs()).toBe(2);
      expect(events.map((e) => [e.outcome, e.status])).toEqual([
        ["retry", 401],
        ["ok", 200],
      ]);
    } finally {
      script.cleanup();
    }
  });

  it("of many requests in flight with the same token runs the command once for all of them", async () => {
    // given 8 requests sent at once with a token the service refuses
    const script = scriptedCommand(["refused-token-abcdef\n", `${sim.mintToken().token}\n`]);
    try {
      const source = new TokenCommand({ command: script.command, given: "ALERTS_API_TOKEN_COMMAND", env: process.env });
      await source.token();
      const { client } = clientFor(sim, { tokenSource: source });
      const { inclusion } = sampleRules(sim);
      // when
      await Promise.all(Array.from({ length: 8 }, () => client.queryUsers(inclusion)));
      // then 8 refusals, one more run (a counter file shows it), 8 answers
      expect(statuses().filter((s) => s === 401)).toHaveLength(8);
      expect(statuses().filter((s) => s === 200)).toHaveLength(8);
      expect(script.runs()).toBe(2);
    } finally {
      script.cleanup();
    }
  });

  it("twice in a row is an auth error that names the command and never what it printed", async () => {
    // given a command that prints tokens the service refuses, every time
    const script = scriptedCommand(["refused-token-first-0001\n", "refused-token-second-0002\n"]);
    try {
      const source = new TokenCommand({ command: script.command, given: "ALERTS_API_TOKEN_COMMAND", env: process.env });
      const { client } = clientFor(sim, { tokenSource: source });
      const { inclusion } = sampleRules(sim);
      // when
      const error = await rejectionOf(client.queryUsers(inclusion));
      // then
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(401);
      const message = (error as ApiError).message;
      expect(message).toMatch(/refused the token twice in a row/);
      expect(message).toMatch(/the token command '.*' \(ALERTS_API_TOKEN_COMMAND\)/);
      expect(message).not.toMatch(/refused-token-first-0001|refused-token-second-0002/);
      expect(statuses()).toEqual([401, 401]);
      expect(script.runs()).toBe(2);
      // and both tokens are redacted wherever they would appear
      expect(redactString("refused-token-first-0001 refused-token-second-0002")).toBe("[REDACTED] [REDACTED]");
    } finally {
      script.cleanup();
    }
  });

  it("is followed by a renewal that counts against the request's deadline, like any wait", async () => {
    // given a command whose second run (after the 401) takes longer than the request's deadline
    const script = scriptedCommand(["refused-token-deadline-01\n", `${sim.mintToken().token}\n`]);
    try {
      const slowSecondRun = `${script.command.replace(/; cat /, "; [ \"$n\" -gt 1 ] && sleep 1.2; cat ")}`;
      const source = new TokenCommand({ command: slowSecondRun, given: "ALERTS_API_TOKEN_COMMAND", env: process.env });
      await source.token();
      const { client } = clientFor(sim, { tokenSource: source, requestDeadlineMs: 1000 });
      const { inclusion } = sampleRules(sim);
      // when
      const error = await rejectionOf(client.queryUsers(inclusion));
      // then the deadline stopped it before the request was sent again
      expect(error).toBeInstanceOf(ReadLimitError);
      expect((error as ReadLimitError).limit).toBe("deadline");
      expect(script.runs()).toBe(2);
      expect(statuses()).toEqual([401]);
    } finally {
      script.cleanup();
    }
  });

  it("of a static token is final, as before: there is no other token to try", async () => {
    // given the simulator's static token, which a TTL simulator does not accept
    const { client } = clientFor(sim);
    const { inclusion } = sampleRules(sim);
    // when
    const error = await rejectionOf(client.queryUsers(inclusion));
    // then one request, refused
    expect((error as ApiError).status).toBe(401);
    expect((error as ApiError).message).toMatch(/check ALERTS_API_TOKEN \(or --token-file\)/);
    expect(statuses()).toEqual([401]);
  });
});

describe("a failing token command", () => {
  const connection = (command: string) => resolveConnection({ env: { ALERTS_API_URL: "http://127.0.0.1:9", ALERTS_TENANT_ID: "t", ALERTS_API_TOKEN_COMMAND: command } });
  /** Opens a connection whose command prints `stdout` (from a file, so the command line does not hold it) and then runs `then`. */
  const failure = async (stdout: string, then = "", env: NodeJS.ProcessEnv = process.env): Promise<CredentialError> => {
    const script = scriptedCommand([stdout]);
    try {
      const error = await rejectionOf(openTokenSource(connection(`${script.command}; ${then || "true"}`), { env }));
      expect(error).toBeInstanceOf(CredentialError);
      return error as CredentialError;
    } finally {
      script.cleanup();
    }
  };

  it.each([
    ["a non-zero exit", "token-on-stdout-9911\n", "echo 'denied for client 7' >&2; exit 3", /exited with status 3.*Its stderr:\n {2}denied for client 7/s],
    ["empty output", "", "", /printed nothing/],
    ["invalid JSON", '{"token": "token-on-stdout-9911', "", /starts with '\{' but is not valid JSON/],
    ["JSON without a token", '{"expiresIn": 300}', "", /printed JSON that is not \{"token"/],
    ["JSON with an expiry that is not a date", '{"token": "token-on-stdout-9911", "expiresAt": "soon"}', "", /expiresAt that is not an ISO 8601 instant/],
    ["the vendor's answer as it is", '{"access_token": "token-on-stdout-9911", "expires_in": 900}', "", /jq '\{token: \.access_token, expiresIn: \.expires_in\}'/],
    ["a token of two words", "token-on-stdout-9911 and more", "", /more than one word/],
  ])("is a clear error when opening the connection: %s", async (_what, stdout, then, says) => {
    const error = await failure(stdout, then);
    expect(error.code).toBe("CREDENTIALS");
    expect(error.message).toMatch(/^the token command '.*' \(ALERTS_API_TOKEN_COMMAND\)/);
    expect(error.message).toMatch(says);
    expect(error.message).not.toMatch(/token-on-stdout-9911/);
  });

  it("is stopped at its time limit, with what it ran under it (ALERT_RULE_USERS_TOKEN_COMMAND_TIMEOUT_SECONDS)", async () => {
    const error = await failure("late-token-1234\n", "echo started >&2; sleep 20", { ...process.env, ALERT_RULE_USERS_TOKEN_COMMAND_TIMEOUT_SECONDS: "0.5" });
    expect(error.message).toMatch(/did not finish within 0.5 s and was stopped.*ALERT_RULE_USERS_TOKEN_COMMAND_TIMEOUT_SECONDS.*Its stderr:\n {2}started/s);
  });

  it("shows its stderr redacted: a bearer token it printed there, and the client secret of the environment", async () => {
    // given the client secret where the README's token command reads it
    const env = { ...process.env, ALERTS_CLIENT_SECRET: "client-secret-5f5f5f5f" };
    registerEnvironmentSecrets(env);
    // when the command fails, saying both on stderr
    const error = await failure("", "echo \"curl: (22) 400 for client_secret=$ALERTS_CLIENT_SECRET Authorization: Bearer eyJhbGciOiJIUzI1\" >&2; exit 22", env);
    // then
    expect(error.message).toMatch(/exited with status 22.*curl: \(22\)/s);
    expect(error.message).not.toMatch(/client-secret-5f5f5f5f|eyJhbGciOiJIUzI1/);
  });
});
