import { z } from 'zod';
import { pageQuery, searchQuery } from '../http/pagination';
import { projectParams } from '../orgs/schema';
import { parseFilter } from '../silences/filter';
import { compileMatcherValue } from '../silences/matchers';

/** An alert as received, after Alertmanager's rules (empty label values dropped, missing times filled). */
export type ReceivedAlert = {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  generatorUrl: string;
  startsAt: Date;
  endsAt: Date;
  /** No end was sent: it is now + the resolve timeout, which a later explicit end overrides on merge. */
  endsByTimeout: boolean;
  fingerprint: string;
  sizeBytes: number;
  /** Its place in the posted array, to name it when refused. */
  index: number;
};

/** A `filter` in Alertmanager's matcher syntax whose regex, if any, RE2 compiles. */
function isFilter(text: string): boolean {
  const m = parseFilter(text);
  return m !== null && ((m.op !== '=~' && m.op !== '!~') || compileMatcherValue(m.value).ok);
}

export const ALERT_STATES = ['firing', 'silenced', 'resolved'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

export const FINGERPRINT = /^[0-9a-f]{16}$/;

const labelMap = z.record(z.string(), z.string());

export const alert = z
  .object({
    fingerprint: z.string().regex(FINGERPRINT),
    labels: labelMap,
    annotations: labelMap,
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    generatorURL: z.string(),
    state: z.enum(ALERT_STATES),
    silencedBy: z.array(z.uuid()).meta({ description: 'The active silences that mute it now.' }),
  })
  .meta({ id: 'Alert' });
export type Alert = z.infer<typeof alert>;

export const listAlertsQuery = pageQuery.extend({
  state: z
    .array(z.enum(ALERT_STATES))
    .optional()
    .meta({ description: 'Repeatable; `firing` and `silenced` when absent. `resolved` lists those ended lately.' }),
  filter: z
    .array(
      z
        .string()
        .max(2048)
        .refine(
          isFilter,
          'A matcher such as `severity="critical"`: a label, one of = != =~ !~, a value (RE2 for =~ and !~).',
        ),
    )
    .optional()
    .meta({ description: 'Repeatable, all must match: a matcher such as `severity="critical"` or `job=~"api|web"`.' }),
  q: searchQuery('Alerts whose label or annotation names or values contain this text (any case).'),
});
export type ListAlertsQuery = z.output<typeof listAlertsQuery>;

export const alertParams = projectParams.extend({ fingerprint: z.string().regex(FINGERPRINT) });

export const previewAnswer = z
  .object({
    total: z.int().min(0).meta({ description: 'How many unresolved alerts the silence would mute.' }),
    alerts: z.array(alert).meta({ description: 'The first 100 of them, newest first.' }),
  })
  .meta({ id: 'SilencePreview' });
export type PreviewAnswer = z.infer<typeof previewAnswer>;

export const alertRefusals = z
  .object({
    since: z.iso.datetime().meta({ description: 'The window counted: ALERT_RETENTION_SECONDS back from now.' }),
    lastPostAt: z.iso.datetime().nullable().meta({
      description:
        'When the Alertmanager API last received a post of alerts, stored or refused (at most 5 s old); null: never.',
    }),
    alerts: z.int().min(0).meta({ description: 'Alerts refused in the window.' }),
    batches: z.int().min(0).meta({ description: 'Posts that had refused alerts in the window.' }),
    latest: z
      .array(
        z.object({
          at: z.iso.datetime(),
          refused: z.int().min(1),
          reason: z.string().meta({ description: "The batch's first refusal, as its 400 said it." }),
        }),
      )
      .meta({ description: 'The latest five such posts, newest first.' }),
  })
  .meta({ id: 'AlertRefusals' });
export type AlertRefusals = z.infer<typeof alertRefusals>;
