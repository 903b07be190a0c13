import { ConfigError, UsageError } from "../../src/errors";
import { describeConnection, resolveConnection } from "../../src/api/http/config";

const fullEnv = {
  ALERTS_API_URL: "https://alerts.example.com/",
  ALERTS_API_TOKEN: "env-token-value",
  ALERTS_TENANT_ID: "tenant-env",
};

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("resolveConnection", () => {
  it("reads the three settings from the environment and removes the trailing slash", () => {
    expect(resolveConnection({ env: fullEnv })).toEqual({
      baseUrl: "https://alerts.example.com",
      token: "env-token-value",
      tenantId: "tenant-env",
    });
  });

  it("lets --base-url and --tenant-id override the environment", () => {
    const config = resolveConnection({ env: fullEnv, baseUrl: "http://127.0.0.1:8080/api//", tenantId: "tenant-flag" });
    expect(config.baseUrl).toBe("http://127.0.0.1:8080/api");
    expect(config.tenantId).toBe("tenant-flag");
  });

  it("reads the token from --token-file, trimmed", () => {
    const { ALERTS_API_TOKEN: _unused, ...noToken } = fullEnv;
    void _unused;
    const config = resolveConnection({
      env: noToken,
      tokenFile: "/secrets/token",
      readFile: (path) => (path === "/secrets/token" ? "  file-token\n" : ""),
    });
    expect(config.token).toBe("file-token");
  });

  it("takes a token command from ALERTS_API_TOKEN_COMMAND, or --token-command over it", () => {
    const { ALERTS_API_TOKEN: _unused, ...noToken } = fullEnv;
    void _unused;
    const env = { ...noToken, ALERTS_API_TOKEN_COMMAND: "vault read -field=token secret/alerts" };
    expect(resolveConnection({ env })).toEqual({
      baseUrl: "https://alerts.example.com",
      tenantId: "tenant-env",
      tokenCommand: { command: "vault read -field=token secret/alerts", given: "ALERTS_API_TOKEN_COMMAND" },
    });
    expect(resolveConnection({ env, tokenCommand: "./get-token.sh" }).tokenCommand).toEqual({ command: "./get-token.sh", given: "--token-command" });
  });

  it.each([
    ["--token-file and ALERTS_API_TOKEN", { tokenFile: "/secrets/token" }, {}, /--token-file \/secrets\/token and ALERTS_API_TOKEN/],
    ["ALERTS_API_TOKEN and ALERTS_API_TOKEN_COMMAND", {}, { ALERTS_API_TOKEN_COMMAND: "./get-token.sh" }, /ALERTS_API_TOKEN and ALERTS_API_TOKEN_COMMAND/],
    ["ALERTS_API_TOKEN and --token-command", { tokenCommand: "./get-token.sh" }, {}, /ALERTS_API_TOKEN and --token-command/],
  ])("refuses the token given two ways (%s), naming both, without the token", (_what, options, env, names) => {
    // given
    const run = () => resolveConnection({ env: { ...fullEnv, ...env }, readFile: () => "file-token-value", ...options });
    // then
    expect(run).toThrow(UsageError);
    expect(run).toThrow(names);
    expect(run).toThrow(/Give exactly one/);
    expect(run).not.toThrow(/env-token-value|file-token-value/);
  });

  it("names every missing variable at once, with how to set it", () => {
    // given an empty environment
    // when
    const error = configError(() => resolveConnection({ env: {} }));
    // then
    expect(error.code).toBe("CONFIG");
    expect(error.message).toMatch(/ALERTS_API_URL.*--base-url/);
    expect(error.message).toMatch(/ALERTS_API_TOKEN.*--token-file/);
    expect(error.message).toMatch(/ALERTS_TENANT_ID.*--tenant-id/);
  });

  it("treats empty values as missing", () => {
    const error = configError(() => resolveConnection({ env: { ...fullEnv, ALERTS_TENANT_ID: "  " } }));
    expect(error.message).toMatch(/ALERTS_TENANT_ID/);
    expect(error.message).not.toMatch(/ALERTS_API_URL/);
  });

  it.each([
    ["ftp://alerts.example.com", /only http and https/],
    ["not a url", /is not a URL/],
    ["https://alerts.example.com/?x=1", /query string/],
  ])("refuses the base URL %s", (url, reason) => {
    expect(() => resolveConnection({ env: { ...fullEnv, ALERTS_API_URL: url } })).toThrow(reason);
  });

  it("refuses credentials in the URL without repeating them", () => {
    const error = configError(() =>
      resolveConnection({ env: { ...fullEnv, ALERTS_API_URL: "https://admin:hunter2-password@alerts.example.com" } }),
    );
    expect(error.message).toMatch(/credentials/);
    expect(error.message).not.toContain("hunter2-password");
  });

  it("reports an unreadable or empty token file", () => {
    const unreadable = configError(() =>
      resolveConnection({
        env: fullEnv,
        tokenFile: "/nope",
        readFile: () => {
          throw Object.assign(new Error("no such file"), { code: "ENOENT" });
        },
      }),
    );
    expect(unreadable.message).toMatch(/--token-file \/nope cannot be read \(ENOENT\)/);
    const empty = configError(() => resolveConnection({ env: fullEnv, tokenFile: "/empty", readFile: () => "\n" }));
    expect(empty.message).toMatch(/--token-file \/empty is empty/);
  });

  it("refuses a token with inner whitespace without printing it", () => {
    const error = configError(() => resolveConnection({ env: { ...fullEnv, ALERTS_API_TOKEN: "two words-secret" } }));
    expect(error.message).toMatch(/whitespace/);
    expect(error.message).not.toContain("words-secret");
  });
});

describe("describeConnection", () => {
  it("describes a connection without its token", () => {
    const config = resolveConnection({ env: fullEnv });
    const description = describeConnection(config);
    expect(description).toEqual({ baseUrl: "https://alerts.example.com", tenantId: "tenant-env" });
    expect(JSON.stringify(description)).not.toContain("env-token-value");
  });
});
