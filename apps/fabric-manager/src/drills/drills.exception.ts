import { WeftException } from '../graphql/weft.exception';

export enum DrillsErrorCode {
  DrillInvalid = 'DRILL_INVALID',
  DrillNotFound = 'DRILL_NOT_FOUND',
  RunNotFound = 'DRILL_RUN_NOT_FOUND',
}

export class DrillsException extends WeftException<DrillsErrorCode> {
  constructor(code: DrillsErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
  }
}
