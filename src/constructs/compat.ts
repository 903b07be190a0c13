/**
 * Checks, when a RuleUserList is created, that the app and alert-rule-users share one copy of
 * `constructs` and of the framework (cdktf, or cdktn for that entry), in the versions this package
 * supports (its peerDependencies). Without the check, a second nested copy (an app pinned to an
 * older `constructs`, an install with --legacy-peer-deps) dies deep inside constructs with
 * `scope.node._scopes is not iterable`; with it, the app stops at construct time with a message
 * that names both copies and the `npm install` that fixes it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Construct } from "constructs";
import { IncompatibleDependenciesError } from "../errors";

/** The peerDependencies ranges of package.json that the constructs rely on (a test keeps them in step). */
export const PEER_RANGES = {
  constructs: "^10.4.2",
  cdktf: "^0.21.0",
} as const;

/** The framework a construct is built on: its package, the range supported, and its stack class. */
export interface Framework {
  /** The npm package, e.g. `cdktf`. */
  readonly packageName: string;
  /** The version range supported, e.g. `^0.21.0`. */
  readonly range: string;
  /** The framework's stack class as this package loads it (`TerraformStack`). */
  readonly stackClass: abstract new (...args: never[]) => object;
  /** `TerraformStack.isStack`: true for a stack of any copy of the framework (a global symbol). */
  readonly isStack: (x: unknown) => boolean;
  /** The range of `constructs` this framework supports. @default PEER_RANGES.constructs */
  readonly constructsRange?: string;
}

/** One copy of a package: its version and where it is installed, as far as they can be found. */
export interface PackageCopy {
  readonly version: string | undefined;
  readonly dir: string | undefined;
}

// ---------------------------------------------------------------------------------------------
// Version ranges: the subset npm peer ranges use here (^, ~, comparators joined by spaces, ||).

type Triple = readonly [number, number, number];

function parseVersion(version: string): { triple: Triple; pre: boolean } | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(version.trim());
  if (match === null) return undefined;
  return { triple: [Number(match[1]), Number(match[2]), Number(match[3])], pre: match[4] !== undefined };
}

