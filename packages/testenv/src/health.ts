import http from 'node:http';
import https from 'node:https';

/** Status code of a GET, or 0 when nothing answers; TLS is not verified (health probes only). */
export function probe(url: string, timeoutMs = 2000): Promise<number> {
  const get = url.startsWith('https:') ? https.get : http.get;
  return new Promise(resolve => {
    const req = get(
      url,
      { rejectUnauthorized: false, timeout: timeoutMs },
      res => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
  });
}
