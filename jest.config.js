/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test", "<rootDir>/src"],
  testMatch: ["**/*.test.ts"],
  // test/terraform needs a terraform binary: `npm run test:terraform` runs it; test/browser needs
  // chromium: `npm run test:browser` runs it
  testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/terraform/", "<rootDir>/test/browser/"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }],
  },
  // Spawned CLIs and the simulator make some suites slow on 2 cores; keep workers at 2.
  maxWorkers: 2,
  // A test's own time limit: generous and named, so a loaded machine slows the suite down instead
  // of failing it (tests assert behaviour, never durations; a test that needs longer says so).
  testTimeout: 180_000,
  // The suite runs as at a terminal wherever it runs (the CI's CI=true is not inherited by a
  // spawned CLI); a test of a CI job's words sets CI or GITHUB_ACTIONS itself
  setupFiles: ["<rootDir>/test/support/terminal-env.ts"],
  // one temporary directory per run, removed when it ends (test/support/temp-root.ts)
  globalSetup: "<rootDir>/test/support/temp-root-setup.ts",
  globalTeardown: "<rootDir>/test/support/temp-root-teardown.ts",
};
