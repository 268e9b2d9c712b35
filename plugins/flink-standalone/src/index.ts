/**
 * The Flink Standalone frontend plugin: an entity card and tab showing the live state of a
 * standalone Flink cluster on Kubernetes, and the API client of its backend.
 *
 * @packageDocumentation
 */
export {
  flinkStandalonePlugin,
  EntityFlinkStandaloneCard,
  EntityFlinkStandaloneContent,
} from './plugin';
export type { EntityFlinkStandaloneCardProps } from './components/EntityFlinkStandaloneCard';
export type { EntityFlinkStandaloneContentProps } from './components/EntityFlinkStandaloneContent';
export { flinkStandaloneApiRef, FlinkStandaloneClient } from './api';
export type { FlinkStandaloneApi } from './api';
export { isFlinkStandaloneAvailable } from '@flink-standalone/plugin-flink-standalone-common';
