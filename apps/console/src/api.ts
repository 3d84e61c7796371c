// The console's view of weft's GraphQL API: every figure it shows comes through here (issue 39: no back door).
import { post, subscribe, type GraphQLResult } from './graphql-fetcher';

export type Role = 'viewer' | 'operator' | 'admin';

export class ApiError extends Error {}

export class Api {
  constructor(readonly key: string) {}

  private get authorization(): string {
    return `Bearer ${this.key}`;
  }

  async query<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const result: GraphQLResult<T> = await post<T>({ query, variables }, { Authorization: this.authorization });
    if (result.errors?.length) throw new ApiError(result.errors.map((e) => e.message).join('; '));
    if (!result.data) throw new ApiError('the service answered without data');
    return result.data;
  }

  subscribe<T>(query: string, variables: Record<string, unknown>, next: (data: T) => void, failed: (message: string) => void): () => void {
    return subscribe<T>(
      { query, variables },
      this.authorization,
      (r) => {
        if (r.errors?.length) failed(r.errors.map((e) => e.message).join('; '));
        else if (r.data) next(r.data);
      },
      (e) => failed(e instanceof Error ? e.message : 'the event stream closed'),
    );
  }
}

export const mayOperate = (role: Role) => role === 'operator' || role === 'admin';

export interface Session {
  readonly api: Api;
  readonly role: Role;
  readonly name: string;
}

/** An error as the console shows it: the API's message, else what was thrown. */
export const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export interface FabricSummary {
  id: string;
  name: string;
  family: string;
  description: string;
  chipCount: number;
  linkCount: number;
}

export interface FabricPicture {
  fabricId: string;
  family: string;
  layout: string;
  traceExamples: string[];
  aggregated: boolean;
  cell: number | null;
  cellLabel: string | null;
  totalChips: number;
  totalCables: number;
  chipCells: number[];
  chipSizes: number[];
  cableCounts: number[];
  groups: { label: string; x: number; y: number; width: number; height: number }[];
  chipNames: string[];
  chipKinds: string[];
  chipStates: string[];
  chipX: number[];
  chipY: number[];
  chipGroups: number[];
  cableA: number[];
  cableAPort: number[];
  cableB: number[];
  cableBPort: number[];
  cableClasses: string[];
  cableStates: string[];
}

export const PICTURE_QUERY = `query($input: FabricPictureInput!) { fabricPicture(input: $input) {
  fabricId family layout traceExamples aggregated cell cellLabel totalChips totalCables groups { label x y width height }
  chipNames chipKinds chipStates chipX chipY chipGroups chipCells chipSizes
  cableA cableAPort cableB cableBPort cableClasses cableStates cableCounts } }`;

export interface FabricEvent {
  id: string;
  cursor: string;
  kind: string;
  chip: string | null;
  port: number | null;
  wallTime: string;
  details: Record<string, unknown>;
  acknowledgedAt: string | null;
  acknowledgedBy?: string | null;
  acknowledgementNote?: string | null;
}

export const EVENT_FIELDS = 'id cursor kind chip port wallTime details acknowledgedAt';
