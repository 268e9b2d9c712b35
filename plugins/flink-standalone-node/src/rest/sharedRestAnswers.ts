import type { CacheService } from '@backstage/backend-plugin-api';

/**
 * Where backend replicas share Flink REST answers: what the REST client needs of Backstage's
 * `CacheService` (the flink-standalone plugin's own).
 *
 * @public
 */
export type SharedRestAnswers = Pick<CacheService, 'get' | 'set'>;
