/**
 * What the step-by-step workflow runs (test/ci/workflow-runner.ts) look for with a planted token:
 * every form the token could be written in, a listener standing for "another host", and the check
 * that the token reached no body posted to GitHub, no artifact and no request to that listener.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import { filesUnder, type RunResult } from "./workflow-runner";

/** Every way a secret could be written: as is, URL-encoded, hex, and base64 at each of the three alignments. */
export function encodings(secret: string): string[] {
  const base64 = [0, 1, 2].map((shift) => {
    const encoded = Buffer.from("x".repeat(shift) + secret).toString("base64");
    return encoded.slice(Math.ceil((shift * 4) / 3) + 1, -4);
  });
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString("hex"), ...base64];
}

export interface ReceivedRequest {
  readonly url: string;
  readonly headers: string;
  readonly body: string;
}

/** A listener on 127.0.0.1 that records every request (another host, as far as the workflows know). */
export interface Listener {
  readonly url: string;
  readonly received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function startListener(): Promise<Listener> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("latin1")));
    req.on("end", () => {
      received.push({ url: req.url ?? "", headers: JSON.stringify(req.headers), body });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Each place a secret was found, in any of its forms: a posted body, an artifact's file, a request to the listener. */
export function secretFoundIn(result: RunResult, received: readonly ReceivedRequest[], secret: string): string[] {
  const forms = encodings(secret);
  const found: string[] = [];
  const has = (text: string) => forms.some((form) => text.includes(form));
  result.comments.forEach((body, i) => {
    if (has(body)) found.push(`body ${i} posted to GitHub`);
  });
  for (const [name, artifact] of Object.entries(result.artifacts)) {
    for (const file of filesUnder(artifact)) if (has(file.content.toString("latin1"))) found.push(`artifact ${name}: ${file.path}`);
  }
  for (const request of received) if (has(`${request.url} ${request.headers} ${request.body}`)) found.push(`a request to the listener: ${request.url}`);
  return found;
}

/** The steps' outputs, for a failing expectation's message. */
export const explain = (result: RunResult): string => result.steps.map((s) => `[${s.job}] ${s.step}: ${s.code}\n${s.output.slice(-3000)}`).join("\n");
