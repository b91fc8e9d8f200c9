import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clusterId } from './kafka-part.ts';

describe('clusterId', () => {
  it('draws 22-character base64url ids that never start with "-" (StorageTool would read one as an option)', () => {
    const ids = Array.from({ length: 2000 }, clusterId);
    assert.ok(ids.every((id) => /^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/.test(id)), ids.find((id) => !/^[A-Za-z0-9_]/.test(id)));
  });
});
