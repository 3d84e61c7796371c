import { WeftException } from '../graphql/weft.exception';

export enum FaultsErrorCode {
  FaultNotFound = 'FAULT_NOT_FOUND',
  FaultTargetInvalid = 'FAULT_TARGET_INVALID',
  FaultAlreadyActive = 'FAULT_ALREADY_ACTIVE',
}

export class FaultsException extends WeftException<FaultsErrorCode> {
  constructor(code: FaultsErrorCode, message: string) {
    super(code, message);
  }
}
