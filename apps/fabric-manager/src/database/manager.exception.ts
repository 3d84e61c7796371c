import { WeftException } from '../graphql/weft.exception';

export enum ManagerErrorCode {
  /** A write sent to the standby (or to a manager taken over): nothing was done. */
  NotActive = 'MANAGER_NOT_ACTIVE',
}

export class ManagerException extends WeftException<ManagerErrorCode> {
  constructor(code: ManagerErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message, details);
  }
}
