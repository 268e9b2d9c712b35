/**
 * Node.js library of the Flink Standalone plugins: Kubernetes cluster access, the server-side
 * apply engine, the watch cache, the observer and the Flink REST client. Used by the backend
 * plugin and the scaffolder module.
 *
 * @packageDocumentation
 */
export {};
