import { createInterface } from "node:readline";
import type { Io } from "./io";

/** Terraform's prompt: only the exact answer "yes" approves; an interrupt (`signal`) answers no. */
export async function confirm(io: Io, signal?: AbortSignal): Promise<boolean> {
  io.stdout.write("\nDo you want to perform these actions?\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: ");
  const rl = createInterface({ input: io.stdin, terminal: false });
  try {
    const answer = await new Promise<string>((resolveAnswer) => {
      rl.once("line", resolveAnswer);
      rl.once("close", () => resolveAnswer(""));
      if (signal?.aborted === true) resolveAnswer("");
      signal?.addEventListener("abort", () => resolveAnswer(""), { once: true });
    });
    return answer.trim() === "yes";
  } finally {
    rl.close();
  }
}
