/**
 * Trying drift against a running simulator (README "Terraform (HCL) quick start", src/simulator/
 * README.md): `simulator users add|remove` changes a rule's list as the console would, by the
 * rule's ID or exact name, with a "did you mean" for a name a typo away; it refuses a server that
 * is not a simulator, writing nothing there; and a simulator started through npm stops when that
 * npm process ends (`kill $!` after `npx … simulator &`), freeing its port.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { FINANCE_NAME, RULES } from "../support/sample";
import { CLI, REPO } from "../support/cli";
import { runMain } from "../support/run-main";
import { useSimulator } from "../support/simulator";

const sim = useSimulator({}, { perTest: true });

const users = (cwd: string, ...args: string[]) => runMain(["simulator", "users", ...args], cwd, { ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId });
const liveIds = (ruleId: string) => sim.rule(ruleId)!.users.map((u) => u.userIdFromAuthority);

describe("simulator users", () => {
  it("add: puts the user with its aliases on the rule's list (by the rule's name), says so, and the request is the interface's add-users", async () => {
    // when
    const run = await users(REPO, "add", FINANCE_NAME, "31337", "mallory@example.com", "mallory@corp.example");
    // then
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Added user 31337 (mallory@example.com, mallory@corp.example) to '${FINANCE_NAME}' (${RULES.finance})`);
    const added = sim.rule(RULES.finance)!.users.find((u) => u.userIdFromAuthority === "31337");
    expect(added?.userAliasList).toEqual(["mallory@example.com", "mallory@corp.example"]);
    expect(sim.requestLog().filter((e) => e.operation === "add-users")).toHaveLength(1);
  });

  it("remove: takes the user off the list (by the rule's ID); a user not on it is refused, naming the rule, nothing sent", async () => {
    await users(REPO, "add", RULES.finance, "31338", "eve@example.com");
    const removed = await users(REPO, "remove", RULES.finance, "31338");
    expect(removed.code).toBe(0);
    expect(liveIds(RULES.finance)).not.toContain("31338");
    const again = await users(REPO, "remove", RULES.finance, "31338");
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`user '31338' is not on the list of '${FINANCE_NAME}'`);
    expect(sim.requestLog().filter((e) => e.operation === "remove-users")).toHaveLength(1);
  });

  it("a rule name one letter off: refused with the name it meant", async () => {
    const run = await users(REPO, "add", FINANCE_NAME.replace("mismatch", "mismacth"), "1", "a@example.com");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Did you mean '${FINANCE_NAME}'?`);
    expect(sim.requestLog().filter((e) => e.operation === "add-users")).toHaveLength(0);
  });

  it("refuses a server that is not a simulator (no simulator header), sending it no write", async () => {
    // given a server that answers everything 200 with an empty search
    const seen: string[] = [];
    const other: Server = createServer((req, res) => {
      seen.push(req.url ?? "");
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ruleMetadata: [], totalCount: 0 }));
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      // when
      const run = await runMain(["simulator", "users", "add", "r", "1", "a@example.com"], REPO, { ALERTS_API_URL: url, ALERTS_TENANT_ID: "t" });
      // then
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("is not an alert-rule-users simulator");
      expect(seen.filter((u) => u.includes("add-users"))).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it("says how to call it when the arguments are short", async () => {
    const run = await users(REPO, "add", FINANCE_NAME, "31337");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("simulator users add: give the user's aliases");
  });
});

describe("a simulator started through npm", () => {
  it("stops when the npm process that started it ends (kill $! after npx … simulator &), and frees its port", async () => {
    // given a parent standing in for npm (npm sets npm_command; it does not pass SIGTERM on) that starts the simulator
    const parent = spawn(
      process.execPath,
      ["-e", `const c = require("node:child_process").spawn(process.execPath, [${JSON.stringify(CLI)}, "simulator", "--port", "0"], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, npm_command: "exec" } }); setInterval(() => {}, 1000);`],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    parent.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    await until(() => /Simulator listening on (\S+)/.test(stderr));
    const url = /Simulator listening on (\S+)/.exec(stderr)![1]!;
    expect(await answers(url)).toBe(true);
    // when the parent ends
    parent.kill("SIGKILL");
    // then the simulator stops, saying why, and nothing listens there any more
    await until(() => stderr.includes("ended; stopping the simulator"));
    await until(async () => !(await answers(url)));
    expect(stderr).toMatch(/its parent process \(pid \d+: it was started through npm\) ended; stopping the simulator/);
  }, 60_000);
});

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}
