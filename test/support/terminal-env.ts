/**
 * Every test file runs as at a terminal, wherever the suite runs: the CI that runs it sets CI=true
 * (and GitHub Actions sets GITHUB_ACTIONS), and the CLI's hints, progress and next-step lines follow
 * them (src/cli/hints.ts inCi). Without this, a spawned CLI inherits the runner's CI and a test of a
 * terminal's words passes on a laptop and fails in CI. A test of a CI job's words sets them itself
 * (test/e2e/hints.test.ts, test/cli/synth.test.ts).
 */
for (const name of ["CI", "GITHUB_ACTIONS"]) delete process.env[name];