function compare(a: Triple, b: Triple): number {
  for (let i = 0; i < 3; i += 1) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function partial(text: string): Triple | undefined {
  const match = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(text);
  if (match === null) return undefined;
  const num = (s: string | undefined) => (s === undefined || s === "x" || s === "*" ? 0 : Number(s));
  return [num(match[1]), num(match[2]), num(match[3])];
}

function comparatorHolds(v: Triple, comparator: string): boolean {
  const match = /^(\^|~|>=|<=|>|<|=)?\s*(.+)$/.exec(comparator);
  if (match === null) return false;
  const op = match[1] ?? "=";
  const bound = partial(match[2] ?? "");
  if (bound === undefined) return false;
  const c = compare(v, bound);
  switch (op) {
    case "^": {
      if (c < 0) return false;
      if (bound[0] > 0) return v[0] === bound[0];
      if (bound[1] > 0) return v[0] === 0 && v[1] === bound[1];
      return v[0] === 0 && v[1] === 0 && v[2] === bound[2];
    }
    case "~":
      return c >= 0 && v[0] === bound[0] && v[1] === bound[1];
    case ">=":
      return c >= 0;
    case "<=":
      return c <= 0;
    case ">":
      return c > 0;
    case "<":
      return c < 0;
    default:
      return c === 0;
  }
}

/**
 * Whether `version` is in `range` (`^10.4.2`, `~10.7.2`, `>=10.6.0 <10.8.0`, `a || b`). A
 * prerelease never satisfies a range (as npm, which lets them in only when asked).
 */
export function satisfies(version: string, range: string): boolean {
  const parsed = parseVersion(version);
  if (parsed === undefined || parsed.pre) return false;
  return range.split("||").some((set) => {
    const comparators = set.trim().replace(/(\^|~|>=|<=|>|<|=)\s+/g, "$1").split(/\s+/).filter((c) => c !== "");
    return comparators.length > 0 && comparators.every((c) => comparatorHolds(parsed.triple, c));
  });
}

// ---------------------------------------------------------------------------------------------
// Finding copies.

/** The directory of the installed package that holds `file` (the nearest package.json named `name`). */
function packageDirOf(file: string, name: string): string | undefined {
  for (let dir = path.dirname(file); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "package.json");
    if (fs.existsSync(manifest)) {
      try {
        const json = JSON.parse(fs.readFileSync(manifest, "utf8")) as { name?: unknown };
        if (json.name === name) return dir;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function versionIn(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  try {
    const json = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version?: unknown };
    return typeof json.version === "string" ? json.version : undefined;
  } catch {
    return undefined;
  }
}

const ownCopies = new Map<string, PackageCopy>();

/** The copy of `name` this package loads (resolved from here, as its own imports are; read once). */
export function ownCopy(name: string): PackageCopy {
  let copy = ownCopies.get(name);
  if (copy === undefined) {
    try {
      const dir = packageDirOf(require.resolve(name), name);
      copy = { version: versionIn(dir), dir };
    } catch {
      copy = { version: undefined, dir: undefined };
    }
    ownCopies.set(name, copy);
  }
  return copy;
}

/**
 * The copy of `name` whose module exports `ctor` under `exportName` (e.g. the `Construct` class a
 * scope was built from), found among the loaded CommonJS modules; unknown for an ESM app.
 */
export function copyExporting(name: string, exportName: string, ctor: unknown): PackageCopy {
  for (const [file, mod] of Object.entries(require.cache)) {
    const exported = mod?.exports as Record<string, unknown> | undefined;
    if (exported === undefined || exported === null || typeof exported !== "object") continue;
    let value: unknown;
    try {
      value = exported[exportName];
    } catch {
      continue;
    }
    if (value !== ctor) continue;
    const dir = packageDirOf(file, name);
    if (dir !== undefined) return { version: versionIn(dir), dir };
  }
  return { version: undefined, dir: undefined };
}

/** The topmost class named `name` in the prototype chain of `value` (the class a scope was built from). */
function classNamed(value: object, name: string): unknown {
  let found: unknown = undefined;
  for (let proto: unknown = Object.getPrototypeOf(value); proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const ctor = (proto as { constructor?: { name?: string } }).constructor;
    if (ctor?.name === name) found = ctor;
  }
  return found;
}

/**
 * A construct of any copy of constructs: the global mark of 10.x (`Construct.isConstruct`), or,
 * for older copies without it, a `node` with a path.
 */
function constructLike(scope: unknown): scope is object {
  if (typeof scope !== "object" || scope === null) return false;
  if (Construct.isConstruct(scope)) return true;
  const node = (scope as { node?: unknown }).node;
  if (typeof node !== "object" || node === null) return false;
  try {
    return typeof (node as { path?: unknown }).path === "string";
  } catch {
    return false;
  }
}

function describeCopy(name: string, copy: PackageCopy): string {
  return `${name} ${copy.version ?? "(version unknown)"}${copy.dir === undefined ? "" : ` at ${copy.dir}`}`;
}

// ---------------------------------------------------------------------------------------------
// The check.

function fix(framework: Framework): string {
  const constructsRange = framework.constructsRange ?? PEER_RANGES.constructs;
  return (
    `An app needs exactly one copy of each, in the versions alert-rule-users supports: in your app, run\n` +
    `  npm install constructs@'${constructsRange}' ${framework.packageName}@'${framework.range}'\n` +
    `then 'npm ls constructs ${framework.packageName}' should show one version of each (no nested copy under alert-rule-users).`
  );
}

/** The problems with the copies this package loads for a framework: the same for every construct, found once. */
const ownCopyProblems = new Map<Framework, readonly string[]>();

function ownProblems(framework: Framework): readonly string[] {
  let problems = ownCopyProblems.get(framework);
  if (problems === undefined) {
    const found: string[] = [];
    const constructsRange = framework.constructsRange ?? PEER_RANGES.constructs;
    const ownConstructs = ownCopy("constructs");
    const ownFramework = ownCopy(framework.packageName);
    if (ownConstructs.version !== undefined && !satisfies(ownConstructs.version, constructsRange)) {
      found.push(`alert-rule-users loads ${describeCopy("constructs", ownConstructs)}, outside the supported range ${constructsRange}.`);
    }
    if (ownFramework.version !== undefined && !satisfies(ownFramework.version, framework.range)) {
      found.push(`alert-rule-users loads ${describeCopy(framework.packageName, ownFramework)}, outside the supported range ${framework.range}.`);
    }
    problems = found;
    ownCopyProblems.set(framework, problems);
  }
  return problems;
}

/** The problems with one framework's copies, or none. */
export function compatibilityProblems(scope: unknown, id: string, framework: Framework): string[] {
  const problems: string[] = [...ownProblems(framework)];
  const ownConstructs = ownCopy("constructs");
  const ownFramework = ownCopy(framework.packageName);

  if (!constructLike(scope)) {
    problems.push(`The scope of RuleUserList '${id}' is not a construct: pass a ${framework.stackClass.name} or a construct inside one.`);
    return problems;
  }
  if (!(scope instanceof Construct) || !Construct.isConstruct(scope)) {
    const theirs = copyExporting("constructs", "Construct", classNamed(scope, "Construct"));
    problems.push(
      `The scope of RuleUserList '${id}' was built with another copy of constructs (${describeCopy("constructs", theirs)}) ` +
        `than alert-rule-users loads (${describeCopy("constructs", ownConstructs)}).`,
    );
    return problems;
  }
  const stack = scope.node.scopes.find((s) => framework.isStack(s));
  if (stack !== undefined && !(stack instanceof framework.stackClass)) {
    const theirs = copyExporting(framework.packageName, framework.stackClass.name, classNamed(stack, framework.stackClass.name));
    problems.push(
      `The stack of RuleUserList '${id}' was built with another copy of ${framework.packageName} (${describeCopy(framework.packageName, theirs)}) ` +
        `than alert-rule-users loads (${describeCopy(framework.packageName, ownFramework)}).`,
    );
  }
  return problems;
}

/**
 * `scope`, after checking that it and this package share one copy of `constructs` and of the
 * framework, in supported versions. Throws an {@link IncompatibleDependenciesError} that names the
 * copies and the `npm install` that fixes them. Called as `super(compatibleScope(scope, id, F), id)`.
 */
export function compatibleScope<T>(scope: T, id: string, framework: Framework): T {
  const problems = compatibilityProblems(scope, id, framework);
  if (problems.length > 0) {
    throw new IncompatibleDependenciesError(`${problems.join("\n")}\n${fix(framework)}`);
  }
  return scope;
}
