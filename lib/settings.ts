/** A setting from the environment that must be a positive whole number (a limit, a count); anything else is `fallback`. */
export function positiveInteger(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && /^\d+$/.test(value) && Number.isSafeInteger(n) && n > 0 ? n : fallback;
}
