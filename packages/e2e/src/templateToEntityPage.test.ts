import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parseAllDocuments, stringify } from 'yaml';
import {
  createRealNodeNamespace,
  RbacManifestObject,
  removeWorkDir,
  serviceAccountToken,
  tokenKubeconfig,
  useControlPlane,
  waitFor,
} from '@flink-standalone/testenv';
import { launchChromium } from './browser';
import { ExampleApp, newWorkDir } from './exampleApp';
import { coverageOf } from './layout';

/**
 * A developer creates Flink clusters from the software template in the example app and operates
 * them on their entity pages; all of it real: the backend and frontend as `npm start` runs them
 * (the backend with the least-privilege ServiceAccount of examples/rbac, not the plane's admin),
 * the control plane, the clusters' pods running real Flink on the plane's real node, Chromium.
 * One backend and app serve every case; each case works on a cluster of its own, except those
 * on the first cluster, which say so (see `clusterA`).
 */
// Each run's screenshots (git-ignored; the README shows a copy from docs/).
// eslint-disable-next-line no-restricted-syntax
const SCREENSHOTS = path.resolve(
  __dirname,
  '../../../test-results/screenshots',
);
// eslint-disable-next-line no-restricted-syntax
const RBAC_FILE = path.resolve(
  __dirname,
  '../../../examples/rbac/flink-standalone-backend.yaml',
);
const TASK_MANAGERS = 2;
/** The permissions behind the tab's scale and delete buttons. */
const OPERATIONS = [
  'flink.standalone.scale',
  'flink.standalone.delete',
  'flink.standalone.rollout.unblock',
  'flink.standalone.pod.forceDelete',
];
/** The widths the layout is checked at: a laptop's and a desktop monitor's. */
const WIDTHS = [1280, 1920];

// Every journey waits for pods on the loaded 2-core machine (page waits up to 540 s). Set here:
// under \`backstage-cli repo test\` the root config's testTimeout applies, not this package's.
jest.setTimeout(900_000);

const plane = useControlPlane();
let app: ExampleApp;
let browser: Browser;
let namespace: string;
let workDir: string;
const run = Date.now().toString(36);
const name = `e2e-${run}`;
/** The same cluster, as a component of a team the signed-in guest is not in. */
const platformOwned = `${name}-platform`;

beforeAll(async () => {
  namespace = await createRealNodeNamespace(plane(), 'e2e');
  workDir = newWorkDir();
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const rbac = parseAllDocuments(fs.readFileSync(RBAC_FILE, 'utf8')).map(
    d => d.toJS() as RbacManifestObject,
  );
  const kubeconfigPath = path.join(workDir, 'backend.kubeconfig');
  fs.writeFileSync(
    kubeconfigPath,
    tokenKubeconfig(
      plane(),
      await serviceAccountToken(plane(), rbac, 'e2e-backend'),
    ),
    { mode: 0o600 },
  );
  const platformComponent = path.join(workDir, 'platform-owned.yaml');
  fs.writeFileSync(
    platformComponent,
    stringify({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'Component',
      metadata: {
        name: platformOwned,
        annotations: {
          'flink-standalone.backstage.io/kubernetes-cluster': 'local',
          'flink-standalone.backstage.io/namespace': namespace,
          'flink-standalone.backstage.io/cluster': name,
        },
      },
      spec: {
        type: 'service',
        lifecycle: 'experimental',
        owner: 'platform-team',
      },
    }),
  );
  app = await ExampleApp.create({
    kubeconfigPath,
    allowedNamespaces: [namespace],
    workDir,
    catalogFiles: [platformComponent],
  });
  await Promise.all([app.startBackend(), app.startFrontend()]);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  if (workDir) removeWorkDir(workDir);
}, 60_000);

/** The page the running case opened last: what its failure report shows. */
let journeyPage: Page | undefined;

async function signedInPage(width = 1400): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: 1000 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  keepJournal(page);
  journeyPage = page;
  return page;
}

/**
 * A case of the browser test whose failure says what the page showed (see `failureReport`):
 * `it('…', reported(async () => …))`.
 */
