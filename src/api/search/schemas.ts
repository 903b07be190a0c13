/**
 * The wire schemas of the search filter structure of query-alerts and query-rule-metadata
 * (docs/interface.md "Search filter structure"): filters, groups, and the paged request.
 */
import { z } from "zod";

/** A search filter: `term`, `operator` (wire token), `value`; all strings. */
export const filterSchema = z.object({
  term: z.string(),
  operator: z.string(),
  value: z.string(),
});
export type Filter = z.infer<typeof filterSchema>;

export const filterGroupSchema = z.object({
  filters: z.array(filterSchema),
  filterClause: z.enum(["AND", "OR"]),
});
export type FilterGroup = z.infer<typeof filterGroupSchema>;

/** The search filter structure of query-alerts and query-rule-metadata. */
export const searchRequestSchema = z.object({
  tenantId: z.string(),
  groups: z.array(filterGroupSchema),
  groupClause: z.enum(["AND", "OR"]),
  pgSize: z.string().regex(/^\d+$/, "a whole number as a string"),
  pgNum: z.string().regex(/^\d+$/, "a whole number as a string"),
  srtKey: z.string(),
  srtDirection: z.enum(["ASC", "DESC"]),
});
export type SearchRequest = z.infer<typeof searchRequestSchema>;
