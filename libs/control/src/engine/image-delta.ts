/**
 * Configuration images stored in proportion to what changed (issue 35): a generation is kept as a
 * delta on its parent — the chips whose images changed, each as an RFC 6902 JSON Patch on its
 * image in the parent (fast-json-patch: a maintained implementation of the standard, so a delta is
 * readable by any JSON Patch tool), the chips added whole, the chips removed by name — instead of
 * the whole image of every chip. A one-cable fault on the 32K-processor fabric changes the tables
 * of about a thousand routers, one entry each: 0.2 MB instead of 16 MB, made in a few ms.
 *
 * Generic over families: an image is its chips, each named, plus whatever else the family keeps
 * beside them (stored whole: it is small). Routing engines keep the image object of a chip that did
 * not change, and of a chip that did the arrays of its registers that did not (issue 55), so
 * "unchanged" is an identity test, chip by chip and register by register: a register whose array
 * is new is compared word by word and replaced whole, or entry by entry where few words changed;
 * only a field of another shape is compared in full.
 */
import { applyPatch, compare, deepClone, Operation } from 'fast-json-patch';

/** What every family's configuration image is: one image per configured chip, by name. */
export interface ChipImages {
  readonly routers: readonly { readonly name: string }[];
}

export interface ImageDelta {
  readonly format: 'weft-image-delta/1';
  /** Chips in both images whose images differ: the patch that makes the parent's into this one's. */
  readonly patched: readonly { readonly chip: string; readonly patch: readonly Operation[] }[];
  /** Chips the parent did not configure, whole. */
  readonly added: readonly { readonly name: string }[];
  /** Chips the parent configured and this image does not. */
  readonly removed: readonly string[];
  /** The chips in order, where it is not the parent's with the removed dropped and the added appended. */
  readonly order?: readonly string[];
  /** The image without its chips, whole. */
  readonly rest: Record<string, unknown>;
}

/** The delta that makes `parent` into `next`, and how many chips it names. */
export function imageDelta<I extends ChipImages>(parent: I, next: I): { delta: ImageDelta; chips: number } {
  const before = new Map(parent.routers.map((r) => [r.name, r]));
  const patched: { chip: string; patch: Operation[] }[] = [];
  const added: { name: string }[] = [];
  const present = new Set<string>();
  for (const chip of next.routers) {
    present.add(chip.name);
    const old = before.get(chip.name);
    if (old === chip) continue;
    if (!old) {
      added.push(chip);
      continue;
    }
    const patch = chipPatch(old as unknown as Record<string, unknown>, chip as unknown as Record<string, unknown>);
    if (patch.length > 0) patched.push({ chip: chip.name, patch });
  }
  const removed = parent.routers.filter((r) => !present.has(r.name)).map((r) => r.name);
  const names = next.routers.map((r) => r.name);
  const implied = impliedOrder(parent, removed, added);
  const inOrder = implied.length === names.length && implied.every((name, i) => name === names[i]);
  const { routers: _routers, ...rest } = next as ChipImages & Record<string, unknown>;
  void _routers;
  const delta: ImageDelta = { format: 'weft-image-delta/1', patched, added, removed, ...(inOrder ? {} : { order: names }), rest };
  return { delta, chips: patched.length + added.length + removed.length };
}

/** The image `delta` makes of `parent` (which is left as it was: patched chips are copies; the delta's values may be taken over). */
export function applyImageDelta<I extends ChipImages>(parent: I, delta: ImageDelta): I {
  if (delta.format !== 'weft-image-delta/1') throw new Error(`not an image delta: format ${String(delta.format)}`);
  const chips = new Map<string, { name: string }>(parent.routers.map((r) => [r.name, r]));
  for (const name of delta.removed) chips.delete(name);
  for (const { chip, patch } of delta.patched) {
    const old = chips.get(chip);
    if (!old) throw new Error(`the delta patches chip "${chip}", which its parent image does not configure`);
    // The patch is applied (and validated: a corrupt delta is refused) to a copy of the parent's
    // chip, which it may change in place; the parent is left as it was.
    chips.set(chip, applyPatch(deepClone(old) as object, patch as Operation[], true, true).newDocument as { name: string });
  }
  for (const chip of delta.added) chips.set(chip.name, chip);
  const order = delta.order ?? impliedOrder(parent, delta.removed, delta.added);
  const routers = order.map((name) => {
    const chip = chips.get(name);
    if (!chip) throw new Error(`the delta orders chip "${name}", which it does not configure`);
    return chip;
  });
  return { ...delta.rest, routers } as unknown as I;
}

/** The patch that makes one chip's image `old` into `next`, field by field (see the file's comment). */
function chipPatch(old: Record<string, unknown>, next: Record<string, unknown>): Operation[] {
  const patch: Operation[] = [];
  for (const field of Object.keys(old)) if (!(field in next)) patch.push({ op: 'remove', path: `/${escapeField(field)}` });
  for (const field of Object.keys(next)) {
    const a = old[field];
    const b = next[field];
    if (a === b) continue;
    const path = `/${escapeField(field)}`;
    if (!(field in old)) patch.push({ op: 'add', path, value: b });
    else if (isWords(a) && isWords(b)) wordsPatch(a, b, path, patch);
    else for (const op of compare({ v: a }, { v: b })) patch.push({ ...op, path: path + op.path.slice(2) });
  }
  return patch;
}

function isWords(value: unknown): value is readonly number[] {
  return Array.isArray(value) && (value.length === 0 || typeof value[0] === 'number');
}

/** A register's words: nothing where equal, entry by entry where at most a quarter of a same-length array changed, else replaced whole. */
function wordsPatch(a: readonly number[], b: readonly number[], path: string, patch: Operation[]): void {
  if (a.length === b.length) {
    const changed: number[] = [];
    for (let i = 0; i < a.length && changed.length * 4 <= a.length; i++) if (a[i] !== b[i]) changed.push(i);
    if (changed.length === 0) return;
    if (changed.length * 4 <= a.length) {
      for (const i of changed) patch.push({ op: 'replace', path: `${path}/${i}`, value: b[i] });
      return;
    }
  }
  patch.push({ op: 'replace', path, value: b });
}

/** A field name as a JSON Pointer token (RFC 6901). */
function escapeField(field: string): string {
  return field.replace(/~/g, '~0').replace(/\//g, '~1');
}

function impliedOrder(parent: ChipImages, removed: readonly string[], added: readonly { name: string }[]): string[] {
  const gone = new Set(removed);
  return [...parent.routers.filter((r) => !gone.has(r.name)).map((r) => r.name), ...added.map((r) => r.name)];
}

/**
 * The chips whose images differ in more than `aside` (fields that are not registers, such as
 * BlackWidow's maintenance route), in the next image's order, and the chips removed.
 */
export function chipsChanged(next: ChipImages, delta: ImageDelta, aside: readonly string[] = []): { changed: string[]; removed: string[] } {
  const outside = (path: string) => !aside.some((field) => path === `/${field}` || path.startsWith(`/${field}/`));
  const names = new Set<string>(delta.added.map((c) => c.name));
  for (const { chip, patch } of delta.patched) if (patch.some((op) => outside(op.path))) names.add(chip);
  const changed = names.size === 0 ? [] : next.routers.filter((r) => names.has(r.name)).map((r) => r.name);
  return { changed, removed: [...delta.removed] };
}
