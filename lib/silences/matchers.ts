import { RE2JS } from 're2js';
import { z } from 'zod';
import { atMostCharacters } from '../characters';

/** The same module validates matchers in the browser form and in the route: one RE2, one set of rules. */
export const MATCHER_OPS = ['=', '!=', '=~', '!~'] as const;
export type MatcherOp = (typeof MATCHER_OPS)[number];
export type Matcher = z.output<typeof matcherSchema>;

export const LABEL_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
export const MAX_LABEL = 256;
export const MAX_VALUE = 1024;
export const MAX_MATCHERS = 64;

const isRegexOp = (op: unknown): op is '=~' | '!~' => op === '=~' || op === '!~';

/**
 * Compiles a regex matcher value as RE2 on its own (never with the LOOKBEHINDS flag), so a value
 * like `a)|(b` cannot escape the anchoring. Returns RE2's message when it does not compile.
 */
export function compileMatcherValue(value: string): { ok: true; regex: RE2JS } | { ok: false; message: string } {
  try {
    return { ok: true, regex: RE2JS.compile(value) };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

/** Whether a label value satisfies a matcher; regexes match the whole value, as `^(?:value)$` does. */
export function matcherMatches(matcher: Matcher, labelValue: string): boolean {
  return valueTest(matcher)(labelValue);
}

/** A matcher compiled once, as a test of one label value. Throws when a regex does not compile. */
function valueTest(matcher: Matcher): (labelValue: string) => boolean {
  if (matcher.op === '=') return (v) => v === matcher.value;
  if (matcher.op === '!=') return (v) => v !== matcher.value;
  const compiled = compileMatcherValue(matcher.value);
  if (!compiled.ok) throw new Error(compiled.message);
  // RE2JS#matches is a full match of the input: the same as the anchored `^(?:value)$`.
  const wanted = matcher.op === '=~';
  return (v) => compiled.regex.matches(v) === wanted;
}

/**
 * A silence's matchers compiled once, as a test of a label set: every matcher must match, a label the set lacks
 * read as "" (Alertmanager's rule), so testing many alerts compiles each regex once.
 */
export function labelSetTest(matchers: Matcher[]): (labels: Readonly<Record<string, string>>) => boolean {
  const tests = matchers.map(valueTest);
  return (labels) => matchers.every((m, i) => tests[i](Object.hasOwn(labels, m.label) ? labels[m.label] : ''));
}

/** An absent label is the empty string: a matcher that matches it also matches every alert without the label. */
export function matchesEmptyString(matcher: Matcher): boolean | null {
  if (isRegexOp(matcher.op) && !compileMatcherValue(matcher.value).ok) return null;
  return matcherMatches(matcher, '');
}

export const EMPTY_MATCH_MESSAGE =
  'At least one matcher must not match the empty string; otherwise the silence would also match every alert that lacks the label.';

type LooseMatcher = { label?: unknown; op?: unknown; value?: unknown };

export const matcherSchema = z
  .strictObject({
    label: z
      .string()
      .min(1, 'Enter a label name.')
      .max(MAX_LABEL, `At most ${MAX_LABEL} characters.`)
      .regex(LABEL_PATTERN, 'A label starts with a letter or underscore, then letters, digits or underscores.'),
    op: z.enum(MATCHER_OPS, { error: 'The operator is one of =, !=, =~ and !~.' }),
    value: atMostCharacters(z.string(), MAX_VALUE, `At most ${MAX_VALUE} characters.`),
  })
  .superRefine(
    (matcher: LooseMatcher, ctx) => {
      if (!isRegexOp(matcher.op) || typeof matcher.value !== 'string') return;
      const compiled = compileMatcherValue(matcher.value);
      if (!compiled.ok)
        ctx.addIssue({ code: 'custom', path: ['value'], message: `Not a valid RE2 expression: ${compiled.message}` });
    },
    // Runs even when another field of the matcher is wrong, so every problem is reported at once.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  )
  .meta({ id: 'Matcher' });

export const matchersSchema = z
  .array(matcherSchema)
  .min(1, 'A silence needs at least one matcher.')
  .max(MAX_MATCHERS, `At most ${MAX_MATCHERS} matchers.`)
  .superRefine(
    (matchers: LooseMatcher[], ctx) => {
      const verdicts = matchers.map((m) =>
        typeof m === 'object' && m !== null && typeof m.value === 'string' && MATCHER_OPS.includes(m.op as MatcherOp)
          ? matchesEmptyString(m as Matcher)
          : null,
      );
      // Only a verdict on matchers that are all well formed: an invalid one is reported at its own path.
      if (verdicts.length > 0 && verdicts.every((v) => v === true))
        ctx.addIssue({ code: 'custom', message: EMPTY_MATCH_MESSAGE });
    },
    { when: (payload) => Array.isArray(payload.value) },
  );
