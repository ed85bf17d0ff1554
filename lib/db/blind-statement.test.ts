import { describe, expect, it } from 'vitest';
import { listApiKeys } from '../api-keys/list-service';
import { getDb, runBlindStatement, runStatement } from './client';
import { insertScratchProject } from './scratch-project';
import { scratchPostgres } from '../../server/testing/test-database';

const { reachable, use } = await scratchPostgres('blind');

describe.skipIf(!reachable)('statements blind to their values (PostgreSQL)', () => {
  use();

  const session = `select current_setting('application_name') as app, current_setting('plan_cache_mode') as mode`;

  it('run on sessions that keep one plan per statement; every other statement as before', async () => {
    expect(await runBlindStatement(session, [])).toEqual([{ app: 'svc-search', mode: 'force_generic_plan' }]);
    expect(await runStatement(session, [])).toEqual([{ app: 'svc', mode: 'auto' }]);
  });

  it('a search is planned once, not for each q: no run of it is a custom plan', async () => {
    const { organizationId: id } = await insertScratchProject(await getDb(), 'Blind');
    for (const q of ['deploy', 'zanzibar', 'svc_AbC1', 'xy']) await listApiKeys(id, null, { limit: 50, q });
    const [plans] = await runBlindStatement<{ custom: string; generic: string }>(
      `select coalesce(sum(custom_plans), 0)::text as custom, coalesce(sum(generic_plans), 0)::text as generic
         from pg_prepared_statements where statement like '%"found" as materialized%'`,
      [],
    );
    expect(plans.custom).toBe('0');
    expect(Number(plans.generic)).toBeGreaterThan(0);
  });
});
