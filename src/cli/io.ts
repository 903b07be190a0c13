import { redactString } from "../io/door-words";

/** What a command may touch: its streams, environment and working directory (injectable in tests). */
export interface OutputStream {
  write(chunk: string): boolean;
  readonly isTTY?: boolean | undefined;
}

export interface Io {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean | undefined };
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly help: string;
  run(argv: string[], io: Io): Promise<number>;
}

/** Colours only on a TTY, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(stream: { isTTY?: boolean | undefined }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "") && env.TERM !== "dumb";
}

/**
 * A stream that redacts every secret (src/api/http/redact.ts) before writing: the last line of defence that keeps
 * a token out of anything the CLI prints, whatever printed it.
 */
export function redactingStream(target: NodeJS.WritableStream & { isTTY?: boolean }, secrets: () => readonly string[]): OutputStream {
  return {
    isTTY: target.isTTY === true,
    write(chunk: string): boolean {
      return target.write(redactString(chunk, secrets()));
    },
  };
}
