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
import { ApiError, CredentialError, ReadLimitError, TokenCommand, openTokenSource, registerEnvironmentSecrets, resolveConnection, type RunCommand } from "../../src/api";
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

describe("a token command that misbehaves (issue 31 item 4)", () => {
  /** Generous: a run the tool stops at 0.5 s must end well within this, not when a held child does (30 s). */
  const HELD_OUTPUT_TIMEOUT_MS = 15_000;
  const scriptFile = (body: string): { command: string; cleanup: () => void } => {
    const dir = mkdtempSync(join(tmpdir(), "aru-token-script-"));
    writeFileSync(join(dir, "cmd.sh"), body);
    return { command: `sh '${join(dir, "cmd.sh")}'`, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  };

  it(
    "is stopped at its limit with its whole process group, even when a child in a session of its own (setsid) holds its output",
    async () => {
      const source = new TokenCommand({
        command: "echo started >&2; setsid sh -c 'sleep 30' & sleep 20",
        given: "ALERTS_API_TOKEN_COMMAND",
        env: process.env,
        timeoutMs: 500,
      });
      await expect(source.token()).rejects.toThrow(/did not finish within 0.5 s and was stopped.*Its stderr:\n {2}started/s);
    },
    HELD_OUTPUT_TIMEOUT_MS,
  );

  it(
    "that exits having printed its token while a child it left (setsid) holds its output serves the token",
    async () => {
      const source = new TokenCommand({ command: "echo held-output-token-1234; setsid sh -c 'sleep 30' &", given: "ALERTS_API_TOKEN_COMMAND", env: process.env });
      await expect(source.token()).resolves.toBe("held-output-token-1234");
    },
    HELD_OUTPUT_TIMEOUT_MS,
  );

  it(
    "is bounded by the run's deadline (--run-deadline) when that comes before its own limit",
    async () => {
      const source = new TokenCommand({
        command: "echo started >&2; sleep 20",
        given: "ALERTS_API_TOKEN_COMMAND",
        env: process.env,
        // a clock that stands still: 1 s of the run's deadline is left when the command starts
        now: () => Date.parse("2026-11-24T12:00:00Z"),
        deadline: { at: Date.parse("2026-11-24T12:00:01Z"), ms: 60_000, source: "--run-deadline" },
      });
      await expect(source.token()).rejects.toThrow(/was stopped at the run's deadline \(--run-deadline\), after 1 s/);
    },
    HELD_OUTPUT_TIMEOUT_MS,
  );

  it("whose renewal fails while the cached token is still valid goes on with the cached token, warns once, and tries again later", async () => {
    // given a command that gave a token of 60 s and then fails
    let now = Date.parse("2026-11-24T12:00:00Z");
    let failing = false;
    const warnings: string[] = [];
    const run: RunCommand = () =>
      Promise.resolve(
        failing
          ? { exitCode: 1, signal: null, stdout: "", stderr: "vault: connection refused", timedOut: false }
          : { exitCode: 0, signal: null, stdout: JSON.stringify({ token: "cached-token-aaaa1111", expiresIn: 60 }), stderr: "", timedOut: false },
      );
    const source = new TokenCommand({ command: "renew", given: "ALERTS_API_TOKEN_COMMAND", run, now: () => now, onWarning: (m) => warnings.push(m) });
    expect(await source.token()).toBe("cached-token-aaaa1111");
    // when it is due (55 s in) and the renewal fails
    failing = true;
    now += 55_000;
    // then the cached token serves, with one warning, and the command is not run again at once
    expect(await source.token()).toBe("cached-token-aaaa1111");
    expect(await source.token()).toBe("cached-token-aaaa1111");
    expect(source.runs).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/renewing the token failed; the cached token \(valid until 2026-11-24T12:01:00.000Z\) is used meanwhile.*exited with status 1/s);
    // and it is tried again later (still failing: the cached token again, no second warning)
    now += 3_000;
    expect(await source.token()).toBe("cached-token-aaaa1111");
    expect(source.runs).toBe(3);
    expect(warnings).toHaveLength(1);
    // and once the cached token has expired, the failure is an error
    now += 3_000;
    await expect(source.token()).rejects.toThrow(CredentialError);
  });

  it("that fails shows its stderr without the token it printed in that very run (sh -x), nor anything written as a token field", async () => {
    const script = scriptFile(
      [
        "set -x",
        "tok=fresh-live-token-0123456789abcdef",
        "echo 'debug: access_token=other-secret-value-9999' >&2",
        `printf '{"token": "%s", ' "$tok"`,
        "",
      ].join("\n"),
    );
    try {
      const error = await rejectionOf(new TokenCommand({ command: script.command, given: "ALERTS_API_TOKEN_COMMAND", env: process.env }).token());
      expect((error as Error).message).toMatch(/not valid JSON.*Its stderr:/s);
      expect((error as Error).message).toMatch(/\+ tok=\[REDACTED\]/);
      expect((error as Error).message).not.toMatch(/fresh-live-token|other-secret-value/);
    } finally {
      script.cleanup();
    }
  });

  it("that fails shows its stderr without ANSI or OSC escape sequences and control characters", async () => {
    const script = scriptFile("printf '\\033[31mred\\033[0m \\033]0;a title\\007 \\033]8;;http://x.example\\033\\\\link\\033]8;;\\033\\\\ bell\\007\\r done\\n' >&2; exit 3\n");
    try {
      const error = await rejectionOf(new TokenCommand({ command: script.command, given: "ALERTS_API_TOKEN_COMMAND", env: process.env }).token());
      const message = (error as Error).message;
      expect(message).toMatch(/exited with status 3.*red {2}link bell done/s);
      expect(message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    } finally {
      script.cleanup();
    }
  });

  it("runs with an environment built from an allow-list: its documented variables and ALERT_RULE_USERS_TOKEN_COMMAND_ENV, never the plan key or other secrets", async () => {
    const dir = mkdtempSync(join(tmpdir(), "aru-token-env-"));
    try {
      const env = {
        PATH: process.env["PATH"],
        ALERTS_API_URL: "http://127.0.0.1:9",
        ALERTS_TENANT_ID: "t",
        ALERTS_API_TOKEN_COMMAND: `env > '${join(dir, "env")}'; echo env-token-12345678`,
        ALERTS_CLIENT_SECRET: "client-secret-env-1",
        ALERT_RULE_USERS_PLAN_KEY: "plan-key-env-0123456789abcdef0123",
        DATABASE_PASSWORD: "unrelated-secret-1",
        ALERT_RULE_USERS_TOKEN_COMMAND_ENV: "MY_VAULT_ROLE",
        MY_VAULT_ROLE: "ci-role",
      };
      await openTokenSource(resolveConnection({ env }), { env });
      const seen = readFileSync(join(dir, "env"), "utf8");
      expect(seen).toMatch(/^ALERTS_CLIENT_SECRET=client-secret-env-1$/m);
      expect(seen).toMatch(/^MY_VAULT_ROLE=ci-role$/m);
      expect(seen).toMatch(/^PATH=/m);
      expect(seen).not.toMatch(/ALERT_RULE_USERS_PLAN_KEY|DATABASE_PASSWORD|ALERTS_API_TOKEN_COMMAND/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
