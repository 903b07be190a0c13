/** An empty app workspace per test: made before each test of the enclosing block, removed after it. */
import { workspace, type Workspace } from "./cli";

/** The workspace of the running test (its `dir`, `write`, `cleanup` reach the current one). */
export function useWorkspace(): Workspace {
  let current: Workspace | undefined;
  const ws = (): Workspace => {
    if (current === undefined) throw new Error("no workspace: use it inside a test");
    return current;
  };
  beforeEach(() => {
    current = workspace([]);
  });
  afterEach(() => {
    current?.cleanup();
  });
  return {
    get dir() {
      return ws().dir;
    },
    write: (stacks) => ws().write(stacks),
    cleanup: () => ws().cleanup(),
  };
}
