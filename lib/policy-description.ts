import { PERMISSIONS, POLICIES } from './permissions';

/*
 * What a policy grants, in words made from its permission names (`obs.silences.create` → "create silences"), so a
 * policy added to POLICIES describes itself. Only names that do not read as English get a word here.
 */
const NOUNS: Record<string, string> = { apiKeys: 'API keys', auditLog: 'the audit log', orgs: 'the organization' };
const VERBS: Record<string, string> = { get: 'read', list: 'read' };
// Verbs with an object of their own: a phrase apart, followed by the resource ("create API keys for bots").
const VERBS_WITH_OBJECT: Record<string, string> = { createApiKey: 'create API keys for' };
// Verbs in the order a sentence lists them; any other follows in the order the policy names it.
const VERB_ORDER = ['read', 'create', 'invite', 'update', 'delete'];

const words = (camel: string) => camel.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** "a", "a and b", "a, b and c". */
export function listInWords(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "create and update silences; read the audit log" for `['obs.silences.create', 'obs.silences.update', …]`. */
export function describePermissions(permissions: readonly string[]): string {
  if (PERMISSIONS.every((p) => permissions.includes(p))) return 'every permission there is';
  // Resource (its last name before the verb) → verbs, in the order the policy first names each resource.
  const byNoun = new Map<string, string[]>();
  const phrases: string[] = [];
  for (const permission of permissions) {
    const parts = permission.split('.');
    const verb = parts.at(-1)!;
    const noun = NOUNS[parts.at(-2)!] ?? words(parts.at(-2)!);
    if (VERBS_WITH_OBJECT[verb]) {
      phrases.push(`${VERBS_WITH_OBJECT[verb]} ${noun}`);
      continue;
    }
    const said = VERBS[verb] ?? words(verb);
    const verbs = byNoun.get(noun) ?? byNoun.set(noun, []).get(noun)!;
    if (!verbs.includes(said)) verbs.push(said);
  }
  const rank = (verb: string) => (VERB_ORDER.includes(verb) ? VERB_ORDER.indexOf(verb) : VERB_ORDER.length);
  // Resources with the same verbs share one phrase: "read projects, queues and silences".
  const byVerbs = new Map<string, string[]>();
  for (const [noun, verbs] of byNoun) {
    const key = listInWords([...verbs].sort((a, b) => rank(a) - rank(b)));
    byVerbs.set(key, [...(byVerbs.get(key) ?? []), noun]);
  }
  return [...[...byVerbs].map(([verbs, nouns]) => `${verbs} ${listInWords(nouns)}`), ...phrases].join('; ');
}

/** What the named policy grants, or null for a name POLICIES does not have. */
export function describePolicy(policy: string): string | null {
  const permissions = POLICIES[policy];
  return permissions ? describePermissions(permissions) : null;
}