function reported(journey: () => Promise<void>) {
  return async () => {
    journeyPage = undefined;
    try {
      await journey();
    } catch (error) {
      if (!journeyPage) throw error;
      throw await failureReport(journeyPage, error);
    }
  };
}

/** What each page went through that a failure report needs and a screenshot does not show. */
const journals = new WeakMap<Page, string[]>();

/**
 * Keeps the page's navigations (a reload by the dev server is one), errors, and the dev server
 * client's messages, each with its time.
 */
function keepJournal(page: Page) {
  const lines: string[] = [];
  const note = (line: string) =>
    lines.push(`${new Date().toISOString().slice(11, 23)} ${line}`);
  page.on('framenavigated', frame => {
    if (frame === page.mainFrame()) note(`navigated to ${frame.url()}`);
  });
  page.on('console', message => {
    const text = message.text();
    // React's development warnings ("Warning: …") are the same on every page: not kept.
    const problem =
      ['error', 'warning'].includes(message.type()) && !/^Warning: /.test(text);
    if (problem || /dev-server|HMR/i.test(text)) {
      note(`console.${message.type()}: ${text.split('\n')[0].slice(0, 300)}`);
    }
  });
  page.on('pageerror', error => note(`page error: ${error.message}`));
  page.on('crash', () => note('page crashed'));
  journals.set(page, lines);
}

/**
 * The error a failed journey ends with: the original message, a screenshot, what the page says,
 * its journal, and the tails of the backend's and the dev server's logs.
 */
async function failureReport(page: Page, error: unknown) {
  const test = expect.getState().currentTestName ?? 'journey';
  const screenshot = path.join(
    SCREENSHOTS,
    `failed-${test.replace(/\W+/g, '-').slice(0, 100)}.png`,
  );
  await page.screenshot({ path: screenshot, fullPage: true }).catch(() => {});
  const text = await page
    .locator('body')
    .innerText({ timeout: 5_000 })
    .catch(reason => `(no text: ${(reason as Error).message})`);
  const report = new Error(
    [
      (error as Error).message,
      `screenshot: ${screenshot}`,
      `--- the page says ---\n${text}`,
      `--- the page's journal ---\n${(journals.get(page) ?? []).slice(-40).join('\n')}`,
      `--- backend log ---\n${app.logTail('backend')}`,
      `--- dev server log ---\n${app.logTail('app', 20)}`,
    ].join('\n'),
  );
  // The failed step's frames, so that Jest points at its line.
  const frames = (error as Error).stack
    ?.split('\n')
    .filter(l => /^\s+at /.test(l));
  report.stack = [`Error: ${report.message}`, ...(frames ?? [])].join('\n');
  return report;
}

/** Every test has a browser context of its own, so the guest sign-in page asks once: enter. */
async function open(page: Page, url: string) {
  // The app's dev server holds requests while it rebuilds after a file change: wait for the
  // page to become usable, not for its load event within the default timeout.
  await page.goto(url, { waitUntil: 'commit' });
  await page
    .getByRole('button', { name: /enter/i })
    .click({ timeout: 300_000 });
}

const next = (page: Page) => page.getByRole('button', { name: 'Next' }).click();

interface ClusterForm {
  name: string;
  namespace: string;
  taskManagers: number;
  /** GitOps delivery into this GitHub repository; otherwise the template creates it now. */
  gitops?: { owner: string; repo: string };
  /** The claims' retention when TaskManagers are scaled down (the form's default: Delete). */
  claimsWhenScaled?: 'Retain';
}

