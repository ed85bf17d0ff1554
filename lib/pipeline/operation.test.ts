import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { allOperations } from '../../server/operations';
import { alertmanagerOperations } from '../alertmanager/operations';
import { SCOPE_PARAMS } from './operation';

const TENANT_PARAMS = ['orgId', 'projectId'];

describe('operation declarations', () => {
  it.each(allOperations.map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s names exactly the tenant parameters of its declared scope',
    (_, op) => {
      const inPath = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(inPath.filter((name) => TENANT_PARAMS.includes(name))).toEqual(SCOPE_PARAMS[op.scope]);
      const schemaKeys = op.params ? Object.keys((op.params as z.ZodObject).shape) : [];
      expect(schemaKeys.sort()).toEqual([...inPath].sort());
    },
  );

  it('keeps idempotency records inside an organization', () => {
    for (const op of allOperations.filter((o) => o.idempotent)) expect(op.scope, op.path).not.toBe('none');
  });

  const ANONYMOUS_WRITES = [
    '/v1/auth/passkey/options',
    '/v1/setup',
    '/v1/set-password',
    '/v1/invitations/{token}/accept',
  ];

  it('declares the credentials of every operation, and only public ones take none', () => {
    for (const op of allOperations) {
      // Anonymous writes: what comes before there is any credential (the passkey sign-in's options) or a one-time
      // token stands for it (the first setup, a set-password link, an invitation's acceptance).
      if (op.credentials === 'public' && op.method !== 'GET') expect(ANONYMOUS_WRITES, op.path).toContain(op.path);
      else if (op.credentials === 'signed') expect(op.path).toMatch(/^\/v1\/secret-scanning\//);
      else expect(op.credentials.length, op.path).toBeGreaterThan(0);
      if (op.credentialRefusal) expect(op.credentials, op.path).not.toBe('public');
    }
  });

  it.each([...allOperations, ...alertmanagerOperations].map((op) => [`${op.method} ${op.path}`, op] as const))(
    '%s declares exactly one need: a permission, any of several, self, or no credential',
    (_, op) => {
      const anonymous = op.credentials === 'public' || op.credentials === 'signed';
      const declared = [op.permission, op.anyPermission, op.self].filter((need) => need !== undefined);
      expect(declared).toHaveLength(anonymous ? 0 : 1);
      if (op.self?.restrictedKeys && typeof op.self.restrictedKeys === 'object') {
        expect(op.path).toContain(`{${op.self.restrictedKeys.ownKey}}`);
      }
    },
  );
});
