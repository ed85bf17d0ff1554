import type { RE2JS } from 're2js';
import { invalidRequest, type Issue } from '../errors';
import { compileMatcherValue, type Matcher } from '../silences/matchers';
import { parseFilter } from '../silences/filter';

/** The query of `GET /alerts` and `/alerts/groups`, as Alertmanager 0.25 reads it. */
export type AlertQuery = {
  filters: Matcher[];
  active: boolean;
  silenced: boolean;
  inhibited: boolean;
  /** Parsed and ignored, as Alertmanager does. */
  unprocessed: boolean;
  receiver: RE2JS | null;
};

// go-openapi's swag.ConvertBool: these words are true, any other word false; absent or empty is the default, true.
const TRUE_WORDS = new Set(['true', '1', 'yes', 'ok', 'y', 'on', 'selected', 'checked', 't', 'enabled']);

function flag(search: URLSearchParams, name: string): boolean {
  const value = search.get(name);
  if (value === null || value === '') return true;
  return TRUE_WORDS.has(value.toLowerCase());
}

/** Every parameter as Alertmanager parses it: a `filter` that is not a matcher, or a bad `receiver` regex, is 400. */
export function parseAlertQuery(search: URLSearchParams): AlertQuery {
  const issues: Issue[] = [];
  const filters = search.getAll('filter').flatMap((text) => {
    const matcher = parseFilter(text);
    const regexBroken =
      matcher && (matcher.op === '=~' || matcher.op === '!~') && !compileMatcherValue(matcher.value).ok;
    if (!matcher || regexBroken) issues.push({ path: 'filter', message: `bad matcher format: ${text}` });
    return matcher && !regexBroken ? [matcher] : [];
  });
  let receiver: RE2JS | null = null;
  const receiverText = search.get('receiver');
  if (receiverText !== null && receiverText !== '') {
    const compiled = compileMatcherValue(receiverText);
    if (compiled.ok) receiver = compiled.regex;
    else issues.push({ path: 'receiver', message: `failed to parse receiver param: ${compiled.message}` });
  }
  if (issues.length > 0) throw invalidRequest(issues);
  return {
    filters,
    active: flag(search, 'active'),
    silenced: flag(search, 'silenced'),
    inhibited: flag(search, 'inhibited'),
    unprocessed: flag(search, 'unprocessed'),
    receiver,
  };
}
