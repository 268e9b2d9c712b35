/**
 * The example app, on Backstage's new frontend system: the catalog (with Flink Standalone's card
 * on the component overview and its tab on the component page, both shown only for entities
 * that name a Flink cluster), the scaffolder (with the Flink cluster template), guest sign-in.
 */
import { SignInPage } from '@backstage/core-components';
import { createApp } from '@backstage/frontend-defaults';
import { createFrontendModule } from '@backstage/frontend-plugin-api';
import {
  SignInPageBlueprint,
  SignInPageProps,
} from '@backstage/plugin-app-react';
import catalogPlugin from '@backstage/plugin-catalog/alpha';
import scaffolderPlugin from '@backstage/plugin-scaffolder/alpha';
import flinkStandalonePlugin from '@flink-standalone/plugin-flink-standalone/alpha';

const guestSignIn = SignInPageBlueprint.make({
  params: {
    loader: async () => (props: SignInPageProps) => (
      <SignInPage {...props} auto providers={['guest']} />
    ),
  },
});

export default createApp({
  features: [
    catalogPlugin,
    scaffolderPlugin,
    flinkStandalonePlugin,
    createFrontendModule({ pluginId: 'app', extensions: [guestSignIn] }),
  ],
});
