/**
 * What a production backend (`createBackend()` of @backstage/backend-defaults) has around every
 * route and startTestBackend leaves out: the root HTTP router's default middleware (helmet,
 * CORS, compression, a log line per request, the rate limiter, off unless configured), in the
 * order backend-defaults applies them, and the root logger those lines go to (Winston in its
 * production format, JSON with a timestamp, the config's secrets redacted), writing to /dev/null
 * here instead of stdout, as Node writes to a pipe on Linux: synchronously, on the main thread.
 */
import { openSync, writeSync } from 'node:fs';
import type { RequestListener, Server } from 'node:http';
import { Writable } from 'node:stream';
import { MiddlewareFactory } from '@backstage/backend-defaults/rootHttpRouter';
import { WinstonLogger } from '@backstage/backend-defaults/rootLogger';
import { ConfigReader } from '@backstage/config';
import express from 'express';
import { format, transports } from 'winston';

/** The root logger as production's rootLoggerServiceFactory builds it, but for its output. */
export function productionLogger(secrets: string[]): WinstonLogger {
  const logger = WinstonLogger.create({
    meta: { service: 'backstage' },
    level: 'info',
    format: format.combine(format.timestamp(), format.json()),
    transports: [new transports.Stream({ stream: devNull() })],
  });
  logger.addRedactions(secrets);
  return logger;
}

/**
 * Where the log lines go: /dev/null, each line written as it comes, as Node writes to stdout
 * when it is a pipe (a container's, in production): synchronously, on the main thread. A file
 * stream would write through libuv's thread pool instead.
 */
function devNull(): Writable {
  const fd = openSync('/dev/null', 'w');
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      writeSync(fd, chunk);
      done();
    },
  });
}

/** CORS as the example app's config has it (a page of the app on another origin). */
const PRODUCTION_CORS = {
  origin: 'http://localhost:3000',
  methods: ['GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'DELETE'],
  credentials: true,
};

/**
 * Puts production's middleware in front of the test backend's router, whose own chain is
 * production's from there on (the health routes, the plugins' routes, not-found, errors).
 */
export function withProductionMiddleware(
  server: Server,
  logger: WinstonLogger,
): void {
  const [router, ...others] = server.listeners('request') as RequestListener[];
  if (!router || others.length > 0)
    throw new Error('expected the test backend router alone on its server');
  const middleware = MiddlewareFactory.create({
    config: new ConfigReader({ backend: { cors: PRODUCTION_CORS } }),
    logger: logger.child({ service: 'rootHttpRouter' }),
  });
  const app = express();
  app.use(middleware.helmet());
  app.use(middleware.cors());
  app.use(middleware.compression());
  app.use(middleware.logging());
  app.use(middleware.rateLimit());
  app.use((req, res) => router(req, res));
  server.removeListener('request', router);
  server.on('request', app);
}
