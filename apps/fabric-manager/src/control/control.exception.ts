import { WeftException } from '../graphql/weft.exception';

export enum ControlErrorCode {
  GenerationNotFound = 'GENERATION_NOT_FOUND',
  RouterNotConfigured = 'ROUTER_NOT_CONFIGURED',
}

export class ControlException extends WeftException<ControlErrorCode> {
  constructor(code: ControlErrorCode, message: string) {
    super(code, message);
  }
}
