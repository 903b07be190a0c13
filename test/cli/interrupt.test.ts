/** src/cli/interrupt.ts: the first signal aborts and says so, a second one exits at once, dispose removes the handlers. */
import { EventEmitter } from "node:events";
import { watchInterrupts, type SignalSource } from "../../src/cli/interrupt";

class Exited extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

function fakeProcess(): SignalSource & { emitter: EventEmitter } {
  const emitter = new EventEmitter();
  return {
    emitter,
    on: (event, listener) => emitter.on(event, listener),
    off: (event, listener) => emitter.off(event, listener),
    exit: (code) => {
      throw new Exited(code);
    },
  };
}

function stderr() {
  let text = "";
  return { stream: { write: (chunk: string) => ((text += chunk), true) }, text: () => text };
}

describe("watchInterrupts", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s: aborts the signal, says no new call will start, and gives exit code %d", (name, code) => {
    const source = fakeProcess();
    const err = stderr();
    const interrupts = watchInterrupts(err.stream, "apply", source);
    expect([interrupts.signal.aborted, interrupts.received(), interrupts.exitCode()]).toEqual([false, null, null]);
    source.emitter.emit(name);
    expect([interrupts.signal.aborted, interrupts.received(), interrupts.exitCode()]).toEqual([true, name, code]);
    expect(err.text()).toContain(`${name} received: stopping apply. No new call will start; waiting for the calls in flight to finish`);
  });

  it("a second signal exits at once with its own code", () => {
    const source = fakeProcess();
    const err = stderr();
    watchInterrupts(err.stream, "apply", source);
    source.emitter.emit("SIGINT");
    expect(() => source.emitter.emit("SIGTERM")).toThrow(new Exited(143));
    expect(err.text()).toContain("SIGTERM again: stopping apply at once");
  });

  it("dispose removes both handlers", () => {
    const source = fakeProcess();
    const interrupts = watchInterrupts(stderr().stream, "apply", source);
    expect([source.emitter.listenerCount("SIGINT"), source.emitter.listenerCount("SIGTERM")]).toEqual([1, 1]);
    interrupts.dispose();
    expect([source.emitter.listenerCount("SIGINT"), source.emitter.listenerCount("SIGTERM")]).toEqual([0, 0]);
  });
});
