/** Alias comparison of design.md §4: case-insensitive and trimmed. */
export function aliasKey(alias: string): string {
  return alias.trim().toLowerCase();
}

/** Sort order of aliases in canonical lists: by key, then by exact spelling. */
export function compareAliases(a: string, b: string): number {
  const ka = aliasKey(a);
  const kb = aliasKey(b);
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
