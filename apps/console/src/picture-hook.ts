/**
 * What the console exposes of the picture on screen as `window.weftPicture`, for automation that
 * clicks it (the end-to-end tests do): cables by an end, their state, where to click one.
 */
export interface WeftPictureHook {
  /** The index of the cable with this end (chip, port), or -1. */
  cableIndex(chip: string, port: number): number;
  cableState(j: number): string;
  /** The point of cable j, relative to the picture's box, where a click picks it and nothing else. */
  clearPoint(j: number): { x: number; y: number };
  chipPoint(name: string): { x: number; y: number };
  /** The cables of the route drawn. */
  routeCables(): number[];
  /** The cables the heat map colours. */
  loadedCables(): number[];
  /** Zooms in by `factor` and resolves, once the picture is drawn again, with the milliseconds it took. */
  zoom(factor: number): Promise<number>;
  /** Opens cell k of an aggregated picture (as a second click on it does). */
  openCell(k: number): void;
}
