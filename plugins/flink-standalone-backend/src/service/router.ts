import type { HttpAuthService } from '@backstage/backend-plugin-api';
import { InputError } from '@backstage/errors';
import {
  parseClusterSpec,
  renderCluster,
  toYaml,
  validateClusterSpec,
} from '@flink-standalone/plugin-flink-standalone-common';
import {
  type FlinkStandaloneClusterService,
  jsonBody,
} from '@flink-standalone/plugin-flink-standalone-node';
import express from 'express';
import Router from 'express-promise-router';
import { z } from 'zod';
import type { FlinkStandaloneService } from './FlinkStandaloneService';

export interface RouterOptions {
  service: FlinkStandaloneService;
  clusters: FlinkStandaloneClusterService;
  httpAuth: HttpAuthService;
}

/** Entity refs in the path: kind, namespace and name as the catalog spells them. */
const entityParams = z.object({
  kind: z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, {
    error: 'must be an entity kind such as component',
  }),
  namespace: z
    .string()
    .regex(/^[a-z0-9][-a-z0-9]*$/i, { error: 'must be an entity namespace' }),
  name: z
    .string()
    .regex(/^[A-Za-z0-9][-A-Za-z0-9_.]*$/, { error: 'must be an entity name' }),
});

const scaleBody = z.strictObject({
  taskManagers: z
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(0)
    .max(1000),
});

const queryFlag = z
  .enum(['true', 'false'], { error: 'must be true or false' })
  .optional();

const deleteQuery = z.strictObject({
  deleteClaims: queryFlag,
  deleteHighAvailabilityData: queryFlag,
});

const asFlag = (value: 'true' | 'false' | undefined) =>
  value === undefined ? undefined : value === 'true';

/** A cluster spec, as the template and the render action take it. */
const renderBody = z.strictObject({ spec: z.unknown() });

/** The pod a remedy acts on: the one the status names. */
const podBody = z.strictObject({
  pod: z
    .string({ error: 'must be the name of the pod the status names' })
    .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, {
      error: 'must be a pod name',
    }),
});

/** Parses with zod; a failure is a 400 that names each field and its rule. */
function parse<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map(
    issue => `${[where, ...issue.path].join('.')}: ${issue.message}`,
  );
  throw new InputError(`Invalid request: ${problems.join('; ')}`);
}

/** Distinct `Accept-Encoding` values whose answer is kept: browsers send a handful. */
const KEPT_ACCEPT_ENCODINGS = 64;

/**
 * Whether a request takes gzip, negotiated once per `Accept-Encoding` value: every poll of a
 * status page sends the same header, and negotiating it anew allocated more per read than the
 * rest of the route's own work.
 */
function gzipNegotiation(): (req: express.Request) => boolean {
  const byHeader = new Map<string, boolean>();
  return req => {
    const header = req.headers['accept-encoding'];
    const kept = header === undefined ? undefined : byHeader.get(header);
    if (kept !== undefined) return kept;
    const accepted = req.acceptsEncodings('gzip') === 'gzip';
    if (header !== undefined && byHeader.size < KEPT_ACCEPT_ENCODINGS)
      byHeader.set(header, accepted);
    return accepted;
  };
}

export function createRouter({
  service,
  clusters,
  httpAuth,
}: RouterOptions): express.Router {
  const router = Router();
  const acceptsGzip = gzipNegotiation();
  router.use(express.json({ limit: '1mb' }));

  router.get('/entities/:namespace/:kind/:name/status', async (req, res) => {
    const ref = parse(entityParams, req.params, 'params');
    const parts = await service.getStatusJson(
      ref,
      await httpAuth.credentials(req),
    );
    // Gzip when asked (browsers do), from the observer's compressed memo: Backstage's compression
    // middleware leaves an encoded answer alone instead of compressing each poll anew. No ETag,
    // since every answer says when it was observed; the chunks are written as they come, not
    // copied into one body.
    const encoding = acceptsGzip(req) ? 'gzip' : 'identity';
    const chunks = jsonBody(parts, encoding);
    res.status(200).set('Content-Type', 'application/json; charset=utf-8');
    res.vary('Accept-Encoding');
    if (encoding === 'gzip') res.set('Content-Encoding', 'gzip');
    res.set(
      'Content-Length',
      String(chunks.reduce((length, chunk) => length + chunk.length, 0)),
    );
    res.cork();
    for (const chunk of chunks) res.write(chunk);
    res.end();
  });

  router.post('/entities/:namespace/:kind/:name/scale', async (req, res) => {
    const ref = parse(entityParams, req.params, 'params');
    const { taskManagers } = parse(scaleBody, req.body, 'body');
    res.json(
      await service.scale(ref, taskManagers, await httpAuth.credentials(req)),
    );
  });

  router.delete('/entities/:namespace/:kind/:name', async (req, res) => {
    const ref = parse(entityParams, req.params, 'params');
    const query = parse(deleteQuery, req.query, 'query');
    const options = {
      deleteClaims: asFlag(query.deleteClaims),
      deleteHighAvailabilityData: asFlag(query.deleteHighAvailabilityData),
    };
    res.json(
      await service.delete(ref, options, await httpAuth.credentials(req)),
    );
  });

  // The remedies on one pod the status names, each judged by the service against a fresh status.
  const podRemedies = {
    'unblock-rollout': 'unblockRollout',
    'force-delete-pod': 'forceDeletePod',
  } as const;
  for (const [route, remedy] of Object.entries(podRemedies)) {
    router.post(
      `/entities/:namespace/:kind/:name/${route}`,
      async (req, res) => {
        const ref = parse(entityParams, req.params, 'params');
        const { pod } = parse(podBody, req.body, 'body');
        res.json(
          await service[remedy](ref, pod, await httpAuth.credentials(req)),
        );
      },
    );
  }

  router.post('/entities/:namespace/:kind/:name/plan', async (req, res) => {
    const ref = parse(entityParams, req.params, 'params');
    const { spec } = parse(renderBody, req.body, 'body');
    res.json(
      await service.planChange(ref, spec, await httpAuth.credentials(req)),
    );
  });

  // A preview for forms: the manifests of a spec, or every problem with it (not an error).
  router.post('/render', async (req, res) => {
    await httpAuth.credentials(req);
    const { spec } = parse(renderBody, req.body, 'body');
    const validation = validateClusterSpec(spec);
    if (!validation.valid) {
      res.json({ valid: false, problems: validation.problems });
      return;
    }
    const objects = renderCluster(parseClusterSpec(spec));
    res.json({ valid: true, problems: [], objects, yaml: toYaml(objects) });
  });

  router.get('/clusters', async (req, res) => {
    await httpAuth.credentials(req);
    const registry = await clusters.getClusters();
    res.json({ clusters: registry.list().map(({ name }) => ({ name })) });
  });

  return router;
}
