export { EntityFlinkStandaloneContent } from './EntityFlinkStandaloneContent';
export type { EntityFlinkStandaloneContentProps } from './EntityFlinkStandaloneContent';
