/**
 * Common types and functions of the Flink Standalone plugins: the cluster spec a software
 * template fills in, and the renderer that turns it into Kubernetes objects.
 *
 * @packageDocumentation
 */
export * from './spec';
export * from './render';
export * from './status';
export * from './annotations';
export * from './permissions';
export * from './api';
export * from './plan';
