// The release's program as one file (docs/provider.md "How the packages are built"): src/release/executable.ts
// and everything it loads, bundled by esbuild into dist/provider/alertrules-provider.js, the code
// of every platform's package (the Linux executables embed it, the darwin packages ship
// it beside their launcher). Run by `npm run build` (postbuild), so the npm package ships the one
// bundle its version's packages are made from: an install never bundles again with other
// dependency versions. Deterministic: no absolute path, time or machine in the output (esbuild
// writes paths relative to the working directory; no source map, no metafile).
//
// Two modules are replaced while bundling, because they read files beside themselves at run time:
// - src/io/version.ts: the version, from package.json, as a constant;
// - src/provider/protocol/proto.ts's .proto files: parsed here by protobufjs (as proto-loader
//   parses them) and embedded as a JSON descriptor that @grpc/proto-loader's fromJSON loads.
import { build } from "esbuild";
import { readFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "package.json"));
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const protoDir = join(root, "src", "provider", "protocol", "proto");

/** The .proto files as proto-loader's loadSync reads them (includeDirs: the proto directory). */
function protoDescriptor() {
  const protobuf = require("protobufjs");
  const root = new protobuf.Root();
  const { isAbsolute } = require("node:path");
  root.resolvePath = (_origin, target) => (isAbsolute(target) || target.startsWith("google/protobuf/") ? target : join(protoDir, target));
  // google/protobuf/*.proto: protobufjs knows the well-known types, as proto-loader does
  require("protobufjs/ext/descriptor");
  root.loadSync(["tfplugin6.proto", "go-plugin.proto", "health.proto"].map((f) => join(protoDir, f)), { keepCase: true });
  return root.toJSON();
}

const replaced = {
  name: "alertrules-provider-constants",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]io[\\/]version\.ts$/ }, () => ({
      contents: `export const TOOL_VERSION: string = ${JSON.stringify(version)};\n`,
      loader: "ts",
    }));
    b.onLoad({ filter: /[\\/]src[\\/]provider[\\/]protocol[\\/]proto\.ts$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const marker = "const definition = loadSync(";
      if (!source.includes(marker)) throw new Error(`${args.path}: "${marker}" not found; update scripts/bundle-provider.mjs`);
      const descriptor = JSON.stringify(protoDescriptor());
      return {
        contents: source
          .replace(/import \{ loadSync \} from "@grpc\/proto-loader";/, `import { fromJSON } from "@grpc/proto-loader";\nconst PROTO_DESCRIPTOR = ${descriptor};`)
          .replace(/const definition = loadSync\([^;]*\);/, "const definition = fromJSON(PROTO_DESCRIPTOR as never, LOADER_OPTIONS);"),
        loader: "ts",
      };
    });
  },
};

/**
 * `--client-only`, for `npm run bench:turns` only: the provider with three calls cut short, as
 * bench/lib/client-only-patches.ts says (compiled by `npm run build` first); never packaged.
 */
function clientOnly() {
  const { CLIENT_ONLY_PATCHES, patchSource } = require(join(root, "dist", "bench", "lib", "client-only-patches.js"));
  const files = [...new Set(CLIENT_ONLY_PATCHES.map((p) => p.file))];
  return {
    name: "alertrules-client-only",
    setup(b) {
      // every TypeScript file asks; only the files the patches name are changed
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const file = files.find((f) => args.path.endsWith(f.split("/").join(sep)));
        if (file === undefined) return undefined;
        return { contents: patchSource(file, readFileSync(args.path, "utf8")), loader: "ts" };
      });
    },
  };
}

/** `entry` and everything it loads as one minified CommonJS file at `out`. */
async function bundle(entry, out, banner, extra = []) {
  mkdirSync(dirname(out), { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile: out,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    legalComments: "none",
    sourcemap: false,
    charset: "utf8",
    logLevel: "warning",
    plugins: [replaced, ...extra],
    banner: { js: banner },
  });
}

if (process.argv.includes("--client-only")) {
  await bundle("src/release/executable.ts", join(root, "dist", "bench", "client-only-provider.bundle.js"), "// the bench's client-only provider (alert-rule-users): a bound, not a provider", [clientOnly()]);
} else if (process.argv.includes("--floor")) {
  // `npm run bench` only: the bench's floor provider (bench/lib/floor-provider.ts), bundled as the
  // provider is, so that it starts as fast as the provider does; no package ships it (dist/bench)
  await bundle("bench/lib/floor-provider.ts", join(root, "dist", "bench", "floor-provider.bundle.js"), "// the bench's floor provider (alert-rule-users), bundled by esbuild");
} else {
  await bundle("src/release/executable.ts", join(root, "dist", "provider", "alertrules-provider.js"), `// terraform-provider-alertrules ${version} (alert-rule-users), bundled by esbuild`);
}
