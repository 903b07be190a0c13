/**
 * Aliases a hostile or careless tenant may hold, for every renderer's escaping tests: markup and
 * script (the markdown test's hostile rule name), the look-alike characters of
 * test/reliability/look-alike.test.ts (a zero-width space, a right-to-left override), and values
 * a spreadsheet would run as formulas.
 */
export const HOSTILE_ALIASES = [
  '<img src=x onerror="window.__pwned=1">@evil.example.com',
  '"><script>window.__pwned=2</script>@evil.example.com',
  "Evil | <script>alert(1)</script> `x` **b** @team",
  "bob\u200b@example.com",
  "\u202emoc.elpmaxe@evil",
  '=HYPERLINK("https://evil.example.com","x")@evil.example.com',
  "@SUM(1+1)@evil.example.com",
  "it's & </noscript></tbody><tr data-k=\"dx1\"><td>forged@evil.example.com",
];
