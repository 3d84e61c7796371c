import { linkRecords } from './link-engine';

describe("the link layer's port records, for any number of VCs a port (issue 56)", () => {
  it("keeps YARC's two-VC record as it was, and gives every field of every VC its own slot inside a record a power of two long", () => {
    // The layout the link layer had when two VCs were a constant: the digests hold YARC to it.
    expect(linkRecords(2)).toMatchObject({
      VC_SHIFT: 1,
      PORT_RECORD_BYTES: 64,
      P_PHITS: 1,
      P_BLOCKED: 3,
      P_LATENCY: 10,
      P_CREDITS: 11,
      P_CREDIT_WAIT: 13,
      P_ERROR_PRONE: 15,
    });
    for (const vcs of [1, 2, 3, 4, 6, 8, 16]) {
      const r = linkRecords(vcs);
      // A VC's buffers are indexed (index << VC_SHIFT) | v: the fewest bits that hold `vcs`.
      expect(1 << r.VC_SHIFT).toBe(2 ** Math.ceil(Math.log2(vcs)));
      // Byte ranges of every field, float64 and int32 alike: none may overlap or leave the record.
      const ranges: [string, number, number][] = [['rate', 0, 8]];
      for (let v = 0; v < vcs; v++) ranges.push([`phits ${v}`, 8 * (r.P_PHITS + v), 8], [`blocked ${v}`, 8 * (r.P_BLOCKED + v), 8]);
      ranges.push(['latency', 4 * r.P_LATENCY, 4], ['error-prone', 4 * r.P_ERROR_PRONE, 4]);
      for (let v = 0; v < vcs; v++) ranges.push([`credits ${v}`, 4 * (r.P_CREDITS + v), 4], [`credit wait ${v}`, 4 * (r.P_CREDIT_WAIT + v), 4]);
      const bytes = new Array<string | undefined>(r.PORT_RECORD_BYTES);
      for (const [name, at, size] of ranges) {
        expect(at + size).toBeLessThanOrEqual(r.PORT_RECORD_BYTES);
        for (let b = at; b < at + size; b++) {
          expect(bytes[b]).toBeUndefined();
          bytes[b] = name;
        }
      }
      expect(Number.isInteger(Math.log2(r.PORT_RECORD_BYTES))).toBe(true);
      expect(r.PORT_RECORD_BYTES).toBe(1 << (r.P_F64_SHIFT + 3));
    }
    expect(() => linkRecords(0)).toThrow('a port has 1 to 16 VCs, got 0');
  });
});
