/** What a synth that must fail says: for the construct tests' validation errors. */

/**
 * The message a synth fails with (`String(error)`); fails the test when it succeeds. `synth`: an
 * app (its `synth()`), or a function that synthesizes (`() => Testing.synth(stack, true)`).
 */
export function synthFailure(synth: { synth(): void } | (() => unknown)): string {
  try {
    if (typeof synth === "function") synth();
    else synth.synth();
  } catch (error) {
    return String(error);
  }
  throw new Error("expected synth to fail");
}
