import type { APIRequestContext } from '@playwright/test';
import { bearer, expect, sessionFor, test, type Demo } from '../fixtures';
import { amPath, runLabel } from '../support/alerts';
import { createKey } from '../support/api-keys';
import { E2E } from '../support/env';
import { spawnServer, type Spawned } from '../support/spawn-server';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { attemptsOf, createWebhook } from '../support/webhooks';

// Globex's alerting project: no other spec posts alerts there, and its endpoint hears only `alert.*`.
const alertsPath = (demo: Demo) => `${amPath(demo.globex, demo.globexProject)}/alerts`;
const silencesPath = (demo: Demo) => `/v1/organizations/${demo.globex}/projects/${demo.globexProject}/obs/silences`;

type Message = {
  id: string;
  type: string;
  timestamp: string;
  alert: { fingerprint: string; labels: Record<string, string>; state: string; silencedBy: string[] };
  projectId: string;
};

/** What reached the receiver for this run's alerts, each message once (a retried message keeps its id). */
function messagesOf(receiver: Receiver, run: string): Message[] {
  const seen = new Map<string, Message>();
  for (const r of receiver.received) {
    const body = JSON.parse(r.body) as {
      type: string;
      timestamp: string;
      data: Omit<Message, 'id' | 'type' | 'timestamp'>;
    };
    if (body.data.alert?.labels?.run !== run) continue;
    seen.set(r.id, { id: r.id, type: body.type, timestamp: body.timestamp, ...body.data });
  }
  return [...seen.values()];
}

/** `type alertname` of each message, sorted: what a phase of a test expects to have been sent. */
const summary = (messages: Message[]) => messages.map((m) => `${m.type} ${m.alert.labels.alertname}`).sort();

const alert = (run: string, alertname: string, endsAt?: string) => ({
  labels: { alertname, run, severity: 'page' },
  annotations: { summary: `${alertname} is broken` },
  ...(endsAt ? { endsAt } : {}),
});

async function post(api: APIRequestContext, demo: Demo, alerts: unknown[]) {
  const res = await api.post(alertsPath(demo), { data: alerts });
  expect(res.status(), await res.text()).toBe(200);
}

