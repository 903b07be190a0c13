/**
 * The client-only provider's patches (bench/lib/client-only-patches.ts): each follows source text
 * that is in the provider's source exactly once, so `bundle-provider.mjs --client-only` cuts the
 * three calls it says and nothing else; where the source moves, the build fails and says where.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CLIENT_ONLY_PATCHES, patchSource, type SourcePatch } from "../../bench/lib/client-only-patches";

const root = join(__dirname, "..", "..");
const sourceOf = (file: string): string => readFileSync(join(root, file), "utf8");

describe("the client-only provider's patches", () => {
  it.each(CLIENT_ONLY_PATCHES.map((p) => [p.file, p.insert.trim(), p] as const))("%s: inserts %s right after its anchor, found once in the source", (file, _insert, patch) => {
    const source = sourceOf(file);
    const patched = patchSource(file, source);
    const at = source.indexOf(patch.after);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(source.indexOf(patch.after, at + 1)).toBe(-1);
    // earlier patches of the same file move it: found again in the patched text
    const patchedAt = patched.indexOf(patch.after);
    expect(patched.slice(patchedAt, patchedAt + patch.after.length + patch.insert.length)).toBe(patch.after + patch.insert);
  });

  it("cuts exactly the validation, the read after its request and the plan of an existing resource, in two files", () => {
    expect(new Set(CLIENT_ONLY_PATCHES.map((p) => p.file))).toEqual(new Set(["src/provider/protocol/server.ts", "src/provider/resources/rule-user-list.ts"]));
    const server = sourceOf("src/provider/protocol/server.ts");
    const patchedLength = patchSource("src/provider/protocol/server.ts", server).length;
    const inserted = CLIENT_ONLY_PATCHES.filter((p) => p.file === "src/provider/protocol/server.ts").reduce((n, p) => n + p.insert.length, 0);
    expect(patchedLength).toBe(server.length + inserted);
  });

  it("leaves every other file as it is", () => {
    const text = "export const x = 1;\n";
    expect(patchSource("src/provider/framework/server.ts", text)).toBe(text);
  });

  it("refuses, naming the file, where its anchor is missing or not alone", () => {
    const patch: SourcePatch = { file: "a.ts", after: "const a = 1;\n", insert: "const b = 2;\n" };
    expect(() => patchSource("a.ts", "const c = 3;\n", [patch])).toThrow(/^a\.ts: the client-only provider's patch expects "const a = 1;\\n"… exactly once; update bench\/lib\/client-only-patches\.ts/);
    expect(() => patchSource("a.ts", "const a = 1;\nconst a = 1;\n", [patch])).toThrow(/exactly once/);
    expect(patchSource("a.ts", "const a = 1;\n", [patch])).toBe("const a = 1;\nconst b = 2;\n");
  });
});
