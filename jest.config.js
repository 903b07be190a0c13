/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test", "<rootDir>/src"],
  testMatch: ["**/*.test.ts"],
  transform: {
    "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json", diagnostics: false }],
  },
  // Spawned CLIs and the simulator make some suites slow on 2 cores; keep workers at 2.
  maxWorkers: 2,
  testTimeout: 60000,
};
