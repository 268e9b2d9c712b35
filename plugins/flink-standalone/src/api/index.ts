export { flinkStandaloneApiRef } from './FlinkStandaloneApi';
export type { FlinkStandaloneApi } from './FlinkStandaloneApi';
export { FlinkStandaloneClient } from './FlinkStandaloneClient';
