/**
 * Scaffolder actions for standalone Flink clusters on Kubernetes: flink:standalone:validate,
 * flink:standalone:render and flink:standalone:apply.
 *
 * @packageDocumentation
 */
export { scaffolderModuleFlinkStandalone as default } from './module';
export { createApplyAction, APPLY_ACTION_ID } from './actions/apply';
export type {
  ApplyActionInput,
  ApplyActionOptions,
  ApplyActionOutput,
} from './actions/apply';
export { createRenderAction, RENDER_ACTION_ID } from './actions/render';
export { createValidateAction, VALIDATE_ACTION_ID } from './actions/validate';
export {
  ClaimTemplates,
  CLAIM_TEMPLATE_ANNOTATION,
} from './claimTemplates/ClaimTemplates';
export type {
  ClaimTemplate,
  FlinkComponentKey,
} from './claimTemplates/ClaimTemplates';
