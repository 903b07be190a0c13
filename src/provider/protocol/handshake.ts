/**
 * go-plugin's handshake, as Terraform expects it from a provider: the magic cookie in the environment,
 * the protocol versions Terraform speaks, the port range, and Terraform's client certificate for
 * automatic mutual TLS; answered by one line on stdout. Pure: the environment comes in as a value.
 */

/** The cookie Terraform sets for every provider it starts (a fact of Terraform's plugin protocol). */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

export const CORE_PROTOCOL_VERSION = 1;
export const PLUGIN_PROTOCOL_VERSION = 6;

export interface HandshakeSettings {
  /** Terraform's certificate (PEM): the only certificate this provider accepts from a client */
  clientCertificatePem: string;
  /** ports to try in order; [0] lets the system choose */
  ports: number[];
}

export type HandshakeCheck = { ok: true; settings: HandshakeSettings } | { ok: false; reason: string };

/**
 * Checks what Terraform put in the environment. `providerName` names the executable in the
 * sentence shown to a person who starts it by hand.
 */
export function checkHandshake(env: NodeJS.ProcessEnv, providerName: string): HandshakeCheck {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    return {
      ok: false,
      reason:
        `This executable is the ${providerName} Terraform provider: \`terraform\` (or \`tofu\`) starts it and talks to it over ` +
        `Terraform's plugin protocol; it does nothing when run by hand. To use it, see docs/provider.md.`,
    };
  }

  const versions = env["PLUGIN_PROTOCOL_VERSIONS"];
  if (versions !== undefined && versions.trim() !== "") {
    const offered = versions.split(",").map((version) => version.trim());
    if (!offered.includes(String(PLUGIN_PROTOCOL_VERSION))) {
      return {
        ok: false,
        reason:
          `The ${providerName} provider speaks Terraform's plugin protocol ${PLUGIN_PROTOCOL_VERSION}, but this Terraform offers only ` +
          `${versions}: use Terraform 1.0 or later, or OpenTofu.`,
      };
    }
  }

  const clientCertificatePem = env["PLUGIN_CLIENT_CERT"] ?? "";
  if (!clientCertificatePem.includes("-----BEGIN CERTIFICATE-----")) {
    return {
      ok: false,
      reason:
        `The ${providerName} provider needs Terraform's client certificate (PLUGIN_CLIENT_CERT) for mutual TLS, and it is ` +
        `${clientCertificatePem === "" ? "missing" : "not a PEM certificate"}: use Terraform 0.12 or later, which always sends one.`,
    };
  }

  const ports = portRange(env["PLUGIN_MIN_PORT"], env["PLUGIN_MAX_PORT"]);
  if (typeof ports === "string") return { ok: false, reason: ports };
  return { ok: true, settings: { clientCertificatePem, ports } };
}

function portRange(min: string | undefined, max: string | undefined): number[] | string {
  const parse = (name: string, text: string | undefined): number | string => {
    if (text === undefined || text.trim() === "") return 0;
    const port = Number(text);
    return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : `${name} must be a port number (0 to 65535), not "${text}".`;
  };
  const low = parse("PLUGIN_MIN_PORT", min);
  const high = parse("PLUGIN_MAX_PORT", max);
  if (typeof low === "string") return low;
  if (typeof high === "string") return high;
  if (low > high) return `PLUGIN_MIN_PORT (${low}) is greater than PLUGIN_MAX_PORT (${high}).`;
  if (high === 0) return [0];
  const ports: number[] = [];
  for (let port = low; port <= high; port++) ports.push(port);
  return ports;
}

/** The one line Terraform reads: core version | protocol version | tcp | address | grpc | certificate (base64 DER, no padding). */
export function handshakeLine(port: number, certificateDer: Buffer): string {
  const certificate = certificateDer.toString("base64").replace(/=+$/, "");
  return `${CORE_PROTOCOL_VERSION}|${PLUGIN_PROTOCOL_VERSION}|tcp|127.0.0.1:${port}|grpc|${certificate}\n`;
}
