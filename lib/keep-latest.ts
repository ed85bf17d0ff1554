/** Appends `item` to `list` and drops the oldest entries past `most`: a bounded record of the latest events. */
export function keepLatest<T>(list: T[], item: T, most: number): void {
  list.push(item);
  if (list.length > most) list.splice(0, list.length - most);
}
