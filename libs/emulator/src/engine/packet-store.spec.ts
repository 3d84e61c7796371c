import { DiscardReason, PacketStore } from './packet-store';

describe('PacketStore', () => {
  it('counts labelled packets in flight until each is delivered or discarded, across growth and id reuse', () => {
    const store = new PacketStore(2);
    const labelled = [1, 2, 3].map((i) => store.allocate(0, i, 4, 0, 0, 0, 0, 1));
    const maintenance = store.allocate(0, 0, 4, 0, 0, 0, 0, -1);
    store.allocate(0, 0, 4, 0, 0, 0, 0, 0);
    expect(store.taggedInFlight).toBe(3);
    store.deliver(maintenance);
    store.deliver(labelled[0]);
    store.discard(labelled[1], DiscardReason.NoRoute);
    expect(store.taggedInFlight).toBe(1);
    const reused = store.allocate(0, 0, 4, 0, 0, 0, 0, 0); // takes the last freed id, a labelled packet's
    expect(labelled).toContain(reused);
    store.deliver(reused);
    expect(store.taggedInFlight).toBe(1);
    store.deliver(labelled[2]);
    expect(store.taggedInFlight).toBe(0);
    expect(store.books().balanced).toBe(true);
  });

  it('counts labelled packets in flight per group of their source ports', () => {
    const store = new PacketStore(4);
    store.setGroups(Uint8Array.from([0, 1, 1, 2]), 3);
    const a = store.allocate(0, 1, 4, 0, 0, 0, 0, 1);
    store.allocate(0, 2, 4, 0, 0, 0, 0, 1);
    store.allocate(0, 3, 4, 0, 0, 0, 0, 0); // unlabelled
    store.allocate(0, -1, 4, 0, 0, 0, 0, 1); // no source port: group 0
    expect(Array.from(store.taggedInFlightByGroup)).toEqual([1, 2, 0]);
    store.discard(a, DiscardReason.LinkDown);
    expect(Array.from(store.taggedInFlightByGroup)).toEqual([1, 1, 0]);
    expect(() => store.setGroups(new Uint8Array(4), 1)).toThrow(/labelled packets are in flight/);
  });
});
