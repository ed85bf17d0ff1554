import { z } from 'zod';

export const MAX_REPORT_ITEMS = 1000;

/** One match a partner reports: the string found, its type in the partner's terms, where and in what. */
export const leakReportItem = z.strictObject({
  token: z.string().min(1).max(1000),
  type: z.string().max(200),
  url: z.string().max(4096),
  source: z.string().max(200),
});

export const leakReport = z
  .array(leakReportItem)
  .min(1)
  .max(MAX_REPORT_ITEMS, `At most ${MAX_REPORT_ITEMS} tokens per report.`)
  .meta({ id: 'LeakReport' });

export const leakReportAnswer = z
  .array(
    z.object({
      token_hash: z.string().meta({ description: 'SHA-256 of the token, hex.' }),
      token_type: z.string().meta({ description: 'The `type` the report gave.' }),
      label: z.enum(['true_positive', 'false_positive']),
    }),
  )
  .meta({ id: 'LeakReportAnswer' });

export type LeakReportItem = z.infer<typeof leakReportItem>;
export type LeakReportAnswer = z.infer<typeof leakReportAnswer>;
