/** The major versions a Node.js range names: `^20.9.0 || ^22.0.0 || >=24.0.0` names 20, 22 and 24. */
export function majorsOf(range: string): number[] {
  return range.split("||").map((part) => Number(/(\d+)/.exec(part)?.[1]));
}
