import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  issueClientCertificate,
  selfSignedCertificate,
  useControlPlane,
} from '@flink-standalone/testenv';
import { whoAmI } from '../__testUtils__/whoAmI';
import { KubeHttp, type KubeConnection } from './KubeHttp';

const plane = useControlPlane();

describe('KubeHttp connections', () => {
  it('presents a rotated client certificate from its next request on, against the real API server', async () => {
    const { ca, cert, key } = plane().admin;
    const rotated = await issueClientCertificate(
      plane().client,
      'flink-standalone-rotated',
    );
    let presented = { cert, key };
    const http = new KubeHttp({
      server: plane().server,
      async applyToHTTPSOptions(options: https.RequestOptions) {
        options.ca = ca;
        options.cert = presented.cert;
        options.key = presented.key;
      },
    });
    try {
      expect(await whoAmI(http)).toBe('testenv-admin');
      // A keep-alive connection stays authenticated as whom it was opened by: a rotated
      // certificate must open a new one.
      presented = rotated;
      expect(await whoAmI(http)).toBe('flink-standalone-rotated');
      expect(await whoAmI(http)).toBe('flink-standalone-rotated');
    } finally {
      http.close();
    }
  });

  describe('against a TLS server that counts its connections', () => {
    let server: https.Server;
    let certificate: string;
    let key: string;
    /** The server's side of every connection opened, in order. */
    let connections: TLSSocket[] = [];

    beforeAll(async () => {
      ({ cert: certificate, key } = await selfSignedCertificate('127.0.0.1'));
      server = https.createServer(
        {
          cert: certificate,
          key,
        },
        (_request, response) => response.end('{}'),
      );
      // Idle connections stay open until a client closes them (Node closes them after 5 s).
      server.keepAliveTimeout = 0;
      server.on('secureConnection', socket => connections.push(socket));
      await new Promise<void>(resolve =>
        server.listen(0, '127.0.0.1', resolve),
      );
    });

    beforeEach(() => {
      connections = [];
    });

    afterAll(async () => {
      server.closeAllConnections();
      await new Promise(resolve => server.close(resolve));
    });

    /**
     * A connection that trusts the server's certificate, given as a new Buffer on every request
     * as a kubeconfig gives it, and adds what `more` says.
     */
    const connection = (
      more: (options: https.RequestOptions) => void = () => {},
    ): KubeConnection => ({
      server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      async applyToHTTPSOptions(options) {
        options.ca = Buffer.from(certificate);
        more(options);
      },
    });

    it.each([
      ['the same bytes in new Buffers', () => {}],
      [
        'a new list of the same certificates',
        (options: https.RequestOptions) => {
          options.ca = [Buffer.from(certificate)];
        },
      ],
    ])(
      'keeps one connection while the CA is %s',
      async (_case, more: (options: https.RequestOptions) => void) => {
        const http = new KubeHttp(connection(more));
        try {
          for (let i = 0; i < 3; i++) await http.json({ path: '/api' });
          expect(connections).toHaveLength(1);
        } finally {
          http.close();
        }
      },
    );

    it('opens a new connection when the identity changes, and closes the old one', async () => {
      let verify: boolean | undefined;
      const http = new KubeHttp(
        connection(options => {
          if (verify !== undefined) options.rejectUnauthorized = verify;
        }),
      );
      try {
        await http.json({ path: '/api' });
        // Another identity by its options (certificates verified, as by default).
        verify = true;
        await http.json({ path: '/api' });
        expect(connections).toHaveLength(2);
        const [old, current] = connections;
        await closed(old);
        expect(current.destroyed).toBe(false);
      } finally {
        http.close();
      }
    });
  });
});

/** Resolves once the server's side of a connection has closed. */
function closed(socket: TLSSocket): Promise<void> {
  return new Promise(resolve => {
    if (socket.closed) resolve();
    else socket.once('close', () => resolve());
  });
}
