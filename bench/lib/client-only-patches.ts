/**
 * The **client-only provider**, a bound and not a provider: the release bundle with three calls cut
 * short, so that it does only what every provider of this design must do before it validates or
 * plans anything (docs/performance.md, "Where the rest of the provider's CPU goes"):
 * - ValidateResourceConfig answers no problem, decoding nothing;
 * - ReadResource decodes the state and the private data and reads the list through the real API
 *   client (one `query-users`), then answers the state as it came;
 * - PlanResourceChange of an existing resource answers its prior state and private data.
 *
 * Made by `node scripts/bundle-provider.mjs --client-only` (dist/bench/client-only-provider.bundle.js),
 * for `npm run bench:turns` only: it is never packaged, and it would plan no change for any
 * configuration. Each patch names the exact source text it follows, found exactly once, so a
 * change to that source fails the build (and test/bench/client-only-patches.test.ts) rather than
 * measuring something else.
 */

export interface SourcePatch {
  /** The source file, from the repository's root. */
  readonly file: string;
  /** The text the inserted line follows, exactly once in the file. */
  readonly after: string;
  readonly insert: string;
}

export const CLIENT_ONLY_PATCHES: readonly SourcePatch[] = [
  {
    file: "src/provider/protocol/server.ts",
    after: "async function servePlanResourceChange({ resource }: Served, request: PlanRequest): Promise<object> {\n  const kind = resource(request.type_name);\n",
    insert: "  if (request.prior_state !== null) return { planned_state: request.prior_state, requires_replace: [], planned_private: request.prior_private, diagnostics: [] };\n",
  },
  {
    file: "src/provider/protocol/server.ts",
    after: "    ValidateResourceConfig: (request: ConfigRequest) => {\n      const kind = served.resource(request.type_name);\n",
    insert: "      if (kind !== undefined) return Promise.resolve({ diagnostics: [] });\n",
  },
  {
    file: "src/provider/resources/rule-user-list.ts",
    after: "    // what the service returned may echo a secret: state never holds one\n",
    insert: "    if (read.kind === \"read\") return { state, private: privateData };\n",
  },
];

/** `source` (the text of `file`) with the patches of that file applied; throws where a patch's text is not there exactly once. */
export function patchSource(file: string, source: string, patches: readonly SourcePatch[] = CLIENT_ONLY_PATCHES): string {
  let out = source;
  for (const patch of patches.filter((p) => p.file === file)) {
    const at = out.indexOf(patch.after);
    if (at < 0 || out.indexOf(patch.after, at + 1) >= 0) {
      throw new Error(`${file}: the client-only provider's patch expects ${JSON.stringify(patch.after.slice(0, 60))}… exactly once; update bench/lib/client-only-patches.ts to the source`);
    }
    const end = at + patch.after.length;
    out = out.slice(0, end) + patch.insert + out.slice(end);
  }
  return out;
}
