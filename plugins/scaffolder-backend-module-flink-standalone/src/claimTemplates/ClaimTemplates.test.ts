import { ConfigReader } from '@backstage/config';
import type { JsonObject } from '@backstage/types';
import { ClaimTemplates } from './ClaimTemplates';

const fromConfig = (claimTemplates: JsonObject[]) =>
  ClaimTemplates.fromConfig(
    new ConfigReader({ flinkStandalone: { claimTemplates } }),
  );

describe('ClaimTemplates from config', () => {
  it('reads named claim specs with the components they are allowed for', () => {
    const templates = fromConfig([
      {
        name: 'fast-ssd-50g',
        storage: '50Gi',
        storageClassName: 'fast-ssd',
        allowedFor: ['taskManager'],
      },
    ]);
    expect(templates.list()).toEqual([
      expect.objectContaining({
        name: 'fast-ssd-50g',
        storage: '50Gi',
        storageClassName: 'fast-ssd',
        allowedFor: ['taskManager'],
      }),
    ]);
    expect(ClaimTemplates.fromConfig(new ConfigReader({})).list()).toEqual([]);
  });

  it.each([
    [
      { name: 'a', storage: 'big', allowedFor: ['taskManager'] },
      /storage "big" is not a Kubernetes quantity/,
    ],
    [
      { name: 'a', storage: '1Gi', allowedFor: [] },
      /allowedFor must list jobManager and\/or taskManager/,
    ],
    [{ name: 'a', storage: '1Gi', allowedFor: ['sidecar'] }, /not sidecar/],
    [{ name: 'a', storage: '1Gi' }, /allowedFor/],
  ])('refuses a bad entry at startup: %j', (entry, message) => {
    expect(() => fromConfig([entry])).toThrow(message);
  });

  it('refuses a name defined twice', () => {
    const entry = { name: 'a', storage: '1Gi', allowedFor: ['taskManager'] };
    expect(() => fromConfig([entry, entry])).toThrow(/"a" is defined twice/);
  });

  it('leaves plain entries and input it cannot read for the spec parser', () => {
    const templates = fromConfig([]);
    const spec = {
      name: 'x',
      taskManager: {
        volumeClaimTemplates: [{ name: 'd', storage: '1Gi' }, 'junk'],
      },
    };
    expect(templates.resolve(spec)).toEqual(spec);
    expect(templates.resolve('not a spec')).toBe('not a spec');
  });
});
