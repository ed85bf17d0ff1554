/**
 * A list's search text from the page's `?q=`: trimmed, the first if repeated, undefined when blank. The list's hook
 * (useSearchText, components/console/search-box.tsx) and the server's first render read it alike, so both ask for
 * the same list.
 */
export function searchText(q: string | string[] | null | undefined): string | undefined {
  return (Array.isArray(q) ? q[0] : q)?.trim() || undefined;
}
