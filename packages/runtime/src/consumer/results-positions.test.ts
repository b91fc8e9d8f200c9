import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResultsPositions } from './results-positions.ts';

describe('ResultsPositions', () => {
  it('given results read on a partition, then a join reads it on from the next one, not from the committed offset', () => {
    const positions = new ResultsPositions();
    positions.assigned([3, 4, 5]);
    assert.equal(positions.from(3), undefined, 'never read here: the committed offset');
    positions.read(3, '41');
    positions.read(3, '42');
    positions.read(3, '40');
    assert.equal(positions.from(3), '43', 'another member may have committed past what this one has not read');
  });

  it('given an assignment without the partition, then it is forgotten: a later one reads from the committed offset', () => {
    const positions = new ResultsPositions();
    positions.assigned([3]);
    positions.read(3, '42');
    positions.assigned([3, 4]);
    assert.equal(positions.from(3), '43', 'kept while assigned again');
    positions.assigned([0]);
    positions.assigned([3]);
    assert.equal(positions.from(3), undefined);
  });
});
