import { describe, expect, it } from 'vitest';
import { ScimError, scimBoolean, toScimUser } from './resource';
import { patchChanges } from './users';

const user = toScimUser(
  {
    id: '6f1c1f8e-2a59-4a8e-9a53-3f0c1d2e4b5a',
    email: 'bob@acme.test',
    name: 'Bob Builder',
    status: 'active',
    scimExternalId: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    updatedAt: new Date('2026-01-01T00:00:00Z'),
  },
  'http://localhost',
);
const patch = (...operations: unknown[]) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations: operations,
});

describe('SCIM PATCH in the shapes identity providers send', () => {
  const suspending: [string, unknown][] = [
    ['Okta: replace, no path, boolean', patch({ op: 'replace', value: { active: false } })],
    ['Entra: Replace, path, string "False"', patch({ op: 'Replace', path: 'active', value: 'False' })],
    ['path in another case', patch({ op: 'replace', path: 'Active', value: false })],
    ['no path, key in another case, string', patch({ op: 'REPLACE', value: { Active: 'false' } })],
    ['add', patch({ op: 'add', path: 'active', value: false })],
    ['lower-case operations key', { operations: [{ op: 'replace', path: 'active', value: false }] }],
    [
      'among other attributes',
      patch(
        { op: 'replace', value: { displayName: 'Bob', active: false } },
        { op: 'replace', path: 'name.givenName', value: 'Bob' },
      ),
    ],
  ];
  for (const [shape, body] of suspending) {
    it(`suspends: ${shape}`, () => expect(patchChanges(user, body).active).toBe(false));
  }

  it('reactivates with "True", and changes nothing for an unrelated attribute', () => {
    expect(
      patchChanges({ ...user, active: false }, patch({ op: 'Replace', path: 'active', value: 'True' })).active,
    ).toBe(true);
    expect(patchChanges(user, patch({ op: 'replace', path: 'displayName', value: 'B' }))).toEqual({
      active: undefined,
      externalId: undefined,
    });
  });

  it('keeps a new externalId', () => {
    expect(patchChanges(user, patch({ op: 'add', path: 'externalId', value: 'okta-123' })).externalId).toBe('okta-123');
  });

  it('refuses a value that is no boolean, an unknown op and a missing Operations array', () => {
    for (const body of [
      patch({ op: 'replace', path: 'active', value: 'maybe' }),
      patch({ op: 'explode', path: 'active', value: false }),
      { op: 'replace' },
    ]) {
      expect(() => patchChanges(user, body)).toThrow(ScimError);
    }
  });
});

describe('scimBoolean', () => {
  it('reads booleans and their string forms in any case, and nothing else', () => {
    expect([true, false, 'True', 'FALSE', ' false '].map(scimBoolean)).toEqual([true, false, true, false, false]);
    expect([0, 'no', null, undefined, ''].map(scimBoolean)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
