/** A sweep as the `study` query gives it (what the studies' end-to-end tests read). */
export interface SweepStudy {
  id: string;
  state: string;
  generation: number;
  pointsDone: number;
  pointsTotal: number;
  points: { index: number; state: string; worker: string | null; attempts: number; result: Record<string, unknown> | null }[];
  report: {
    pattern: string;
    points: { load: number; accepted: number; meanLatencyCycles: number; p99LatencyCycles: number; saturated: boolean }[];
    saturationLoad: number | null;
    peakAccepted: number;
  } | null;
}
