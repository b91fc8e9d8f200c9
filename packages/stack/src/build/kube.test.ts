import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { throwawayGoMod } from './kube.ts';

describe('throwawayGoMod', () => {
  it('replaces upstream staging paths with the published v0 modules and keeps go and godebug', () => {
    const mod = throwawayGoMod({
      Go: { Version: '1.26.0' },
      Godebug: [{ Key: 'default', Value: 'go1.26' }],
      Replace: [
        { Old: { Path: 'k8s.io/api' }, New: { Path: './staging/src/k8s.io/api' } },
        { Old: { Path: 'example.com/fork' }, New: { Path: 'example.com/other' } },
      ],
    });
    assert.match(mod, /^go 1\.26\.0$/m);
    assert.match(mod, /^godebug default=go1\.26$/m);
    assert.match(mod, /^\tk8s\.io\/api => k8s\.io\/api v0\.37\.2$/m);
    assert.doesNotMatch(mod, /example\.com/);
  });
});
