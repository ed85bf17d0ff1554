import { matcherSchema } from '@/lib/silences/matchers';
import { previewSilenceBody, type PreviewSilenceBody } from '@/lib/silences/schema';
import type { SilenceFormValues } from './edit-silence-dialog';

/**
 * The draft to preview: the matchers that are valid so far (a row being typed is left out, not an error) and the
 * times when they pass the create's rules. Null when nothing valid is left, or the set would match every alert.
 */
export function previewDraft(values: Partial<SilenceFormValues>): PreviewSilenceBody | null {
  const matchers = (values.matchers ?? []).filter((m) => matcherSchema.safeParse(m).success);
  if (matchers.length === 0) return null;
  const withTimes = previewSilenceBody.safeParse({ matchers, startsAt: values.startsAt, endsAt: values.endsAt });
  if (withTimes.success) return withTimes.data;
  const alone = previewSilenceBody.safeParse({ matchers });
  return alone.success ? alone.data : null;
}
