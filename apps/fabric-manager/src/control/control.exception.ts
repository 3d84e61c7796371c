import { WeftException } from '../graphql/weft.exception';

export enum ControlErrorCode {
  GenerationNotFound = 'GENERATION_NOT_FOUND',
  RouterNotConfigured = 'ROUTER_NOT_CONFIGURED',
  /** An analysis asked of something the fabric does not have, or too large to answer. */
  AnalysisInvalid = 'ANALYSIS_INVALID',
}

export class ControlException extends WeftException<ControlErrorCode> {
  constructor(code: ControlErrorCode, message: string) {
    super(code, message);
  }
}
