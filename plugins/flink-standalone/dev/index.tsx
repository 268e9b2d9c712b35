/** @jsxImportSource react */
import Grid from '@material-ui/core/Grid';
import { createDevApp } from '@backstage/dev-utils';
import { EntityProvider } from '@backstage/plugin-catalog-react';
import {
  type PermissionApi,
  permissionApiRef,
} from '@backstage/plugin-permission-react';
import { AuthorizeResult } from '@backstage/plugin-permission-common';
import type { FlinkClusterStatus } from '@flink-standalone/plugin-flink-standalone-common';
import {
  EntityFlinkStandaloneCard,
  EntityFlinkStandaloneContent,
  flinkStandaloneApiRef,
  flinkStandalonePlugin,
} from '../src';
import { FakeFlinkStandaloneApi } from '../src/testing/FakeFlinkStandaloneApi';
import {
  deployingStatus,
  errorStatus,
  flinkEntity,
  pendingClaimStatus,
  readyStatus,
  simulatedNodesStatus,
  staleStatus,
  statusResponse,
  stuckPodStatus,
} from '../src/testing/fixtures';

// Example entities, one per state the observer can report, answered by a fake API.
const EXAMPLES: Record<string, () => FlinkClusterStatus> = {
  ready: () => readyStatus(3),
  deploying: deployingStatus,
  error: errorStatus,
  'simulated-nodes': simulatedNodesStatus,
  stale: staleStatus,
  'stuck-pod': stuckPodStatus,
  'pending-claim': pendingClaimStatus,
  'fifty-ordinals': () => readyStatus(50),
};

const fakeFlinkStandaloneApi = new FakeFlinkStandaloneApi(
  Object.fromEntries(
    Object.entries(EXAMPLES).map(([name, build]) => {
      // Observed "now", so the ages in the harness read sensibly.
      const status = { ...build(), observedAt: new Date().toISOString() };
      return [name, statusResponse(status, 'https://flink.example.com/')];
    }),
  ),
);

const allowEverything: PermissionApi = {
  authorize: async () => ({ result: AuthorizeResult.ALLOW }),
};

function ExamplePage(props: { name: string }) {
  return (
    <EntityProvider entity={flinkEntity(props.name)}>
      <Grid container spacing={3}>
        <Grid item xs={12} md={5}>
          <EntityFlinkStandaloneCard />
        </Grid>
        <Grid item xs={12}>
          <EntityFlinkStandaloneContent />
        </Grid>
      </Grid>
    </EntityProvider>
  );
}

const app = createDevApp()
  .registerPlugin(flinkStandalonePlugin)
  .registerApi({
    api: flinkStandaloneApiRef,
    deps: {},
    factory: () => fakeFlinkStandaloneApi,
  })
  .registerApi({
    api: permissionApiRef,
    deps: {},
    factory: () => allowEverything,
  });

for (const name of Object.keys(EXAMPLES)) {
  app.addPage({
    path: `/flink-${name}`,
    title: `Flink: ${name}`,
    element: <ExamplePage name={name} />,
  });
}

app.render();
