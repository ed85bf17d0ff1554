import { EMAILS, expect, test } from '../fixtures';
import { postAlerts } from '../support/alerts';
import { alertSender, alertsPage, tabTo } from '../support/alerts-ui';
import { expectAccessible, expectAccessibleInBothSchemes, switchScheme } from '../support/axe';
import { signInAs } from '../support/console';
import { listAll, productionSilences } from '../support/silences';

// From a firing alert to a saved silence, keyboard only, on a desktop and a phone; axe in both schemes on each.
for (const width of [1280, 320] as const) {
  test(`bob silences a firing alert from the Alerts page by keyboard at ${width} px`, async ({ page, as, demo }) => {
    // A keyboard walk with four axe scans and a 30-minute alert set: long, not slow.
    test.slow();
    const { run, fire } = await alertSender(await as('ada'), demo);
    await fire([
      { alertname: 'VolumeFull', instance: 'db-1' },
      { alertname: 'VolumeFull', instance: 'db-2' },
      { alertname: 'SlowResponses', instance: 'api-1' },
    ]);
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
    await signInAs(page, EMAILS.bob);
    await page.goto(alertsPage(demo));
    await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();

    // The filter: this run's alerts only, as a removable chip.
    const filter = page.getByLabel('Filter by matcher');
    await tabTo(page, filter);
    // A regex RE2 refuses is said under the field, and nothing is asked of the server.
    await page.keyboard.type('run=~"("');
    await page.keyboard.press('Enter');
    await expect(page.getByText(/Not a valid RE2 expression/)).toBeVisible();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(`run="${run}"`);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('list', { name: 'Filters' }).getByRole('listitem')).toHaveText([`run="${run}"×`]);
    await expect(page).toHaveURL(/filter=run/);

    const firing = page.getByRole('region', { name: 'Firing', exact: true });
    const silenced = page.getByRole('region', { name: 'Silenced', exact: true });
    await expect(firing.getByRole('heading', { level: 3 })).toHaveText(['SlowResponses (1)', 'VolumeFull (2)']);
    await expect(silenced.getByText('No silenced alerts')).toBeVisible();
    const db1 = firing.locator('tr', { hasText: 'instance="db-1"' });
    await expect(db1.getByText('Firing', { exact: true })).toBeVisible();
    for (const colorScheme of ['light', 'dark'] as const) {
      await switchScheme(page, colorScheme);
      await expectAccessible(page, `alerts page, ${width} px ${colorScheme}`);
      await page.screenshot({ path: `test-results/screens/alerts-${width}-${colorScheme}.png`, fullPage: true });
    }

    // Silence…: the editor opens with the alert's labels as = matchers; instance is removed to silence both volumes.
    const opener = db1.getByRole('button', { name: /^Silence VolumeFull alert/ });
    await tabTo(page, opener, 120);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New silence' });
    await expect(dialog).toBeVisible();
    const rows = dialog.locator('[data-testid^="matcher-"]');
    await expect(rows).toHaveCount(3);
    const labels = await rows
      .locator('input[id$="-label"]')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect([...labels].sort()).toEqual(['alertname', 'instance', 'run']);
    await expect(dialog.getByTestId('affected-count')).toHaveText('(1)');
    const instanceRow = rows.nth(labels.indexOf('instance'));
    await tabTo(page, instanceRow.getByRole('button', { name: /Remove matcher/ }));
    await page.keyboard.press('Enter');
    await expect(rows).toHaveCount(2);
    await expect(dialog.getByTestId('affected-count')).toHaveText('(2)');
    await expect(dialog.locator('[data-affected-alert]')).toHaveCount(2);
    const comment = `volumes of ${run}`;
    await tabTo(page, dialog.getByLabel('Comment'));
    await page.keyboard.type(comment);
    for (const colorScheme of ['light', 'dark'] as const) {
      await switchScheme(page, colorScheme);
      await expectAccessible(page, `new silence from an alert, ${width} px ${colorScheme}`);
      await page.screenshot({ path: `test-results/screens/alerts-silence-${width}-${colorScheme}.png` });
    }
    await tabTo(page, dialog.getByRole('button', { name: 'Create silence' }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByText(/Created silence sil_[a-z0-9]{12}: it is active/)).toBeVisible();

    // Saved with the labels kept; both volumes move to Silenced with a link to it and no "Silence…" any more, and
    // focus follows the alert, to its link.
    const [created] = (await listAll(await as('bob'), productionSilences(demo))).filter((s) => s.comment === comment);
    expect(created.matchers).toEqual(
      expect.arrayContaining([
        { label: 'alertname', op: '=', value: 'VolumeFull' },
        { label: 'run', op: '=', value: run },
      ]),
    );
    expect(created.matchers).toHaveLength(2);
    await expect(firing.getByRole('heading', { level: 3 })).toHaveText(['SlowResponses (1)']);
    await expect(silenced.getByRole('heading', { level: 3 })).toHaveText(['VolumeFull (2)']);
    await expect(silenced.getByRole('link', { name: new RegExp(`Silenced by ${created.slug}`) })).toHaveCount(2);
    await expect(silenced.getByRole('button', { name: /^Silence VolumeFull alert/ })).toHaveCount(0);
    await expect(firing.getByRole('button', { name: /^Silence SlowResponses alert/ })).toHaveCount(1);
    await expect(page.locator(':focus')).toHaveAttribute('href', new RegExp(`silences\\?open=${created.id}`));
    await page.screenshot({ path: `test-results/screens/alerts-after-${width}.png`, fullPage: true });

    // The link opens the silence in the Silences page.
    await tabTo(page, silenced.getByRole('link', { name: new RegExp(`Silenced by ${created.slug}`) }).first(), 120);
    await page.keyboard.press('Enter');
    const editor = page.getByRole('dialog', { name: 'Edit silence' });
    await expect(editor).toContainText(created.slug);
    await page.keyboard.press('Escape');
    await expect(editor).toBeHidden();
    await expect(page).not.toHaveURL(/open=/);
    await expect(page.locator(`tr[data-silence-id="${created.id}"]`)).toContainText('Mutes 2 alerts');
    await (await as('bob')).delete(`${productionSilences(demo)}/${created.id}`);
  });
}

