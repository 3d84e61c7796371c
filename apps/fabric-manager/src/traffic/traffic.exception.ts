import { WeftException } from '../graphql/weft.exception';

export enum TrafficErrorCode {
  RequestInvalid = 'TRAFFIC_REQUEST_INVALID',
  RunInProgress = 'TRAFFIC_RUN_IN_PROGRESS',
  RunNotFound = 'TRAFFIC_RUN_NOT_FOUND',
}

export class TrafficException extends WeftException<TrafficErrorCode> {
  constructor(code: TrafficErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
  }
}
