import { WeftException } from '../graphql/weft.exception';

export enum StudiesErrorCode {
  StudyNotFound = 'STUDY_NOT_FOUND',
  RequestInvalid = 'STUDY_REQUEST_INVALID',
  /** The fabric holds no pushed generation for the points to run under. */
  NotConfigured = 'STUDY_FABRIC_NOT_CONFIGURED',
  /** The job queue (Redis) could not be reached: nothing was started. */
  QueueUnavailable = 'STUDY_QUEUE_UNAVAILABLE',
}

export class StudiesException extends WeftException<StudiesErrorCode> {
  constructor(code: StudiesErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
  }
}
