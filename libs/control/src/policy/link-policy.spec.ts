import { DEFAULT_LINK_POLICY, judgeLink, routable, validateLinkPolicy } from './link-policy';

describe('link policy', () => {
  it('keeps a link with a decommissioned lane in service, and routes around one running 1 bit wide', () => {
    expect(judgeLink({ lanes: 3, downAtNs: [] }, 0)).toBe('in-service');
    expect(judgeLink({ lanes: 2, downAtNs: [] }, 0)).toBe('in-service');
    expect(judgeLink({ lanes: 1, downAtNs: [] }, 0)).toBe('narrow');
    expect(routable(judgeLink({ lanes: 1, downAtNs: [] }, 0))).toBe(false);
    expect(judgeLink({ lanes: 1, downAtNs: [] }, 0, { ...DEFAULT_LINK_POLICY, minLanes: 1 })).toBe('in-service');
    expect(judgeLink({ lanes: 0, downAtNs: [] }, 0)).toBe('down');
  });

  it('quarantines a link that flaps more than the limit within the window, until an operator clears it', () => {
    const policy = { minLanes: 2, flapLimit: 2, flapWindowNs: 1000 };
    const flapping = { lanes: 3, downAtNs: [100, 400, 700] };
    expect(judgeLink(flapping, 800, policy)).toBe('quarantined');
    // Once the bounces age out of the window, it is trusted again.
    expect(judgeLink(flapping, 1500, policy)).toBe('in-service');
    // An operator's clear forgives the bounces before it.
    expect(judgeLink({ ...flapping, clearedAtNs: 750 }, 800, policy)).toBe('in-service');
    expect(judgeLink({ lanes: 3, downAtNs: [100, 400] }, 800, policy)).toBe('in-service');
  });

  it('names what is wrong with a policy', () => {
    expect(validateLinkPolicy({ minLanes: 4, flapLimit: 0, flapWindowNs: -1 })).toEqual([
      'minLanes must be 1, 2 or 3, got 4',
      'flapLimit must be a positive whole number, got 0',
      'flapWindowNs must be positive, got -1',
    ]);
    expect(validateLinkPolicy(DEFAULT_LINK_POLICY)).toEqual([]);
  });
});
