import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  createRealNodeNamespace,
  removeWorkDir,
  useControlPlane,
  waitFor,
} from '@flink-standalone/testenv';
import { launchChromium } from './browser';
import { ExampleApp, newWorkDir } from './exampleApp';

/**
 * A developer creates a Flink cluster from the software template in the example app and watches
 * it on its entity page; all of it real: the backend and frontend as `npm start` runs them, the
 * control plane, the cluster's pods running real Flink on the plane's real node, Chromium.
 */
// Each run's screenshots of the card and the tab (git-ignored; the README shows a copy from docs/).
// eslint-disable-next-line no-restricted-syntax
const SCREENSHOTS = path.resolve(
  __dirname,
  '../../../test-results/screenshots',
);
const TASK_MANAGERS = 3;

const plane = useControlPlane();
let app: ExampleApp;
let browser: Browser;
let namespace: string;
let workDir: string;
const name = `e2e-${Date.now().toString(36)}`;

beforeAll(async () => {
  namespace = await createRealNodeNamespace(plane(), 'e2e');
  workDir = newWorkDir();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  app = await ExampleApp.create({
    kubeconfigPath: plane().kubeconfigPath,
    allowedNamespaces: [namespace],
    workDir,
  });
  await Promise.all([app.startBackend(), app.startFrontend()]);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (workDir) removeWorkDir(workDir);
}, 60_000);

async function signedInPage(): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 1000 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  return page;
}

/** Every test has a browser context of its own, so the guest sign-in page asks once: enter. */
async function open(page: Page, url: string) {
  await page.goto(url);
  await page.getByRole('button', { name: /enter/i }).click();
}

const next = (page: Page) => page.getByRole('button', { name: 'Next' }).click();

/** The pod and claim tables of the TaskManager section, as the text of their cells. */
async function rowsOf(page: Page, table: string): Promise<string[][]> {
  return page
    .getByRole('table', { name: table })
    .locator('tbody tr')
    .evaluateAll(rows =>
      rows.map(row =>
        [...row.querySelectorAll('td')].map(td => td.innerText.trim()),
      ),
    );
}

/** Waits until the page shows what `check` looks for; on failure, keeps a screenshot. */
async function eventually<T>(
  page: Page,
  what: string,
  check: () => Promise<T | false | undefined>,
  timeoutMs = 90_000,
) {
  try {
    return await waitFor(what, check, { timeoutMs, intervalMs: 500 });
  } catch (error) {
    const screenshot = path.join(
      SCREENSHOTS,
      `failed-${what.replace(/\W+/g, '-')}.png`,
    );
    await page.screenshot({ path: screenshot, fullPage: true }).catch(() => {});
    throw new Error(
      `${(error as Error).message}\nscreenshot: ${screenshot}\n--- backend log ---\n${app.logTail('backend')}`,
    );
  }
}

