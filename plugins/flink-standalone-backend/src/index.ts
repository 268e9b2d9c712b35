/**
 * The flink-standalone backend plugin.
 *
 * @packageDocumentation
 */
export { flinkStandalonePlugin as default } from './plugin';