// A refused alert is said on the page its project's people look at, not only in the sender's log.
test('refused alerts are said on the Alerts page, with the latest reason; axe clean with the note', async ({
  page,
  as,
  demo,
}) => {
  const { api, run } = await alertSender(await as('ada'), demo);
  const res = await postAlerts(api, demo, [
    { labels: { alertname: 'Fine', run } },
    { labels: { alertname: 'Broken', run, 'bad-name': 'x' } },
  ]);
  expect(res.status()).toBe(400);
  await page.setViewportSize({ width: 320, height: 800 });
  await signInAs(page, EMAILS.bob);
  await page.goto(alertsPage(demo));
  const note = page.getByRole('region', { name: /alerts? refused in the last day/ });
  await expect(note).toBeVisible();
  await expect(note).toContainText(/Latest .*: invalid label set: invalid name "bad-name"/);
  await expectAccessible(page, 'the Alerts page with the refusals note');
  await page.screenshot({ path: 'test-results/screens/alerts-refused-320.png', fullPage: true });
});

// With alerts received, how to connect a sender waits behind its disclosure; bob may not make bots, and is told so.
test('Connect a sender opens by keyboard at 320 px once alerts exist, with the last post; axe in both schemes', async ({
  page,
  as,
  demo,
}) => {
  const { fire } = await alertSender(await as('ada'), demo);
  await fire([{ alertname: 'SenderShown' }]);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 320, height: 800 });
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'reduce' });
  await signInAs(page, EMAILS.bob);
  await page.goto(alertsPage(demo));
  const connect = page.getByRole('region', { name: 'Connect a sender' });
  await expect(connect).toContainText(/Last alert post received (just now|\d+ seconds? ago)/);
  const disclosure = connect.getByRole('button', { name: 'Connect a sender' });
  await expect(disclosure).toHaveAttribute('aria-expanded', 'false');
  await expect(connect.getByText('Alertmanager URL')).toBeHidden();
  await tabTo(page, disclosure);
  await page.keyboard.press('Enter');
  await expect(disclosure).toHaveAttribute('aria-expanded', 'true');
  await expect(connect).toContainText('Making a sender needs bots.create and bots.createApiKey');
  await expect(connect).toContainText(`/alertmanager/${demo.acme}/${demo.production}`);
  const copy = connect.getByRole('button', { name: 'Copy Alertmanager URL' });
  await tabTo(page, copy);
  await page.keyboard.press('Enter');
  await expect(copy).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(
    new RegExp(`^http://127\\.0\\.0\\.1:\\d+/alertmanager/${demo.acme}/${demo.production}$`),
  );
  await expectAccessibleInBothSchemes(page, 'the Alerts page with Connect a sender open', {
    name: 'alerts-connect-open-320',
    fullPage: true,
  });
  await disclosure.focus();
  await page.keyboard.press('Enter');
  await expect(disclosure).toHaveAttribute('aria-expanded', 'false');
  await expect(disclosure).toBeFocused();
});

test('an alert posted while the Alerts page was in another window shows on coming back, without a reload', async ({
  page,
  as,
  demo,
}) => {
  const { run, fire } = await alertSender(await as('ada'), demo);
  await signInAs(page, EMAILS.bob);
  await page.goto(alertsPage(demo));
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

  const alertname = `Refocused_${run}`;
  await fire([{ alertname, instance: 'web-1' }]);
  await expect(page.getByText(alertname)).toHaveCount(0);
  // Back from another window: a focus of this one. The lists' own timer asks every 30 s from their first answer
  // (with the page), so the alert shows well before that only because the focus asked.
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(page.getByText(alertname).first()).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
});