describe('the example app in a real browser', () => {
  let entityUrl: string;

  it('creates a cluster from the template, links to its entity, and shows ordinals 0..n-1 with Bound claims', async () => {
    const page = await signedInPage();
    await open(
      page,
      `${app.appUrl}/create/templates/default/flink-standalone-cluster`,
    );

    await page.locator('#root_name').fill(name);
    const owner = page.locator('#root_owner');
    await owner.fill('streaming-team');
    await page
      .getByRole('option', { name: /streaming-team/ })
      .first()
      .click();
    await next(page);

    await page.locator('#root_namespace').fill(namespace);
    await next(page);
    await next(page); // Flink: the defaults (2.2, session)
    await page.locator('#root_taskManagers').fill(String(TASK_MANAGERS));
    // Small CPU requests: the real node has 2 cores for every test's pods.
    for (const field of ['jobManagerCpu', 'taskManagerCpu']) {
      await page.locator(`#root_${field}`).click();
      await page.getByRole('option', { name: '0.25', exact: true }).click();
    }
    await next(page);
    await next(page); // Storage and workloads: StatefulSet TaskManagers, a standard-10g claim each
    // Delivery: create it now, no repository (the example app registers the component itself).
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Create' }).click();

    // The task waits until the pods are Ready and the claims Bound, then registers the component.
    const link = page.getByRole('link', { name: 'Component in the catalog' });
    await link.waitFor({ timeout: 300_000 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'task.png') });
    await link.click();
    await page.getByRole('heading', { name }).first().waitFor();
    entityUrl = page.url().replace(/\/$/, '');
    // The card: READY, Flink's REST answers through the proxy, every TaskManager registered.
    const facts = await eventually(
      page,
      'READY with registered TaskManagers on the card',
      async () => {
        const text = await page.locator('main').innerText();
        return (
          /READY/.test(text) &&
          text.includes(
            `${TASK_MANAGERS}/${TASK_MANAGERS} ready, ${TASK_MANAGERS} registered in Flink`,
          ) &&
          text
        );
      },
      180_000,
    );
    expect(facts).toMatch(/REST API answers \(Flink 2\.2\./);
    expect(facts).toContain(`${2 * TASK_MANAGERS}/${2 * TASK_MANAGERS} free`);
    await page.screenshot({
      path: path.join(SCREENSHOTS, 'entity-card.png'),
      fullPage: true,
    });

    await page.getByRole('link', { name: 'Flink', exact: true }).click();
    const pods = await eventually(
      page,
      'every TaskManager Ready on the tab',
      async () => {
        const rows = await rowsOf(page, 'TaskManagers pods');
        return (
          rows.length === TASK_MANAGERS &&
          rows.every(r => r[3] === 'Ready') &&
          rows
        );
      },
    );
    expect(pods.map(r => [r[0], r[1]])).toEqual(
      [...Array(TASK_MANAGERS).keys()].map(i => [
        String(i),
        `${name}-taskmanager-${i}`,
      ]),
    );
    const claims = await rowsOf(page, 'TaskManagers claims');
    expect(claims.map(r => [r[0], r[1], r[2]])).toEqual(
      [...Array(TASK_MANAGERS).keys()].map(i => [
        String(i),
        `flink-data-${name}-taskmanager-${i}`,
        expect.stringMatching(/^Bound/),
      ]),
    );
    // Shown once the permission answer arrives.
    await page.getByRole('button', { name: 'Scale TaskManagers' }).waitFor();
    await page.screenshot({
      path: path.join(SCREENSHOTS, 'entity-tab.png'),
      fullPage: true,
    });
  });

  it('shows a deleted TaskManager pod terminating and coming back', async () => {
    const page = await signedInPage();
    await open(page, `${entityUrl}/flink`);
    const pod = `${name}-taskmanager-1`;
    await eventually(
      page,
      'the tab',
      async () =>
        (await rowsOf(page, 'TaskManagers pods')).length === TASK_MANAGERS,
    );

    // A finalizer holds the deleted pod in Terminating long enough to be seen.
    await plane().faults.stickTerminating(namespace, pod);
    const terminating = await eventually(
      page,
      'ordinal 1 terminating on the tab',
      async () => {
        const row = (await rowsOf(page, 'TaskManagers pods')).find(
          r => r[1] === pod,
        );
        return row && /^for /.test(row[9]) && row;
      },
    );
    expect(terminating[0]).toBe('1');

    await plane().faults.releaseTerminating(namespace, pod);
    const back = await eventually(page, 'ordinal 1 Ready again', async () => {
      const row = (await rowsOf(page, 'TaskManagers pods')).find(
        r => r[1] === pod,
      );
      return row && row[3] === 'Ready' && row[9] === '—' && row;
    });
    expect(back[0]).toBe('1');
    // The same claim: the restarted TaskManager finds its state (local recovery).
    const claims = await rowsOf(page, 'TaskManagers claims');
    expect(claims.find(r => r[0] === '1')?.slice(1, 3)).toEqual([
      `flink-data-${pod}`,
      expect.stringMatching(/^Bound/),
    ]);
  });

  it('hides the scale button from a user without the scale permission', async () => {
    await app.startBackend('user:default/viewer');
    const page = await signedInPage();
    const scaleDecision = page.waitForResponse(
      response =>
        response.url().endsWith('/api/permission/authorize') &&
        (response.request().postData() ?? '').includes(
          'flink.standalone.scale',
        ),
    );
    await open(page, `${entityUrl}/flink`);
    // The backend said no: the button stays hidden for a reason, not for want of an answer.
    const response = await scaleDecision;
    const asked: { id: string; permission: { name: string } }[] = JSON.parse(
      response.request().postData()!,
    ).items;
    const answers: { id: string; result: string }[] = (await response.json())
      .items;
    const scaleIds = asked
      .filter(a => a.permission.name === 'flink.standalone.scale')
      .map(a => a.id);
    expect(
      answers.filter(a => scaleIds.includes(a.id)).map(a => a.result),
    ).toEqual(scaleIds.map(() => 'DENY'));
    await eventually(
      page,
      'the tab for the viewer',
      async () =>
        (await rowsOf(page, 'TaskManagers pods')).length === TASK_MANAGERS,
    );
    // Two refreshes: the permission answers have long arrived (the guest saw the button by then).
    await page.waitForTimeout(5_000);
    await expect(
      page.getByRole('button', { name: 'Scale TaskManagers' }).count(),
    ).resolves.toBe(0);
    await expect(
      page.getByRole('button', { name: /Delete/ }).count(),
    ).resolves.toBe(0);
  });
});
