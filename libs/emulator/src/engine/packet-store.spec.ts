import { DiscardReason, PacketStore } from './packet-store';
import { BufferQueues, SegmentPool } from './segment-pool';

describe('PacketStore', () => {
  it('counts labelled packets in flight until each is delivered or discarded, across growth and id reuse', () => {
    const store = new PacketStore(2);
    const labelled = [1, 2, 3].map((i) => store.allocate(0, i, 4, 0, 0, 0, 0, 1));
    const maintenance = store.allocate(0, 0, 4, 0, 0, 0, 0, -1);
    store.allocate(0, 0, 4, 0, 0, 0, 0, 0);
    expect(store.taggedInFlight).toBe(3);
    store.deliver(maintenance);
    store.deliver(labelled[0]);
    store.discard(labelled[1], DiscardReason.NoRoute, -1, 0);
    expect(store.taggedInFlight).toBe(1);
    const reused = store.allocate(0, 0, 4, 0, 0, 0, 0, 0); // takes the last freed id, a labelled packet's
    expect(labelled).toContain(reused);
    store.deliver(reused);
    expect(store.taggedInFlight).toBe(1);
    store.deliver(labelled[2]);
    expect(store.taggedInFlight).toBe(0);
    expect(store.books().balanced).toBe(true);
  });

  it('enters each discard in the open ledger by reason, port, destination and epoch, with its first and last cycle', () => {
    const store = new PacketStore(8);
    const packet = (destination: number) => store.allocate(destination, 0, 4, 0, 0, 0, 0, 0);
    store.discard(packet(3), DiscardReason.LinkDown, 70, 5); // before the ledger: counted, not entered
    store.openDiscardLedger();
    store.discard(packet(3), DiscardReason.LinkDown, 70, 10);
    store.discard(packet(3), DiscardReason.LinkDown, 70, 14);
    store.discard(packet(4), DiscardReason.LinkDown, 70, 12);
    store.discard(packet(3), DiscardReason.NoRoute, 70, 12);
    store.nextDiscardEpoch();
    store.discard(packet(3), DiscardReason.LinkDown, 70, 20);
    store.discard(packet(3), DiscardReason.LinkDown, -1, 21);
    const entries = store.takeDiscardLedger().map((e) => [e.epoch, DiscardReason[e.reason], e.port, e.destination, e.count, e.firstCycle, e.lastCycle]);
    expect(entries).toEqual([
      [0, 'LinkDown', 70, 3, 2, 10, 14],
      [0, 'LinkDown', 70, 4, 1, 12, 12],
      [0, 'NoRoute', 70, 3, 1, 12, 12],
      [1, 'LinkDown', 70, 3, 1, 20, 20],
      [1, 'LinkDown', -1, 3, 1, 21, 21],
    ]);
    expect(store.discarded[DiscardReason.LinkDown]).toBe(6);
    store.discard(packet(3), DiscardReason.LinkDown, 70, 30); // the ledger was taken: closed
    expect(store.takeDiscardLedger()).toEqual([]);
  });

  it("gives an ended packet's id out again only once no buffer entry holds any of its phits", () => {
    // A packet cut by a dead link ends at its destination while a router still drains its rest.
    const store = new PacketStore(4);
    const pool = new SegmentPool(4, store);
    const buffers = new BufferQueues(2, pool);
    const cut = store.allocate(0, 0, 19, 0, 0, 0, 0, 0);
    buffers.push(0, pool.allocate(cut, 0, 1)); // the rest, in the dying router
    buffers.push(1, pool.allocate(cut, 0, 1)); // the copy that went on
    buffers.shift(1);
    store.discard(cut, DiscardReason.LinkDown, -1, 0);
    expect(store.books()).toMatchObject({ inFlight: 0, discarded: { LinkDown: 1 }, balanced: true });
    const next = store.allocate(0, 0, 4, 0, 0, 0, 0, 0);
    expect(next).not.toBe(cut);
    expect(() => store.discard(cut, DiscardReason.LinkDown, -1, 0)).toThrow(/ended twice/);
    store.deliver(next);
    buffers.shift(0); // the last of it: the id is free, and the next packet gets it
    expect(store.allocate(0, 0, 4, 0, 0, 0, 0, 0)).toBe(cut);
  });
});
