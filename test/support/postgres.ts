/**
 * A throwaway PostgreSQL server for Terraform's built-in `pg` backend (the team's state in the
 * HCL workflow tests): a new cluster in a temporary directory, run as the `postgres` user (initdb
 * refuses root) on a free port of 127.0.0.1, one database, trust authentication; stopped and
 * removed by `stop`. Needs Debian's postgresql package (.ci/run installs it where it is missing).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Postgres {
  /** The connection string Terraform's pg backend takes (conn_str, or PG_CONN_STR). */
  readonly connStr: string;
  /** The psql command line's arguments to reach the database. */
  readonly psqlArgs: readonly string[];
  stop(): void;
}

/** The newest installed PostgreSQL's bin directory, or an error that says how to install one. */
function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (newest === undefined) throw new Error("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): apt-get install -y postgresql (.ci/run does it where it is missing)");
  return join(root, newest, "bin");
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Starts a new cluster with one database, `tfstate`; resolves when it accepts connections. */
export async function startPostgres(): Promise<Postgres> {
  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), "aru-postgres-"));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", join(bin, command), ...args]] : [join(bin, command), args];
    execFileSync(file, argv, { stdio: "pipe", timeout: 120_000 });
  };
  if (asRoot) execFileSync("chown", ["postgres", dir]);
  const data = join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "tf", "--no-sync"]);
  run("pg_ctl", ["-D", data, "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "-l", join(dir, "log"), "-w", "start"]);
  const stop = () => {
    try {
      run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
    } catch {
      // already stopped
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run("createdb", ["-h", "127.0.0.1", "-p", String(port), "-U", "tf", "tfstate"]);
  } catch (err) {
    stop();
    throw err;
  }
  return { connStr: `postgres://tf@127.0.0.1:${port}/tfstate?sslmode=disable`, psqlArgs: ["-h", "127.0.0.1", "-p", String(port), "-U", "tf", "-d", "tfstate"], stop };
}