/** Fills the template's form as a developer does and starts the task; returns on the task page. */
async function createFromTemplate(page: Page, form: ClusterForm) {
  await open(
    page,
    `${app.appUrl}/create/templates/default/flink-standalone-cluster`,
  );
  // The form's bundle is loaded after sign-in, from the same (possibly rebuilding) dev server.
  await page.locator('#root_name').waitFor({ timeout: 300_000 });
  await page.locator('#root_name').fill(form.name);
  const owner = page.locator('#root_owner');
  await owner.fill('streaming-team');
  await page
    .getByRole('option', { name: /streaming-team/ })
    .first()
    .click();
  await next(page);

  await page.locator('#root_namespace').fill(form.namespace);
  await next(page);
  await next(page); // Flink: the defaults (2.2, session)
  await page.locator('#root_taskManagers').fill(String(form.taskManagers));
  // Small CPU requests: the real node has 2 cores for every test's pods.
  for (const field of ['jobManagerCpu', 'taskManagerCpu']) {
    await page.locator(`#root_${field}`).click();
    await page.getByRole('option', { name: '0.25', exact: true }).click();
  }
  await next(page);
  // Storage and workloads: StatefulSet TaskManagers, a standard-10g claim each
  if (form.claimsWhenScaled) {
    await page.locator('#root_claimRetentionWhenScaled').click();
    await page
      .getByRole('option', { name: form.claimsWhenScaled, exact: true })
      .click();
  }
  await next(page);
  if (form.gitops) {
    await page.locator('#root_delivery').click();
    await page
      .getByRole('option', { name: /Put the manifests in a new repository/ })
      .click();
    await page.getByLabel(/^Owner\b/).fill(form.gitops.owner);
    const repository = page.getByLabel(/^Repository\b/);
    await repository.fill(form.gitops.repo);
    // The picker's repository field is a free-text autocomplete: it takes the text on blur.
    await repository.press('Tab');
  }
  // Otherwise create it now, no repository (the example app registers the component itself).
  await page.getByRole('button', { name: 'Review' }).click();
  // Exactly: "How the cluster is created" (the delivery select) is a button too.
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  // As every page wait here: a loaded machine can take minutes to create the task. If it is
  // not created, the journey's report shows what the form says instead (a field error, a
  // refused request).
  await page.waitForURL(/\/create\/tasks\//, {
    waitUntil: 'commit',
    timeout: 300_000,
  });
}

/** Creates a cluster from the template and opens its entity page once it is READY. */
async function createReadyCluster(
  page: Page,
  form: ClusterForm,
  taskScreenshot?: string,
) {
  await createFromTemplate(page, form);
  // The task waits until the pods are Ready and the claims Bound, then registers the component.
  const link = page.getByRole('link', { name: 'Component in the catalog' });
  await link.waitFor({ timeout: 540_000 });
  if (taskScreenshot) {
    await page.screenshot({ path: path.join(SCREENSHOTS, taskScreenshot) });
  }
  // As every page wait here: the link can be re-rendered, or the page reloaded by the dev
  // server, while a loaded machine takes its time (the default 60 s ran out once in CI).
  await link.click({ timeout: 300_000 });
  await page
    .getByRole('heading', { name: form.name })
    .first()
    .waitFor({ timeout: 300_000 });
  return page.url().replace(/\/$/, '');
}

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

/** Waits until the page shows what `check` looks for. */
function eventually<T>(
  what: string,
  check: () => Promise<T | false | undefined>,
  timeoutMs = 90_000,
) {
  return waitFor(what, check, { timeoutMs, intervalMs: 500 });
}

/**
 * A screenshot of the whole page with the window as tall as the page: a full-page capture of a
 * shorter window draws the fixed sidebar only as high as the window.
 */
async function screenshotWhole(page: Page, file: string) {
  const viewport = page.viewportSize()!;
  const height = await page.evaluate(
    () => document.documentElement.scrollHeight,
  );
  await page.setViewportSize({ width: viewport.width, height });
  await page.screenshot({ path: path.join(SCREENSHOTS, file) });
  await page.setViewportSize(viewport);
}

const claimsOf = async (clusterName: string) =>
  (
    await plane().client.list(
      `/api/v1/namespaces/${namespace}/persistentvolumeclaims`,
    )
  ).items
    .map(c => c.metadata.name!)
    .filter(n => n.startsWith(`flink-data-${clusterName}-taskmanager-`))
    .sort();

/**
 * The permission answers of `permissionDecisions`, once the page has also rendered a
 * status it asked for after they arrived: a button missing then is missing because of the
 * answer, not because the answer is still on its way.
 */
