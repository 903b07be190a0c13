/**
 * The release as a team has it: `provider package --out DIR` (the zips, SHA256SUMS and the mirror),
 * and its mirror served over HTTPS on 127.0.0.1 as a network mirror, under a throwaway certificate
 * authority (SSL_CERT_FILE), the way a team serves it at a URL of its own.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { CLI, REPO, runCommand } from "../support/cli";
import { MINUTES, explain } from "./support";

export interface ServedRelease {
  /** The release directory (zips, SHA256SUMS, mirror/). */
  readonly dir: string;
  /** The network mirror's URL (https://127.0.0.1:PORT/). */
  readonly url: string;
  /** The certificate authority that signed the server's certificate (SSL_CERT_FILE). */
  readonly ca: string;
  /** Requests the mirror answered, by path. */
  readonly served: string[];
  close(): Promise<void>;
}

/** Builds the release into `dir` (the provider's packages come from the build cache after the first build). */
export async function buildRelease(dir: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  const built = await runCommand(process.execPath, [CLI, "provider", "package", "--out", dir], { cwd: REPO, timeoutMs: 10 * MINUTES });
  if (built.code !== 0) throw new Error(explain("provider package", built));
}

/** A throwaway certificate authority and a certificate for 127.0.0.1 signed by it, in `pki`. */
function throwawayPki(pki: string): { key: Buffer; cert: Buffer; ca: string } {
  mkdirSync(pki, { recursive: true });
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: pki, stdio: "pipe" });
  openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=throwaway test CA");
  openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1");
  writeFileSync(join(pki, "san.ext"), "subjectAltName = IP:127.0.0.1\n");
  openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem", "-days", "1", "-extfile", "san.ext");
  return { key: readFileSync(join(pki, "server.key")), cert: readFileSync(join(pki, "server.pem")), ca: join(pki, "ca.pem") };
}

/** Serves `release`'s mirror/ as static files over HTTPS (a network mirror). */
export async function serveRelease(release: string, pki: string): Promise<ServedRelease> {
  const mirror = join(release, "mirror");
  const { key, cert, ca } = throwawayPki(pki);
  const served: string[] = [];
  const server: Server = createServer({ key, cert }, (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? "/", "https://127.0.0.1").pathname);
    const file = join(mirror, path);
    served.push(path);
    if (relative(mirror, file).startsWith("..") || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": file.endsWith(".json") ? "application/json" : "application/zip" }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    dir: release,
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    ca,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
