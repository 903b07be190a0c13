/**
 * `serve`: the provider process's whole life. Checks the handshake environment, makes a fresh
 * certificate, listens on 127.0.0.1 with mutual TLS (Terraform's certificate is the only one
 * accepted), prints the handshake line, serves tfplugin6.Provider, go-plugin's controller and the
 * health check, and shuts down when Terraform says so (GRPCController.Shutdown), on SIGTERM, or when
 * the process that started it is gone. SIGINT is ignored, as go-plugin does: Ctrl-C reaches the whole
 * process group, and Terraform answers it by calling StopProvider and finishing what is in flight.
 */
import { randomInt } from "node:crypto";
import { makeServerCertificate } from "./certificate";
import { GrpcCode, GrpcServer, GrpcStatusError } from "./grpc-server";
import { checkHandshake, handshakeLine } from "./handshake";
import { rawMethods, unaryMethods } from "./proto";
import { providerService } from "./server";
import type { ProviderDefinition, ServeOptions } from "./types";

/** How long a graceful shutdown waits for calls in flight before it closes what is left. */
const SHUTDOWN_GRACE_MS = 30_000;
/** How often the process checks that Terraform, which started it, is still there. */
const PARENT_CHECK_MS = 2_000;

/**
 * Serves `provider` to the Terraform that started this process. Resolves when the server has shut
 * down. When the environment is not Terraform's (no magic cookie: a person ran the executable), or
 * the server cannot start, it writes one sentence to stderr, sets `process.exitCode` to 1 and resolves.
 */
export async function serve(provider: ProviderDefinition, options: ServeOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const providerName = provider.name ?? "alertrules";

  const refuse = (reason: string): void => {
    stderr.write(`${reason}\n`);
    process.exitCode = 1;
  };

  const check = checkHandshake(env, providerName);
  if (!check.ok) return refuse(check.reason);

  let server: GrpcServer;
  let port: number;
  let certificateDer: Buffer;
  try {
    const certificate = makeServerCertificate();
    certificateDer = certificate.der;
    const methods = new Map([
      ...unaryMethods("tfplugin6.Provider", { ...providerService(provider, providerName), ...options.replace }),
      ...rawMethods("tfplugin6.Provider", options.replaceRaw ?? {}),
      ...unaryMethods("grpc.health.v1.Health", { Check: healthCheck }),
      ...unaryMethods("plugin.GRPCController", {
        Shutdown: () => {
          setImmediate(() => void stopServing("Terraform asked the provider to shut down"));
          return Promise.resolve({});
        },
      }),
    ]);
    server = new GrpcServer(methods, { keyPem: certificate.privateKeyPem, certificatePem: certificate.certificatePem, clientCertificatePem: check.settings.clientCertificatePem });
    port = await bindFirstFree(server, check.settings.ports);
  } catch (thrown) {
    return refuse(`The ${providerName} provider could not start: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
  }

  let resolveDone: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let stopping = false;

  const onSigterm = (): void => void stopServing("SIGTERM");
  const onSigint = (): void => undefined;
  const parent = process.ppid;
  const parentWatch = setInterval(() => {
    if (!isAlive(parent)) void stopServing("the process that started the provider is gone");
  }, PARENT_CHECK_MS);
  parentWatch.unref();
  process.on("SIGTERM", onSigterm);
  process.on("SIGINT", onSigint);

  async function stopServing(_why: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    clearInterval(parentWatch);
    process.off("SIGTERM", onSigterm);
    process.off("SIGINT", onSigint);
    // stop accepting calls, let those in flight finish; close what is left after the grace period
    await server.shutdown(SHUTDOWN_GRACE_MS);
    resolveDone();
  }

  stdout.write(handshakeLine(port, certificateDer));
  return done;
}

function healthCheck(request: unknown): Promise<unknown> {
  // go-plugin asks for the service "plugin"; "" is the server as a whole
  const service = (request as { service: string }).service;
  if (service === "plugin" || service === "") return Promise.resolve({ status: "SERVING" });
  return Promise.reject(new GrpcStatusError(GrpcCode.NOT_FOUND, `unknown service "${service}"`));
}

function isAlive(pid: number): boolean {
  if (pid <= 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (thrown) {
    return (thrown as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Binds the first free port of `ports`, starting at a random one and wrapping around (several
 * providers start at once; go-plugin accepts any port of the range).
 */
async function bindFirstFree(server: GrpcServer, ports: readonly number[]): Promise<number> {
  let last: Error | undefined;
  const offset = ports.length > 1 ? randomInt(ports.length) : 0;
  for (let i = 0; i < ports.length; i++) {
    try {
      return await server.listen(ports[(offset + i) % ports.length] ?? 0);
    } catch (thrown) {
      // a busy port is skipped without a word: another provider took it
      if ((thrown as NodeJS.ErrnoException).code !== "EADDRINUSE") last = thrown as Error;
    }
  }
  const range = ports.length === 1 ? `port ${ports[0] ?? 0}` : `ports ${ports[0] ?? 0} to ${ports[ports.length - 1] ?? 0}`;
  throw new Error(`no free TCP port on 127.0.0.1 among ${range}${last === undefined ? "" : ` (${last.message})`}.`);
}
