import type { ReceivedAlert } from './schema';

/** What a stored alert's times and notification state are, as the merge reads and writes them. */
export type AlertTimes = {
  startsAt: Date;
  endsAt: Date;
  endsByTimeout: boolean;
  firingNotifiedAt: Date | null;
};

/**
 * Alertmanager's store of a repeated alert (provider/mem Put, types Alert.Merge): when the new one overlaps the
 * stored one's activity, it is the same firing (the earliest start kept, a later explicit end kept), else it
 * replaces it (a new firing, not yet notified). The newer copy always brings its labels and annotations.
 */
export function mergeTimes(old: AlertTimes | undefined, sent: ReceivedAlert, now: Date): AlertTimes {
  const fresh: AlertTimes = {
    startsAt: sent.startsAt,
    endsAt: sent.endsAt,
    endsByTimeout: sent.endsByTimeout,
    firingNotifiedAt: null,
  };
  if (!old) return fresh;
  const within = (at: Date) => at > old.startsAt && at < old.endsAt;
  if (!within(sent.endsAt) && !within(sent.startsAt)) return fresh;
  const merged = { ...fresh, firingNotifiedAt: old.firingNotifiedAt };
  if (old.startsAt < sent.startsAt) merged.startsAt = old.startsAt;
  if (sent.endsAt <= now) {
    // Both resolved: the later explicit end wins.
    if (old.endsAt <= now && old.endsAt > sent.endsAt) merged.endsAt = old.endsAt;
  } else if (old.endsAt > sent.endsAt && !old.endsByTimeout) {
    // A later end that was sent (not a timeout's) rules.
    merged.endsAt = old.endsAt;
    merged.endsByTimeout = false;
  }
  return merged;
}
