/** `2025-03-04 17:05 UTC`: readable, sortable and the same on every machine. */
export function formatInstant(iso: string | null | undefined, none = 'never'): string {
  if (!iso) return none;
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** A plain text table: a header row, then one row per item, columns padded to the widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