async function settledPermissions(
  page: Page,
  decisions: Promise<Map<string, string>>,
) {
  const answers = await decisions;
  // The refresh runs every 2 s; one requested now completes after the answers were handled.
  const refreshed = await page.waitForResponse(r =>
    r.url().endsWith('/status'),
  );
  await refreshed.finished();
  // Two turns of the page's event loop: React commits what those responses set.
  await page.evaluate(
    () => new Promise(resolve => setTimeout(() => setTimeout(resolve, 0), 0)),
  );
  return Object.fromEntries(answers);
}

/**
 * Collects the page's permission answers for the operations on `entityRef` until every one is
 * in. Each answer is read as it arrives: an answer to a page navigated away from has no body to
 * read and never reached the screen, so it does not count (the next page asks again).
 */
function permissionDecisions(page: Page, entityRef: string) {
  const answers = new Map<string, string>();
  return new Promise<Map<string, string>>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no permission answers for ${entityRef}`)),
      60_000,
    );
    page.on('response', async response => {
      if (!response.url().endsWith('/api/permission/authorize')) return;
      const asked: {
        id: string;
        permission: { name: string };
        resourceRef?: string;
      }[] = JSON.parse(response.request().postData() ?? '{"items":[]}').items;
      const mine = asked.filter(
        a =>
          a.resourceRef === entityRef && OPERATIONS.includes(a.permission.name),
      );
      if (mine.length === 0) return;
      let results: { id: string; result: string }[];
      try {
        results = (await response.json()).items;
      } catch {
        return;
      }
      for (const item of mine) {
        answers.set(
          item.permission.name,
          results.find(r => r.id === item.id)!.result,
        );
      }
      if (OPERATIONS.every(w => answers.has(w))) {
        clearTimeout(timer);
        resolve(answers);
      }
    });
  });
}

/** Deletes the tab's cluster through its dialog, then waits for MISSING on the card. */
async function deleteFromTab(page: Page, deleteClaims: boolean) {
  await page.getByRole('button', { name: 'Delete cluster' }).click();
  const dialog = page.getByRole('dialog');
  const box = dialog.getByRole('checkbox');
  // Claims are kept unless asked for: the box starts unticked.
  await expect(box.isChecked()).resolves.toBe(false);
  if (deleteClaims) await box.check();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByText('Overview', { exact: true }).first().click();
  await eventually('MISSING on the card', async () =>
    /MISSING/.test(await page.locator('main').innerText()),
  );
}

/**
 * Set by the first case: the cluster it creates from the template. The cases that work on that
 * cluster say so by calling this, and fail with this message when it is not there.
 */
let clusterAUrl: string | undefined;
function clusterA(): string {
  if (!clusterAUrl) {
    throw new Error(
      `this case works on the cluster "${name}" that "creates a cluster from the template…" creates; that case failed or did not run`,
    );
  }
  return clusterAUrl;
}

describe('the example app in a real browser', () => {
  it(
    'shows a form validation error in the template and stays on the step',
    reported(async () => {
      const page = await signedInPage();
      await open(
        page,
        `${app.appUrl}/create/templates/default/flink-standalone-cluster`,
      );
      await page.locator('#root_name').fill('Not_A_Name');
      await page.locator('#root_owner').fill('streaming-team');
      await page
        .getByRole('option', { name: /streaming-team/ })
        .first()
        .click();
      await next(page);
      // The schema's pattern, said by the form next to the field; the next step is not shown.
      await page
        .getByText(/must match pattern/)
        .first()
        .waitFor();
      await expect(page.locator('#root_namespace').count()).resolves.toBe(0);
    }),
  );

  it(
    'fails the task for a namespace that is not allowed, with the reason on the task page',
    reported(async () => {
      const page = await signedInPage();
      const refused = `not-allowed-${run}`;
      await createFromTemplate(page, {
        name: `e2e-refused-${run}`,
        namespace: refused,
        taskManagers: 1,
      });
      await page
        .getByText(
          `Namespace "${refused}" is not allowed for Flink clusters on "local"`,
        )
        .first()
        .waitFor({ timeout: 120_000 });
      await expect(
        page.getByRole('link', { name: 'Component in the catalog' }).count(),
      ).resolves.toBe(0);
      await page.screenshot({
        path: path.join(SCREENSHOTS, 'task-failed.png'),
      });
    }),
  );

  it(
    'delivers through GitOps without applying anything: the publish step, not the apply, acts',
    reported(async () => {
      const page = await signedInPage();
      const gitops = `e2e-gitops-${run}`;
      await createFromTemplate(page, {
        name: gitops,
        namespace,
        taskManagers: 1,
        gitops: { owner: 'example', repo: gitops },
      });
      // The example app has no GitHub integration (nor a way out to github.com): publishing is
      // refused, naming the host. Everything before it ran; the apply step did not.
      await page
        .getByText(
          /(No token available|No matching integration configuration) for host:? github\.com/,
        )
        .first()
        .waitFor({ timeout: 120_000 });
      await expect(
        page.getByRole('link', { name: 'Component in the catalog' }).count(),
      ).resolves.toBe(0);
      for (const object of [
        `/apis/apps/v1/namespaces/${namespace}/deployments/${gitops}`,
        `/apis/apps/v1/namespaces/${namespace}/statefulsets/${gitops}-taskmanager`,
        `/api/v1/namespaces/${namespace}/configmaps/flink-config-${gitops}`,
      ]) {
        await expect(plane().client.find(object)).resolves.toBeUndefined();
      }
    }),
  );

  it(
    'creates a cluster from the template, links to its entity, and shows ordinals 0..n-1 with Bound claims, the sidebar beside the page at 1280 and 1920 px',
    reported(async () => {
      const page = await signedInPage();
      const entityUrl = await createReadyCluster(
        page,
        { name, namespace, taskManagers: TASK_MANAGERS },
        'task.png',
      );
      clusterAUrl = entityUrl;
      // The card: READY, Flink's REST answers through the proxy, every TaskManager registered.
      const facts = await eventually(
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
      await screenshotWhole(page, 'entity-card.png');
      // Chromium asks for compressed answers and decodes the route's gzip, assembled from the
      // observer's precompressed memo: the card above is drawn from such answers.
      const answer = await page.waitForResponse(r =>
        r.url().endsWith('/status'),
      );
      expect(answer.headers()['content-encoding']).toBe('gzip');
      expect((await answer.json()).status.taskManager.replicas.ready).toBe(
        TASK_MANAGERS,
      );

      await page.getByRole('link', { name: 'Flink', exact: true }).click();
      const pods = await eventually(
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

      // Issue #17: the sidebar drawn over the page header, the content shifted under it.
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 1000 });
        const title = page.getByRole('heading', { name }).first();
        const coverage = [
          await coverageOf(
            page,
            'the page header',
            page.locator('.bui-HeaderContent', { has: title }),
          ),
          await coverageOf(
            page,
            'the first table',
            page.getByRole('table').first(),
          ),
        ];
        await screenshotWhole(page, `entity-tab-${width}.png`);
        expect({ width, coverage }).toEqual({
          width,
          coverage: [
            { region: 'the page header', problems: [] },
            { region: 'the first table', problems: [] },
          ],
        });
      }
    }),
  );

  it(
    'shows a deleted TaskManager pod terminating and coming back',
    reported(async () => {
      const page = await signedInPage();
      await open(page, `${clusterA()}/flink`);
      const pod = `${name}-taskmanager-1`;
      await eventually(
        'the tab',
        async () =>
          (await rowsOf(page, 'TaskManagers pods')).length === TASK_MANAGERS,
      );

      // A finalizer holds the deleted pod in Terminating long enough to be seen.
      await plane().faults.stickTerminating(namespace, pod);
      const terminating = await eventually(
        'ordinal 1 terminating on the tab',
        async () => {
          const row = (await rowsOf(page, 'TaskManagers pods')).find(
            r => r[1] === pod,
          );
          return row && /^for /.test(row[row.length - 1]) && row;
        },
      );
      expect(terminating[0]).toBe('1');

      await plane().faults.releaseTerminating(namespace, pod);
      const back = await eventually('ordinal 1 Ready again', async () => {
        const row = (await rowsOf(page, 'TaskManagers pods')).find(
          r => r[1] === pod,
        );
        return row && row[3] === 'Ready' && row[row.length - 1] === '—' && row;
      });
      expect(back[0]).toBe('1');
      // The same claim: the restarted TaskManager finds its state (local recovery).
      const claims = await rowsOf(page, 'TaskManagers claims');
      expect(claims.find(r => r[0] === '1')?.slice(1, 3)).toEqual([
        `flink-data-${pod}`,
        expect.stringMatching(/^Bound/),
      ]);
    }),
  );

  it(
    'shows a signed-in non-owner no scale or delete button; an owner outside the platform team may not force-delete pods',
    reported(async () => {
      clusterA();
      const page = await signedInPage();
      // The guest (streaming-team) owns the template's component, and sees the buttons there…
      const owned = permissionDecisions(page, `component:default/${name}`);
      await open(page, `${clusterA()}/flink`);
      await expect(settledPermissions(page, owned)).resolves.toEqual({
        'flink.standalone.scale': 'ALLOW',
        'flink.standalone.delete': 'ALLOW',
        'flink.standalone.rollout.unblock': 'ALLOW',
        // Only whoever runs the nodes knows that a node is really gone.
        'flink.standalone.pod.forceDelete': 'DENY',
      });
      await page.getByRole('button', { name: 'Scale TaskManagers' }).waitFor();

      // …and not on the platform team's component of the same cluster.
      const ref = `component:default/${platformOwned}`;
      const other = await signedInPage();
      const denied = permissionDecisions(other, ref);
      await open(
        other,
        `${app.appUrl}/catalog/default/component/${platformOwned}/flink`,
      );
      await eventually(
        'the tab of the platform-owned component',
        async () =>
          (await rowsOf(other, 'TaskManagers pods')).length >= TASK_MANAGERS,
      );
      await expect(settledPermissions(other, denied)).resolves.toEqual({
        'flink.standalone.scale': 'DENY',
        'flink.standalone.delete': 'DENY',
        'flink.standalone.rollout.unblock': 'DENY',
        'flink.standalone.pod.forceDelete': 'DENY',
      });
      await expect(
        other.getByRole('button', { name: 'Scale TaskManagers' }).count(),
      ).resolves.toBe(0);
      await expect(
        other.getByRole('button', { name: /Delete/ }).count(),
      ).resolves.toBe(0);
    }),
  );

  it(
    'changes a running cluster by running the template again: the task log shows the plan before the apply',
    reported(async () => {
      clusterA();
      const page = await signedInPage();
      await createFromTemplate(page, {
        name,
        namespace,
        taskManagers: TASK_MANAGERS,
        claimsWhenScaled: 'Retain',
      });
      await page
        .getByRole('link', { name: 'Component in the catalog' })
        .waitFor({ timeout: 540_000 });
      // A task that ends well opens its log by itself; otherwise ask for it.
      const search = page.getByPlaceholder('Search');
      await search.waitFor({ timeout: 30_000 }).catch(async () => {
        await page.getByRole('button', { name: 'Show Logs' }).click();
        await search.waitFor();
      });
      // The log viewer scrolls to the first line that matches.
      await search.fill('plan:');
      const log = await eventually(
        'the change plan in the task log',
        async () => {
          const text = await page.locator('body').innerText();
          return text.includes('Plan: No pod restarts') && text;
        },
      );
      await page.screenshot({ path: path.join(SCREENSHOTS, 'task-plan.png') });
      // What changes, and that no pod restarts for it; said before the apply step applied it.
      expect(log).toMatch(
        new RegExp(
          `Plan: StatefulSet/${name}-taskmanager: updated \\([^)]*spec\\.persistentVolumeClaimRetentionPolicy\\.whenScaled`,
        ),
      );
      expect(log).toContain(
        'Plan: No pod restarts: running jobs are not affected.',
      );
      const taskManagers = await plane().client.get(
        `/apis/apps/v1/namespaces/${namespace}/statefulsets/${name}-taskmanager`,
      );
      expect(
        taskManagers.spec.persistentVolumeClaimRetentionPolicy.whenScaled,
      ).toBe('Retain');
    }),
  );

  it(
    'scales the TaskManagers from the tab: the new ordinal appears with its claim',
    reported(async () => {
      const page = await signedInPage();
      await open(page, `${clusterA()}/flink`);
      await page.getByRole('button', { name: 'Scale TaskManagers' }).click();
      const dialog = page.getByRole('dialog', { name: 'Scale TaskManagers' });
      await dialog.getByLabel('TaskManagers').fill(String(TASK_MANAGERS + 1));
      await dialog.getByRole('button', { name: 'Scale', exact: true }).click();
      await dialog.waitFor({ state: 'hidden' });
      const added = `${name}-taskmanager-${TASK_MANAGERS}`;
      const row = await eventually(
        `ordinal ${TASK_MANAGERS} Ready on the tab`,
        async () => {
          const pod = (await rowsOf(page, 'TaskManagers pods')).find(
            r => r[1] === added,
          );
          return pod && pod[3] === 'Ready' && pod;
        },
        180_000,
      );
      expect(row[0]).toBe(String(TASK_MANAGERS));
      const claims = await rowsOf(page, 'TaskManagers claims');
      expect(
        claims.find(r => r[0] === String(TASK_MANAGERS))?.slice(1, 3),
      ).toEqual([`flink-data-${added}`, expect.stringMatching(/^Bound/)]);
    }),
  );

  it(
    'deletes a cluster with its claims: the card reaches MISSING and the claims are gone',
    reported(async () => {
      const page = await signedInPage();
      const entityUrl = clusterA();
      expect(await claimsOf(name)).not.toEqual([]);
      await open(page, `${entityUrl}/flink`);
      await deleteFromTab(page, true);
      await waitFor(
        `the claims of ${name} deleted`,
        async () => (await claimsOf(name)).length === 0,
      );
    }),
  );

  it(
    'deletes a cluster keeping its claims: the card reaches MISSING and the claims stay Bound',
    reported(async () => {
      const page = await signedInPage();
      const kept = `e2e-kept-${run}`;
      const entityUrl = await createReadyCluster(page, {
        name: kept,
        namespace,
        taskManagers: 1,
      });
      const claims = await claimsOf(kept);
      expect(claims).toEqual([`flink-data-${kept}-taskmanager-0`]);
      expect(page.url()).toContain(entityUrl);
      await page.getByRole('link', { name: 'Flink', exact: true }).click();
      await deleteFromTab(page, false);
      // Gone: the cluster's workloads; kept: its claim, still Bound to its volume.
      await waitFor(
        `the StatefulSet of ${kept} deleted`,
        async () =>
          !(await plane().client.find(
            `/apis/apps/v1/namespaces/${namespace}/statefulsets/${kept}-taskmanager`,
          )),
      );
      const claim = await plane().client.get<{ status: { phase: string } }>(
        `/api/v1/namespaces/${namespace}/persistentvolumeclaims/${claims[0]}`,
      );
      expect(claim.status.phase).toBe('Bound');
    }),
  );

  it(
    'offers the platform team what it offers no owner: force-deleting a pod stuck on a lost node',
    reported(async () => {
      // The same example app, its guests now signed in as a member of the platform team.
      await app.startBackend('user:default/platform-admin');
      const page = await signedInPage();
      const ref = `component:default/${platformOwned}`;
      const url = `${app.appUrl}/catalog/default/component/${platformOwned}/flink`;
      /** Loads the tab again, signing in if the app asks. */
      const reopen = async () => {
        await page.goto(url, { waitUntil: 'commit' });
        const enter = page.getByRole('button', { name: /enter/i });
        await enter
          .waitFor({ timeout: 10_000 })
          .then(() => enter.click())
          .catch(() => {});
      };
      await open(page, url);
      // The restarted backend's catalog (in memory) reads its locations again first.
      await eventually(
        'the platform-owned component served again',
        async () => {
          if (/MISSING/.test(await page.locator('main').innerText()))
            return true;
          await reopen();
          return false;
        },
        300_000,
      );
      const decisions = permissionDecisions(page, ref);
      await reopen();
      await expect(settledPermissions(page, decisions)).resolves.toEqual({
        'flink.standalone.scale': 'ALLOW',
        'flink.standalone.delete': 'ALLOW',
        'flink.standalone.rollout.unblock': 'ALLOW',
        'flink.standalone.pod.forceDelete': 'ALLOW',
      });
    }),
  );
});
