/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return -- gRPC messages as proto-loader gives them, asserted field by field */
import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import type { ServerCertificate } from "../../../src/provider/protocol";
import { decodeMsgpack, encodeMsgpack, makeServerCertificate, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE, protocolDefinition, schemaShape, UNKNOWN } from "../../../src/provider/protocol";
import { echoProvider } from "./fixtures/echo-provider";

const FIXTURE = join(__dirname, "fixtures", "echo-provider.ts");
const START_TIMEOUT_MS = 60_000;
const EXIT_TIMEOUT_MS = 30_000;

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", FIXTURE], {
    env: { PATH: process.env["PATH"], ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = once(child, "exit").then(([code]) => code as number | null);
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function handshake(started: Started): Promise<string> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!started.stdout().includes("\n")) {
    if (Date.now() > deadline) throw new Error(`no handshake line within ${START_TIMEOUT_MS} ms; stderr: ${started.stderr()}`);
    if (started.child.exitCode !== null) throw new Error(`the provider exited ${started.child.exitCode}; stderr: ${started.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return started.stdout().split("\n")[0]!;
}

function terraformEnv(clientCertificate: ServerCertificate): NodeJS.ProcessEnv {
  return {
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: "5,6",
    PLUGIN_MIN_PORT: "10000",
    PLUGIN_MAX_PORT: "25000",
    PLUGIN_CLIENT_CERT: clientCertificate.certificatePem,
  };
}

type Call = (method: string, request: object) => Promise<any>;

function client(service: "tfplugin6.Provider" | "plugin.GRPCController" | "grpc.health.v1.Health", address: string, serverPem: string, clientCertificate: ServerCertificate | null): { call: Call; close: () => void } {
  let node: any = grpc.loadPackageDefinition(protocolDefinition());
  for (const part of service.split(".")) node = node[part];
  const credentials =
    clientCertificate === null
      ? grpc.credentials.createSsl(Buffer.from(serverPem))
      : grpc.credentials.createSsl(Buffer.from(serverPem), Buffer.from(clientCertificate.privateKeyPem), Buffer.from(clientCertificate.certificatePem));
  const stub = new node(address, credentials, { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" });
  const call: Call = (method, request) =>
    new Promise((resolve, reject) => stub[method](request, { deadline: Date.now() + 20_000 }, (error: Error | null, response: unknown) => (error === null ? resolve(response) : reject(error))));
  return { call, close: () => stub.close() };
}

function parseLine(line: string): { address: string; serverPem: string; der: Buffer } {
  const parts = line.split("|");
  const der = Buffer.from(parts[5]!, "base64");
  return { address: parts[3]!, serverPem: new X509Certificate(der).toString(), der };
}

describe("the provider process, as Terraform starts it", () => {
  const terraformCertificate = makeServerCertificate();
  let started: Started;
  let line: string;

  beforeAll(async () => {
    started = start(terraformEnv(terraformCertificate));
    line = await handshake(started);
  }, START_TIMEOUT_MS);

  afterAll(() => {
    if (started.child.exitCode === null) started.child.kill("SIGKILL");
  });

  it("prints go-plugin's handshake line: core 1, protocol 6, tcp on 127.0.0.1, grpc, its certificate as unpadded base64 DER", () => {
    expect(line).toMatch(/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|[A-Za-z0-9+/]+$/);
    const port = Number(line.split("|")[3]!.split(":")[1]);
    expect(port).toBeGreaterThanOrEqual(10000);
    expect(port).toBeLessThanOrEqual(25000);
    const certificate = new X509Certificate(parseLine(line).der);
    expect(certificate.subject).toBe("CN=localhost");
    expect(certificate.subjectAltName).toBe("DNS:localhost");
    expect(certificate.ca).toBe(true);
    expect(certificate.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
  });

  it("answers GetProviderSchema and GetMetadata to a client holding Terraform's certificate", async () => {
    // given
    const { address, serverPem } = parseLine(line);
    const provider = client("tfplugin6.Provider", address, serverPem, terraformCertificate);
    try {
      // when
      const schema = await provider.call("GetProviderSchema", {});
      const metadata = await provider.call("GetMetadata", {});
      // then
      expect(schema.diagnostics).toEqual([]);
      expect(schema.server_capabilities).toEqual({ plan_destroy: true, get_provider_schema_optional: true, move_resource_state: false });
      const attributes = schema.resource_schemas.echo_item.block.attributes;
      expect(attributes.map((attribute: any) => attribute.name)).toEqual(["id", "name", "value", "tags", "entries", "version"]);
      expect(JSON.parse(attributes[3].type.toString())).toEqual(["map", "string"]);
      expect(attributes[4].type.length).toBe(0);
      expect(attributes[4].nested_type.nesting).toBe("MAP");
      expect(JSON.parse(attributes[4].nested_type.attributes[1].type.toString())).toEqual(["set", "string"]);
      expect(schema.resource_schemas.echo_item.version).toBe(1);
      expect(schema.provider.block.attributes[0]).toMatchObject({ name: "greeting", optional: true, description_kind: "PLAIN" });
      expect(Object.keys(schema.data_source_schemas)).toEqual(["echo_items"]);
      expect(metadata.resources).toEqual([{ type_name: "echo_item" }]);
      expect(metadata.data_sources).toEqual([{ type_name: "echo_items" }]);
      expect(metadata.server_capabilities.plan_destroy).toBe(true);
    } finally {
      provider.close();
    }
  });

  it("plans with values in msgpack both ways, unknowns and requires_replace included", async () => {
    // given
    const { address, serverPem } = parseLine(line);
    const provider = client("tfplugin6.Provider", address, serverPem, terraformCertificate);
    const shape = schemaShape(echoProvider(undefined).resources["echo_item"]!.schema);
    const prior = { id: "a", name: "a", value: "x", tags: null, entries: null, version: 3 };
    const proposed = { ...prior, name: "b", entries: { k: { note: "é", labels: ["l"] } } };
    try {
      // when
      const answer = await provider.call("PlanResourceChange", {
        type_name: "echo_item",
        prior_state: { msgpack: encodeMsgpack(shape, prior) },
        proposed_new_state: { msgpack: encodeMsgpack(shape, proposed) },
        config: { msgpack: encodeMsgpack(shape, { ...proposed, id: null, version: null }) },
      });
      // then
      expect(answer.diagnostics).toEqual([]);
      expect(decodeMsgpack(shape, answer.planned_state.msgpack)).toEqual({ ...proposed, id: "b", version: UNKNOWN });
      expect(answer.requires_replace).toEqual([{ steps: [{ attribute_name: "name", selector: "attribute_name" }] }]);
    } finally {
      provider.close();
    }
  });

  it("turns validation diagnostics into attribute paths, and unsupported RPCs into a clear answer", async () => {
    const { address, serverPem } = parseLine(line);
    const provider = client("tfplugin6.Provider", address, serverPem, terraformCertificate);
    const shape = schemaShape(echoProvider(undefined).resources["echo_item"]!.schema);
    try {
      const invalid = await provider.call("ValidateResourceConfig", {
        type_name: "echo_item",
        config: { msgpack: encodeMsgpack(shape, { name: "a", value: "invalid" }) },
      });
      expect(invalid.diagnostics).toEqual([
        { severity: "ERROR", summary: 'The value "invalid" is not allowed.', detail: "Choose another value.", attribute: { steps: [{ attribute_name: "value", selector: "attribute_name" }] } },
      ]);
      const notKnownYet = await provider.call("ValidateResourceConfig", { type_name: "echo_item", config: { msgpack: Buffer.from([0xd4, 0, 0]) } });
      expect(notKnownYet.diagnostics).toEqual([]);
      const unknownType = await provider.call("ValidateResourceConfig", { type_name: "echo_other", config: { msgpack: Buffer.from([0xc0]) } });
      expect(unknownType.diagnostics[0].summary).toBe('The resource type "echo_other" is not supported by the echo provider.');
      const ephemeral = await provider.call("OpenEphemeralResource", { type_name: "echo_secret" });
      expect(ephemeral.diagnostics[0]).toMatchObject({ severity: "ERROR", summary: 'The ephemeral resource "echo_secret" is not supported by the echo provider.' });
      await expect(provider.call("CallFunction", { name: "f" })).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
    } finally {
      provider.close();
    }
  });

  it("upgrades stored JSON state to msgpack by the current schema, dropping attributes it no longer has with a warning", async () => {
    const { address, serverPem } = parseLine(line);
    const provider = client("tfplugin6.Provider", address, serverPem, terraformCertificate);
    const shape = schemaShape(echoProvider(undefined).resources["echo_item"]!.schema);
    try {
      const answer = await provider.call("UpgradeResourceState", {
        type_name: "echo_item",
        version: 0,
        raw_state: { json: Buffer.from(JSON.stringify({ id: "a", name: "a", value: "x", version: 2, retired: true })) },
      });
      expect(decodeMsgpack(shape, answer.upgraded_state.msgpack)).toEqual({ id: "a", name: "a", value: "x", tags: null, entries: null, version: 2 });
      expect(answer.diagnostics).toEqual([
        { severity: "WARNING", summary: 'The stored state of echo_item has an attribute "retired" that its schema no longer has; it was dropped.', detail: "", attribute: null },
      ]);
    } finally {
      provider.close();
    }
  });

  it("reports the plugin SERVING to go-plugin's health check", async () => {
    const { address, serverPem } = parseLine(line);
    const health = client("grpc.health.v1.Health", address, serverPem, terraformCertificate);
    try {
      await expect(health.call("Check", { service: "plugin" })).resolves.toEqual({ status: "SERVING" });
    } finally {
      health.close();
    }
  });

  it("refuses a client with another certificate, and a client with none", async () => {
    const { address, serverPem } = parseLine(line);
    for (const certificate of [makeServerCertificate(), null]) {
      const stranger = client("tfplugin6.Provider", address, serverPem, certificate);
      try {
        await expect(stranger.call("GetMetadata", {})).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
      } finally {
        stranger.close();
      }
    }
  });

  it("exits when Terraform calls GRPCController.Shutdown, having printed nothing but the handshake line", async () => {
    // given
    const { address, serverPem } = parseLine(line);
    const controller = client("plugin.GRPCController", address, serverPem, terraformCertificate);
    // when
    try {
      await controller.call("Shutdown", {});
    } finally {
      controller.close();
    }
    // then
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([started.exited, new Promise((resolve) => (timer = setTimeout(() => resolve("still running"), EXIT_TIMEOUT_MS)))]);
    clearTimeout(timer);
    expect(code).toBe(0);
    expect(started.stdout()).toBe(`${line}\n`);
  }, EXIT_TIMEOUT_MS + 5_000);
});

describe("the provider process and signals", () => {
  it("ignores SIGINT, as go-plugin does (Terraform answers Ctrl-C with StopProvider), and shuts down on SIGTERM", async () => {
    // given
    const terraformCertificate = makeServerCertificate();
    const started = start(terraformEnv(terraformCertificate));
    try {
      const { address, serverPem } = parseLine(await handshake(started));
      const provider = client("tfplugin6.Provider", address, serverPem, terraformCertificate);
      try {
        // when: Ctrl-C reaches the process group
        started.child.kill("SIGINT");
        // then: the provider still answers, and StopProvider is Terraform's way to stop it
        await expect(provider.call("GetMetadata", {})).resolves.toMatchObject({ resources: [{ type_name: "echo_item" }] });
        await expect(provider.call("StopProvider", {})).resolves.toEqual({ Error: "" });
      } finally {
        provider.close();
      }
      // when
      started.child.kill("SIGTERM");
      // then
      expect(await started.exited).toBe(0);
    } finally {
      if (started.child.exitCode === null) started.child.kill("SIGKILL");
    }
  }, START_TIMEOUT_MS + EXIT_TIMEOUT_MS);
});

describe("the provider process when Terraform is killed", () => {
  it("shuts down once the process that started it is gone, leaving no orphan", async () => {
    // given: a stand-in for Terraform that starts the provider, says its pid, and is then killed
    const standIn = spawn(
      process.execPath,
      [
        "-e",
        `const c = require("child_process").spawn(process.execPath, ["-r", "ts-node/register/transpile-only", ${JSON.stringify(FIXTURE)}], { stdio: ["ignore", "inherit", "inherit"] });
         process.stderr.write("PID " + c.pid + "\\n"); setInterval(() => undefined, 1000);`,
      ],
      { env: { PATH: process.env["PATH"], ...terraformEnv(makeServerCertificate()) }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    let err = "";
    standIn.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    standIn.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!out.includes("\n") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    const providerPid = Number(/PID (\d+)/.exec(err)?.[1]);
    expect(out).toMatch(/^1\|6\|tcp\|/);
    const alive = (): boolean => {
      try {
        process.kill(providerPid, 0);
      } catch {
        return false;
      }
      // an exited process not yet reaped by its new parent is a zombie: gone for our purpose
      const stat = existsSync(`/proc/${providerPid}/stat`) ? readFileSync(`/proc/${providerPid}/stat`, "utf8") : "";
      return !/^\d+ \(.*\) Z/.test(stat);
    };
    expect(alive()).toBe(true);
    // when
    standIn.kill("SIGKILL");
    await once(standIn, "exit");
    // then
    const gone = Date.now() + EXIT_TIMEOUT_MS;
    while (alive() && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 100));
    const orphan = alive();
    if (orphan) process.kill(providerPid, "SIGKILL");
    expect(orphan).toBe(false);
  }, START_TIMEOUT_MS + EXIT_TIMEOUT_MS + 5_000);
});

describe("the provider process, started by hand", () => {
  it("refuses without Terraform's magic cookie: exit 1, a sentence saying what it is, nothing on stdout", async () => {
    // when
    const started = start({ PLUGIN_CLIENT_CERT: makeServerCertificate().certificatePem });
    const code = await started.exited;
    // then
    expect(code).toBe(1);
    expect(started.stdout()).toBe("");
    expect(started.stderr()).toBe(
      "This executable is the echo Terraform provider: `terraform` (or `tofu`) starts it and talks to it over Terraform's plugin protocol; it does nothing when run by hand. To use it, see docs/provider.md.\n",
    );
  }, START_TIMEOUT_MS);

  it("refuses in the alertrules provider's own executable too (dist/src/release/executable.js, built by npm run build)", async () => {
    // when
    const child = spawn(process.execPath, [join(__dirname, "..", "..", "..", "dist", "src", "release", "executable.js")], { env: { PATH: process.env["PATH"] }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const [code] = (await once(child, "exit")) as [number | null];
    // then
    expect(code).toBe(1);
    expect(out).toBe("");
    expect(err).toContain("This executable is the alertrules Terraform provider");
  }, START_TIMEOUT_MS);

  it("refuses without Terraform's client certificate, which automatic mutual TLS needs", async () => {
    const started = start({ [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6" });
    expect(await started.exited).toBe(1);
    expect(started.stdout()).toBe("");
    expect(started.stderr()).toContain("needs Terraform's client certificate (PLUGIN_CLIENT_CERT)");
  }, START_TIMEOUT_MS);

  it("refuses with a sentence when no port of Terraform's range is free", async () => {
    // given: the only port of the range is taken
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = String((taken.address() as AddressInfo).port);
    try {
      // when
      const started = start({ ...terraformEnv(makeServerCertificate()), PLUGIN_MIN_PORT: port, PLUGIN_MAX_PORT: port });
      // then
      expect(await started.exited).toBe(1);
      expect(started.stdout()).toBe("");
      expect(started.stderr()).toBe(`The echo provider could not start: no free TCP port on 127.0.0.1 among port ${port}.\n`);
    } finally {
      taken.close();
    }
  }, START_TIMEOUT_MS);

  it("refuses a Terraform that does not offer protocol 6", async () => {
    const started = start({ ...terraformEnv(makeServerCertificate()), PLUGIN_PROTOCOL_VERSIONS: "4,5" });
    expect(await started.exited).toBe(1);
    expect(started.stderr()).toContain("speaks Terraform's plugin protocol 6, but this Terraform offers only 4,5");
  }, START_TIMEOUT_MS);
});
