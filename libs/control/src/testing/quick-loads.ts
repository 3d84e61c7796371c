/**
 * A family's quick channel-load count against the general walk through its chips' decisions
 * (analysis/forwarding.ts `quickLoad`; specs only): the same flows counted both ways, and every way
 * the two reports differ.
 */
import { channelLoad, ChannelLoadReport, Flow } from '../analysis/channel-load';
import { channelName, Forwarding } from '../analysis/forwarding';

export async function quickAgainstWalked(
  forwarding: Forwarding,
  flows: readonly Flow[],
  planes: readonly number[],
): Promise<{ quick: ChannelLoadReport; walked: ChannelLoadReport; differences: string[] }> {
  const quick = await channelLoad(forwarding, flows, { planes, vc: forwarding.vcs[0] });
  const walked = await channelLoad({ ...forwarding, quickLoad: undefined }, flows, { planes, vc: forwarding.vcs[0] });
  const differences: string[] = [];
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));
  if (quick.channels !== walked.channels) differences.push(`channels: ${quick.channels} quick, ${walked.channels} walked`);
  if (!close(quick.undeliverable, walked.undeliverable)) differences.push(`undeliverable: ${quick.undeliverable} quick, ${walked.undeliverable} walked`);
  const walkedLoads = new Map(walked.loads.map((l) => [channelName(l.channel), l.load]));
  for (const l of quick.loads) {
    const other = walkedLoads.get(channelName(l.channel));
    walkedLoads.delete(channelName(l.channel));
    if (other === undefined || !close(l.load, other)) differences.push(`${channelName(l.channel)}: ${l.load} quick, ${other ?? 'nothing'} walked`);
  }
  for (const [name, load] of walkedLoads) differences.push(`${name}: nothing quick, ${load} walked`);
  return { quick, walked, differences };
}
