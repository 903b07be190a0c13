/**
 * Reading every page of a search, bounded: paging stops when `totalCount` results are read or a
 * page comes back empty (the normal ends), and stops with a ReadLimitError when a page brings
 * nothing new before `totalCount` (the service ignores the page number: the results would be
 * incomplete) or when more than `maxResults` results arrive (a search that never ends). A page
 * shorter than asked is not an end while `totalCount` says there is more: a service may serve
 * fewer per page than asked.
 */
import { ReadLimitError } from "./errors";
import { ENV_MAX_SEARCH_RESULTS } from "./read-limits";

export interface Page<T> {
  readonly items: readonly T[];
  readonly totalCount: number;
}

export interface CollectPagesOptions<T> {
  /** The search, for messages (query-rule-metadata, query-alerts). */
  readonly operation: string;
  readonly pageSize: number;
  readonly maxResults: number;
  /** Page numbers start here. @default 0 */
  readonly firstPage?: number | undefined;
  readonly keyOf: (item: T) => string;
  readonly fetchPage: (pageNumber: number) => Promise<Page<T>>;
}

/** Every result once (by key, in page order), and the last totalCount announced. */
export async function collectPages<T>(options: CollectPagesOptions<T>): Promise<{ items: T[]; totalCount: number }> {
  const byKey = new Map<string, T>();
  const first = options.firstPage ?? 0;
  for (let pageNumber = first; ; pageNumber += 1) {
    const page = await options.fetchPage(pageNumber);
    let added = 0;
    for (const item of page.items) {
      const key = options.keyOf(item);
      if (byKey.has(key)) continue;
      byKey.set(key, item);
      added += 1;
    }
    const result = () => ({ items: [...byKey.values()], totalCount: Math.max(page.totalCount, byKey.size) });
    if (byKey.size >= page.totalCount || page.items.length === 0) return result();
    if (byKey.size > options.maxResults) {
      throw new ReadLimitError({
        operation: options.operation,
        limit: "too-many-results",
        what: `more than ${options.maxResults} results after ${pageNumber - first + 1} pages, and the service announces totalCount ${page.totalCount}`,
        fix: `A search this large is not expected; if the tenant really holds more, raise ${ENV_MAX_SEARCH_RESULTS}, else report the service's paging.`,
      });
    }
    if (added === 0) {
      throw new ReadLimitError({
        operation: options.operation,
        limit: "no-progress",
        what: `page ${pageNumber} brought nothing new after ${byKey.size} of the ${page.totalCount} results announced (the service seems to ignore the page number), so the results would be incomplete`,
        fix: "The service's paging is broken; report it (the same page came back for another page number).",
      });
    }
  }
}
