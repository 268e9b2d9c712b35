export { EntityFlinkStandaloneCard } from './EntityFlinkStandaloneCard';
export type { EntityFlinkStandaloneCardProps } from './EntityFlinkStandaloneCard';
