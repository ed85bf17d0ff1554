import { Command, InvalidArgumentError } from 'commander';
import type { AuditEvent } from '../../lib/db/audit-types';
import { formatInstant, table } from '../format';
import { ApiClient, ok } from '../http';
import { resolveOrganization } from '../orgs';
import { out, say } from '../output';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--since`: a duration back from now (`90m`, `24h`, `7d`, `2w`) or an RFC 3339 instant. Refused while parsing. */
export function parseSince(value: string, now = Date.now()): string {
  const duration = /^(\d+)([smhdw])$/.exec(value.trim());
  if (duration) return new Date(now - Number(duration[1]) * UNIT_MS[duration[2]]).toISOString();
  if (/^\d{4}-\d\d-\d\d(T[\d:.]+(Z|[+-]\d\d:\d\d))?$/.test(value.trim()) && !Number.isNaN(Date.parse(value)))
    return new Date(value).toISOString();
  throw new InvalidArgumentError('Use a duration such as 30m, 24h, 7d or 2w, or a time such as 2026-11-01T00:00:00Z.');
}

function parseLimit(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 10_000)
    throw new InvalidArgumentError('Must be a whole number from 1 to 10000.');
  return Number(value);
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function actorOf(e: AuditEvent): string {
  return e.actor.credential ? `${e.actor.name} (${e.actor.credential})` : e.actor.name;
}

function eventsTable(events: AuditEvent[]): string {
  return table(
    ['TIME', 'ACTION', 'ACTOR', 'TARGET', 'REASON', 'CHANGES'],
    events.map((e) => [
      formatInstant(e.occurredAt),
      e.action,
      actorOf(e),
      e.target.name,
      e.reason ?? '',
      e.changes.map((c) => `${c.field}: ${JSON.stringify(c.from)} → ${JSON.stringify(c.to)}`).join('; '),
    ]),
  );
}

export function auditCommand(): Command {
  const audit = new Command('audit').description('Read the organization’s audit log (needs auditLog.read)');
  audit
    .command('list')
    .description('List audit events, newest first')
    .option('--since <time-or-duration>', 'only events since then: 24h, 7d, or 2026-11-01T00:00:00Z', (v) =>
      parseSince(v),
    )
    .option('--action <action>', 'only this action (api_key.revoked) or noun (api_key.*); repeatable', collect)
    .option('--limit <n>', 'at most this many events (default 100)', parseLimit, 100)
    .option('--org <id-or-name>', 'organization to read (default: the saved one, or your only one)')
    .option('--json', 'print JSON instead of text')
    .action(async (options: { since?: string; action?: string[]; limit: number; org?: string; json?: boolean }) => {
      const api = new ApiClient();
      const org = await resolveOrganization(api, options.org);
      const events: AuditEvent[] = [];
      let cursor: string | undefined;
      do {
        const page = await ok(
          api.v1.GET('/v1/organizations/{orgId}/audit-events', {
            params: {
              path: { orgId: org.id },
              query: {
                since: options.since,
                action: options.action,
                limit: Math.min(100, options.limit - events.length),
                cursor,
              },
            },
          }),
        );
        events.push(...page.items);
        cursor = page.nextCursor ?? undefined;
      } while (cursor && events.length < options.limit);
      if (options.json) out(`${JSON.stringify(events, null, 2)}\n`);
      else if (events.length === 0) say(`No audit events in ${org.name} match.`);
      else out(eventsTable(events));
      if (cursor && !options.json) say(`Showing the newest ${events.length}; use --limit or --since for more.`);
    });
  return audit;
}
