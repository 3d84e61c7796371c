import { Torus } from '../torus/torus';
import { bglFaultSetWords, parseBglFaultSet } from './fault-set-register';
import { TorusFaults } from './torus-faults';

describe('the BG/L fault set register', () => {
  const plus = new Torus([8, 8, 8], 'plus');
  const parity = new Torus([8, 8, 8], 'source-parity');

  it('names the tie rule the hint registers follow, so that a node reads the faults on a torus with that rule', () => {
    const words = bglFaultSetWords(8, new TorusFaults(parity, [3, 77], [{ node: 5, direction: 2 }]));
    expect(words).toEqual([8, 2, 3, 77, 1, 5, 2, 1]);
    // A node holding a 'plus' torus of its own still reads the rule from the words.
    const parsed = parseBglFaultSet(plus, words);
    expect(parsed).toMatchObject({ relayPenaltyHops: 8, tieRule: 'source-parity' });
    if ('problem' in parsed) throw new Error(parsed.problem);
    expect(parsed.faults.torus.tieRule).toBe('source-parity');
    expect([...parsed.faults.nodes]).toEqual([3, 77]);
  });

  it('reads words written before the rule was named as the plus rule, and refuses an unknown rule', () => {
    expect(parseBglFaultSet(parity, [8, 1, 3, 0])).toMatchObject({ tieRule: 'plus' });
    expect(parseBglFaultSet(plus, [8, 1, 3, 0, 2])).toEqual({ problem: 'the tie rule is 0 (plus) or 1 (source-parity), got 2' });
    expect(parseBglFaultSet(plus, [8, 1, 3, 0, 1, 1])).toMatchObject({ problem: expect.stringContaining('link count 0 does not fit') });
  });
});