async function silence(ctx: APIRequestContext, demo: Demo, run: string, endsAt: Date, value = '.+') {
  const res = await ctx.post(silencesPath(demo), {
    data: {
      comment: 'notification test',
      matchers: [
        { label: 'run', op: '=', value: run },
        { label: 'alertname', op: '=~', value },
      ],
      endsAt: endsAt.toISOString(),
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function expire(ctx: APIRequestContext, demo: Demo, id: string) {
  const res = await ctx.delete(`${silencesPath(demo)}/${id}`);
  expect([200, 409], await res.text()).toContain(res.status());
}

/** How many unresolved alerts of this run a regex-only draft would mute, as one instance answers. */
async function previewed(ctx: APIRequestContext, demo: Demo, run: string): Promise<number> {
  const res = await ctx.post(`${silencesPath(demo)}/preview`, {
    data: { matchers: [{ label: 'run', op: '=~', value: run }] },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { total: number }).total;
}

const inMinutes = (n: number) => new Date(Date.now() + n * 60_000);
const past = () => new Date(Date.now() - 1_000).toISOString();

test.describe('alert notifications through webhooks', () => {
  test.describe.configure({ mode: 'serial' });
  let receiver: Receiver;
  test.beforeAll(async () => {
    receiver = await startReceiver(E2E.port + 47);
  });
  test.afterAll(async () => receiver?.close());

  test('firing once whatever the resends, nothing while muted, firing when the silence ends, resolved once', async ({
    as,
    demo,
  }) => {
    test.setTimeout(60_000);
    const gil = await as('gil');
    const { webhook, secret } = await createWebhook(gil, demo.globex, {
      url: `${receiver.url}/a`,
      events: ['alert.*'],
    });
    const { secret: key } = await createKey(gil, demo.globex, {
      name: 'prometheus',
      permissions: ['obs.alerts.create'],
    });
    const api = await bearer(key);
    const run = runLabel();
    const sent = async (expected: string[]) =>
      expect.poll(() => summary(messagesOf(receiver, run)), { timeout: 15_000 }).toEqual([...expected].sort());

    for (let i = 0; i < 3; i++) await post(api, demo, [alert(run, 'Disk'), alert(run, 'Cpu')]);
    await sent(['alert.firing Cpu', 'alert.firing Disk']);

    // Silences over Cpu and over Mem (before Mem first fires): resends say nothing; Cpu's silence expired, Cpu is
    // told again (it may have changed meanwhile).
    const quiet = await silence(gil, demo, run, inMinutes(60), 'Cpu');
    await silence(gil, demo, run, inMinutes(60), 'Mem');
    await post(api, demo, [alert(run, 'Cpu'), alert(run, 'Mem')]);
    await expire(gil, demo, quiet);
    await sent(['alert.firing Cpu', 'alert.firing Disk', 'alert.firing Cpu']);

    // Resolved: Disk once, however often it is sent resolved; Mem, muted all its life, never.
    for (let i = 0; i < 2; i++) await post(api, demo, [alert(run, 'Disk', past()), alert(run, 'Mem', past())]);
    await sent(['alert.firing Cpu', 'alert.firing Disk', 'alert.firing Cpu', 'alert.resolved Disk']);

    // Signed as every webhook is, each transition its own message id, the body as documented.
    const messages = messagesOf(receiver, run);
    expect(new Set(messages.map((m) => m.id)).size).toBe(messages.length);
    const ours = receiver.received.filter((r) => messages.some((m) => m.id === r.id));
    expect(receiver.verify(secret, ours).map((p) => p.type)).toEqual(ours.map((r) => JSON.parse(r.body).type));
    const resolved = messages.find((m) => m.type === 'alert.resolved')!;
    expect(resolved).toMatchObject({
      projectId: demo.globexProject,
      alert: { labels: { alertname: 'Disk', run, severity: 'page' }, state: 'resolved', silencedBy: [] },
    });
    expect(Date.parse(resolved.timestamp)).toBeGreaterThan(Date.now() - 60_000);

    // An endpoint of api_key.* only hears nothing of alerts.
    const keysOnly = await createWebhook(gil, demo.globex, { url: `${receiver.url}/keys`, events: ['api_key.*'] });
    await post(api, demo, [alert(run, 'Cpu', past())]);
    await sent([
      'alert.firing Cpu',
      'alert.firing Disk',
      'alert.firing Cpu',
      'alert.resolved Disk',
      'alert.resolved Cpu',
    ]);
    expect(await attemptsOf(gil, demo.globex, keysOnly.webhook.id)).toEqual([]);
    await gil.delete(`/v1/organizations/${demo.globex}/webhooks/${keysOnly.webhook.id}`);
    await gil.delete(`/v1/organizations/${demo.globex}/webhooks/${webhook.id}`);
    await api.dispose();
  });
});

// Every instance decides transitions and runs the clock's job; on one PostgreSQL each transition must be sent once.
test.describe('alert notifications on two instances', () => {
  test.skip(!process.env.DATABASE_URL, 'needs PostgreSQL (DATABASE_URL): the embedded database is one process');
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(150_000);

  let a: Spawned;
  let b: Spawned;
  let receiver: Receiver;
  const opened: APIRequestContext[] = [];
  test.beforeAll(async () => {
    const env = {
      DATABASE_URL: process.env.DATABASE_URL!,
      WEBHOOK_ALLOW_LOOPBACK: '1',
      WEBHOOK_POLL_MS: '50',
      RATE_LIMIT_REQUESTS: '100000',
      RATE_LIMIT_NAMESPACE: `alert-hooks-${Date.now()}-`,
    };
    [a, b, receiver] = await Promise.all([
      spawnServer(E2E.port + 48, env),
      spawnServer(E2E.port + 49, env),
      startReceiver(E2E.port + 56),
    ]);
    // Background jobs start 5 s after the database opens: from then on both instances run the clock's job.
    await new Promise((resolve) => setTimeout(resolve, 5_500));
  });
  test.afterAll(async () => {
    await Promise.all(opened.map((c) => c.dispose()));
    await Promise.all([a?.stop(), b?.stop(), receiver?.close()]);
  });

  for (const trial of [1, 2, 3, 4, 5])
    test(`trial ${trial}: 20 alerts sent to both at once, muted, unmuted on both and by the clock, resolved`, async ({
      demo,
    }) => {
      const onA = await sessionFor('gil', a.url);
      const onB = await sessionFor('gil', b.url);
      opened.push(onA, onB);
      const { webhook } = await createWebhook(onA, demo.globex, { url: `${receiver.url}/t${trial}`, events: ['*'] });
      const { secret: key } = await createKey(onA, demo.globex, { name: `prometheus ${trial}`, expiresInDays: 1 });
      const [apiA, apiB] = await Promise.all([bearer(key, a.url), bearer(key, b.url)]);
      opened.push(apiA, apiB);
      const run = runLabel();
      const names = Array.from({ length: 20 }, (_, i) => `A${i}`);
      const batch = (endsAt?: string) => names.map((n) => alert(run, n, endsAt));
      // Each phase: exactly one message of `type` per alert, after waiting for stragglers.
      const exactlyOnce = async (phase: number, type: string) => {
        const expected = names.map((n) => `${type} ${n}`);
        await expect
          .poll(() => summary(messagesOf(receiver, run)).filter((s) => s.startsWith(type)).length, { timeout: 30_000 })
          .toBeGreaterThanOrEqual(expected.length * phase);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const ofType = summary(messagesOf(receiver, run).filter((m) => m.type === type));
        expect(ofType).toEqual(names.flatMap((n) => Array.from({ length: phase }, () => `${type} ${n}`)).sort());
      };

      // Each instance keeps its last read of the project's label values for the preview (lib/alerts/epoch.ts): every
      // write must show in both instances' next previews.
      const previews = async () => [await previewed(onA, demo, run), await previewed(onB, demo, run)];
      expect(await previews()).toEqual([0, 0]);

      // 1. The same batch to both instances, five times at once: one firing each.
      await Promise.all(Array.from({ length: 5 }, () => [post(apiA, demo, batch()), post(apiB, demo, batch())]).flat());
      await exactlyOnce(1, 'alert.firing');
      expect(await previews()).toEqual([20, 20]);

      // 2. Four silences, two made on each instance, expired all at once, two on each: of the four deciding
      // transactions, one sees the last end (without the project's lock each saw the others still active).
      const silences = await Promise.all([onA, onB, onA, onB].map((on) => silence(on, demo, run, inMinutes(60))));
      await Promise.all([post(apiA, demo, batch()), post(apiB, demo, batch())]);
      await Promise.all(silences.map((id, i) => expire(i % 2 ? onB : onA, demo, id)));
      await exactlyOnce(2, 'alert.firing');

      // 3. A silence ending by the clock in 3 s, while both instances resend: one firing each, from either job.
      await silence(onB, demo, run, new Date(Date.now() + 3_000));
      // A resend still open when the interval stops could land between phase 4's two resolved posts and reopen each
      // alert, so that the second resolves it again: every one is waited for before phase 4 starts.
      const resends: Promise<unknown>[] = [];
      const resend = setInterval(
        () => resends.push(Promise.all([post(apiA, demo, batch()), post(apiB, demo, batch())]).catch(() => {})),
        1_000,
      );
      try {
        await exactlyOnce(3, 'alert.firing');
      } finally {
        clearInterval(resend);
        await Promise.all(resends);
      }

      // 4. Resolved, sent to both at once, twice: one resolved each.
      await Promise.all([post(apiA, demo, batch(past())), post(apiB, demo, batch(past()))]);
      await Promise.all([post(apiA, demo, batch(past())), post(apiB, demo, batch(past()))]);
      await exactlyOnce(1, 'alert.resolved');
      expect(await previews()).toEqual([0, 0]);
      await onA.delete(`/v1/organizations/${demo.globex}/webhooks/${webhook.id}`);

      // 5. Firing again and resolved again, sent to B only: A's next preview, from its kept read, must see each.
      await post(apiB, demo, batch());
      expect(await previewed(onA, demo, run)).toBe(20);
      await post(apiB, demo, batch(past()));
      expect(await previewed(onA, demo, run)).toBe(0);
    });
});
